import assert from "node:assert/strict";
import { makeTree, openWorkspaceAt, sh, walkAll, writeTree } from "../helpers/fixture.ts";

Deno.test("workspace.walk: depth-first, each folder sorted by name in code-unit order", async () => {
  const t = await makeTree({
    "b.txt": "",
    "a/z.txt": "",
    "a/B.txt": "",
    "a.b/x.txt": "",
    "a-/y.txt": "",
    "é.txt": "",
    "Z.txt": "",
  });
  try {
    const ws = openWorkspaceAt(t.root);
    // "a" < "a-" < "a.b" < "b.txt" by code unit; "Z" (90) before "a" (97); "é" last.
    assert.deepEqual(walkAll(ws), [
      "Z.txt",
      "a/B.txt",
      "a/z.txt",
      "a-/y.txt",
      "a.b/x.txt",
      "b.txt",
      "é.txt",
    ]);
  } finally {
    await t.dispose();
  }
});

Deno.test("workspace.walk: dirs yields each folder before its contents", async () => {
  const t = await makeTree({ "a/b/c.txt": "", "d.txt": "" });
  try {
    const ws = openWorkspaceAt(t.root);
    const entries = [...ws.walk("", { dirs: true })].map((e) => `${e.rel}${e.isDir ? "/" : ""}`);
    assert.deepEqual(entries, ["a/", "a/b/", "a/b/c.txt", "d.txt"]);
  } finally {
    await t.dispose();
  }
});

Deno.test("workspace.walk: maxDepth 1 lists only direct children", async () => {
  const t = await makeTree({ "a/b/c.txt": "", "d.txt": "" });
  try {
    const ws = openWorkspaceAt(t.root);
    assert.deepEqual(walkAll(ws, "", { dirs: true, maxDepth: 1 } as { dirs: boolean }), [
      "a",
      "d.txt",
    ]);
    const entries = [...ws.walk("a", { dirs: true, maxDepth: 1 })].map((e) => e.rel);
    assert.deepEqual(entries, ["a/b"]);
  } finally {
    await t.dispose();
  }
});

Deno.test("workspace.walk: stat fills size and mtime, without it both stay 0", async () => {
  const t = await makeTree({ "a.txt": "12345" });
  try {
    const ws = openWorkspaceAt(t.root);
    const [withStat] = [...ws.walk("", { stat: true })];
    assert.equal(withStat.size, 5);
    assert.ok(withStat.mtimeMs > 0);
    const [without] = [...ws.walk("")];
    assert.equal(without.size, 0);
    assert.equal(without.mtimeMs, 0);
  } finally {
    await t.dispose();
  }
});

Deno.test("workspace.walk: starting at a subfolder yields root-relative paths", async () => {
  const t = await makeTree({ "src/a/b.ts": "", "src/c.ts": "", "other.ts": "" });
  try {
    const ws = openWorkspaceAt(t.root);
    assert.deepEqual(walkAll(ws, "src"), ["src/a/b.ts", "src/c.ts"]);
    assert.deepEqual(walkAll(ws, "src/c.ts"), ["src/c.ts"]);
    assert.deepEqual([...ws.walk("src/c.ts", { after: "zzz" })].length, 0);
    assert.deepEqual([...ws.walk("src/c.ts", { after: "src/a/b.ts" })].map((e) => e.rel), [
      "src/c.ts",
    ]);
  } finally {
    await t.dispose();
  }
});

Deno.test("workspace.walk: after resumes strictly after a path", async () => {
  const t = await makeTree({ "a/1.txt": "", "a/2.txt": "", "a/b/3.txt": "", "c.txt": "" });
  try {
    const ws = openWorkspaceAt(t.root);
    const all = walkAll(ws);
    for (let i = 0; i < all.length; i++) {
      const rest = [...ws.walk("", { after: all[i] })].map((e) => e.rel);
      assert.deepEqual(rest, all.slice(i + 1), `after ${all[i]}`);
    }
  } finally {
    await t.dispose();
  }
});

Deno.test("workspace.walk: after a path that no longer exists resumes at the next one", async () => {
  const t = await makeTree({ "a/1.txt": "", "a/3.txt": "", "b/x.txt": "" });
  try {
    const ws = openWorkspaceAt(t.root);
    assert.deepEqual([...ws.walk("", { after: "a/2.txt" })].map((e) => e.rel), [
      "a/3.txt",
      "b/x.txt",
    ]);
    assert.deepEqual([...ws.walk("", { after: "a0/gone/deep.txt" })].map((e) => e.rel), [
      "b/x.txt",
    ]);
  } finally {
    await t.dispose();
  }
});

Deno.test("workspace.walk: after descends straight to the position without reading earlier folders", async () => {
  const t = await makeTree({ "a/1.txt": "", "b/x/2.txt": "", "b/y/3.txt": "", "c/4.txt": "" });
  const original = Deno.readDirSync;
  const read: string[] = [];
  try {
    const ws = openWorkspaceAt(t.root);
    Deno.readDirSync = (path: string | URL) => {
      read.push(String(path).slice(ws.root.length));
      return original(path);
    };
    const rest = [...ws.walk("", { after: "b/x/2.txt" })].map((e) => e.rel);
    assert.deepEqual(rest, ["b/y/3.txt", "c/4.txt"]);
    assert.deepEqual(read, ["", "/b", "/b/x", "/b/y", "/c"]);
  } finally {
    Deno.readDirSync = original;
    await t.dispose();
  }
});

Deno.test("workspace.walk: leaves out .git in any letter case", async () => {
  const t = await makeTree({
    ".git/HEAD": "ref",
    ".Git/x": "",
    "sub/.git": "gitdir: x",
    "a.txt": "",
  });
  try {
    const ws = openWorkspaceAt(t.root, { noIgnore: true, allowSecrets: true });
    assert.deepEqual(walkAll(ws), ["a.txt"]);
  } finally {
    await t.dispose();
  }
});

Deno.test("workspace.walk: serves hidden files", async () => {
  const t = await makeTree({ ".hidden/a.txt": "", ".config": "" });
  try {
    assert.deepEqual(walkAll(openWorkspaceAt(t.root)), [".config", ".hidden/a.txt"]);
  } finally {
    await t.dispose();
  }
});

Deno.test("workspace.walk: leaves out secret files in any letter case unless allowSecrets", async () => {
  const t = await makeTree({
    ".env": "",
    ".ENV.local": "",
    ".env.example": "",
    "Id_Rsa.pub": "",
    "cert.PeM": "",
    "Credentials.JSON": "",
    "main.ts": "",
  });
  try {
    assert.deepEqual(walkAll(openWorkspaceAt(t.root)), [".env.example", "main.ts"]);
    assert.equal(walkAll(openWorkspaceAt(t.root, { allowSecrets: true })).length, 7);
  } finally {
    await t.dispose();
  }
});

Deno.test("workspace.walk: .gitignore applies inside a git work tree, nested ones too", async () => {
  const t = await makeTree({
    ".git/": "",
    ".gitignore": "*.log\n/build/\n",
    "a.log": "",
    "build/out.js": "",
    "src/build/kept.js": "",
    "src/.gitignore": "gen/\n!keep.log\n",
    "src/keep.log": "",
    "src/gen/x.ts": "",
    "src/main.ts": "",
  });
  try {
    assert.deepEqual(walkAll(openWorkspaceAt(t.root)), [
      ".gitignore",
      "src/.gitignore",
      "src/build/kept.js",
      "src/keep.log",
      "src/main.ts",
    ]);
  } finally {
    await t.dispose();
  }
});

Deno.test("workspace.walk: .gitignore means nothing outside a git work tree", async () => {
  // The kernel tarball's top-level .gitignore ends in `/*`: outside git it must hide nothing.
  const t = await makeTree({ ".gitignore": "*\n/*\n", "Makefile": "", "kernel/fork.c": "" });
  try {
    assert.deepEqual(walkAll(openWorkspaceAt(t.root)), [".gitignore", "Makefile", "kernel/fork.c"]);
  } finally {
    await t.dispose();
  }
});

Deno.test("workspace.walk: a .git entry in a parent folder makes the root a work tree", async () => {
  const t = await makeTree({ "proj/.gitignore": "*.o\n", "proj/a.o": "", "proj/a.c": "" }, "repo");
  try {
    await Deno.writeTextFile(`${t.root}/.git`, "gitdir: elsewhere");
    await Deno.writeTextFile(`${t.root}/.gitignore`, "proj/secret_dir/\n");
    await writeTree(t.root, { "proj/secret_dir/x.c": "" });
    assert.deepEqual(walkAll(openWorkspaceAt(`${t.root}/proj`)), [".gitignore", "a.c"]);
  } finally {
    await t.dispose();
  }
});

Deno.test("workspace.walk: .git/info/exclude applies inside a git work tree", async () => {
  const t = await makeTree({ ".git/info/exclude": "*.tmp\n", "a.tmp": "", "a.c": "" });
  try {
    assert.deepEqual(walkAll(openWorkspaceAt(t.root)), ["a.c"]);
  } finally {
    await t.dispose();
  }
});

Deno.test("workspace.walk: .ignore and .rgignore apply outside git, .rgignore overriding", async () => {
  const t = await makeTree({
    ".ignore": "*.gen\ntmp/\n",
    ".rgignore": "!keep.gen\n",
    "a.gen": "",
    "keep.gen": "",
    "tmp/x": "",
    "src/.ignore": "*.bak\n",
    "src/a.bak": "",
    "src/a.c": "",
  });
  try {
    assert.deepEqual(walkAll(openWorkspaceAt(t.root)), [
      ".ignore",
      ".rgignore",
      "keep.gen",
      "src/.ignore",
      "src/a.c",
    ]);
  } finally {
    await t.dispose();
  }
});

Deno.test("workspace.walk: noIgnore lifts every ignore file", async () => {
  const t = await makeTree({
    ".git/": "",
    ".gitignore": "*.log\n",
    ".ignore": "b/\n",
    "a.log": "",
    "b/c": "",
  });
  try {
    assert.deepEqual(walkAll(openWorkspaceAt(t.root, { noIgnore: true })), [
      ".gitignore",
      ".ignore",
      "a.log",
      "b/c",
    ]);
  } finally {
    await t.dispose();
  }
});

Deno.test("workspace.walk: ignore rules in a folder above the root apply (as ripgrep)", async () => {
  const t = await makeTree({ ".ignore": "*.skip\n", "root/a.skip": "", "root/a.c": "" }, "top");
  try {
    assert.deepEqual(walkAll(openWorkspaceAt(`${t.root}/root`)), ["a.c"]);
  } finally {
    await t.dispose();
  }
});

Deno.test("workspace.walk: follows inside symlinks as their own paths, leaves out outside ones", async () => {
  const t = await makeTree({ "src/a.ts": "", "src/deep/b.ts": "" });
  try {
    await Deno.writeTextFile(`${t.base}/outside.txt`, "x");
    await Deno.mkdir(`${t.base}/outdir`);
    await Deno.writeTextFile(`${t.base}/outdir/f.txt`, "x");
    await Deno.symlink("src", `${t.root}/lnk`);
    await Deno.symlink("src/a.ts", `${t.root}/file_link.ts`);
    await Deno.symlink(`${t.base}/outside.txt`, `${t.root}/out_file`);
    await Deno.symlink("../outdir", `${t.root}/out_dir`);
    await Deno.symlink("nope", `${t.root}/dangling`);
    const ws = openWorkspaceAt(t.root);
    assert.deepEqual(walkAll(ws), [
      "file_link.ts",
      "lnk/a.ts",
      "lnk/deep/b.ts",
      "src/a.ts",
      "src/deep/b.ts",
    ]);
    const linked = [...ws.walk("")].find((e) => e.rel === "lnk/a.ts");
    assert.equal(linked?.abs, `${ws.root}/src/a.ts`);
  } finally {
    await t.dispose();
  }
});

Deno.test("workspace.walk: leaves out symlinks to secrets, .git and ignored targets", async () => {
  const t = await makeTree({
    ".env": "",
    ".git/config": "",
    ".ignore": "build/\n",
    "build/o.js": "",
    "a.txt": "",
  });
  try {
    await Deno.symlink(".env", `${t.root}/notes.txt`);
    await Deno.symlink(".git/config", `${t.root}/cfg`);
    await Deno.symlink("build", `${t.root}/out`);
    assert.deepEqual(walkAll(openWorkspaceAt(t.root)), [".ignore", "a.txt"]);
  } finally {
    await t.dispose();
  }
});

Deno.test("workspace.walk: a symlink cycle never repeats or hangs", async () => {
  const t = await makeTree({ "a/f.txt": "", "b/g.txt": "" });
  try {
    await Deno.symlink("..", `${t.root}/a/up`);
    await Deno.symlink("../b", `${t.root}/a/to_b`);
    await Deno.symlink("../a", `${t.root}/b/to_a`);
    await Deno.symlink(".", `${t.root}/self`);
    const paths = walkAll(openWorkspaceAt(t.root));
    assert.equal(new Set(paths).size, paths.length);
    assert.deepEqual(paths, [
      "a/f.txt",
      "a/to_b/g.txt",
      "b/g.txt",
      "b/to_a/f.txt",
    ]);
  } finally {
    await t.dispose();
  }
});

Deno.test("workspace.walk: a FIFO inside the root is left out and never opened", async () => {
  const t = await makeTree({ "a.txt": "" });
  try {
    await sh("mkfifo pipe && ln -s pipe pipe_link", t.root);
    assert.deepEqual(walkAll(openWorkspaceAt(t.root)), ["a.txt"]);
  } finally {
    await t.dispose();
  }
});

Deno.test("workspace.walk: ignore files that are FIFOs are not read and hang nothing", async () => {
  const t = await makeTree({ ".git/": "", "sub/a.txt": "" });
  try {
    await sh("mkfifo .gitignore .ignore sub/.rgignore", t.root);
    const ws = openWorkspaceAt(t.root);
    assert.deepEqual(walkAll(ws), ["sub/a.txt"]);
    assert.equal(ws.resolve("sub/a.txt").rel, "sub/a.txt");
  } finally {
    await t.dispose();
  }
});

Deno.test("workspace.walk: names that are not valid UTF-8 are skipped", async () => {
  const t = await makeTree({ "ok.txt": "", "\uFFFD.txt": "" });
  try {
    await sh(
      `printf x > "$(printf 'bad\\xff.txt')" && mkdir "$(printf 'dir\\xfe')" && printf y > "$(printf 'dir\\xfe')/in.txt"`,
      t.root,
    );
    assert.deepEqual(walkAll(openWorkspaceAt(t.root)), ["ok.txt", "\uFFFD.txt"]);
  } finally {
    await t.dispose();
  }
});

Deno.test("workspace.walk: a name that is not UTF-8 never repeats a real name it reads back as", async () => {
  const t = await makeTree({ "\uFFFD.txt": "real" });
  try {
    await sh(`printf x > "$(printf '\\xff.txt')"`, t.root);
    assert.deepEqual(walkAll(openWorkspaceAt(t.root)), ["\uFFFD.txt"]);
  } finally {
    await t.dispose();
  }
});

Deno.test("workspace.walk: throws when the signal is aborted", async () => {
  const t = await makeTree({ "a/b.txt": "" });
  try {
    const controller = new AbortController();
    controller.abort();
    const ws = openWorkspaceAt(t.root);
    assert.throws(() => [...ws.walk("", { signal: controller.signal })]);
  } finally {
    await t.dispose();
  }
});

Deno.test("workspace.walk: lists a folder of 100k entries in order", async () => {
  const t = await makeTree({}, "root", { inMemory: true });
  try {
    await sh("mkdir big && cd big && seq -f 'f%06g' 0 99999 | xargs touch", t.root);
    const paths = walkAll(openWorkspaceAt(t.root));
    assert.equal(paths.length, 100_000);
    assert.equal(paths[0], "big/f000000");
    assert.equal(paths[99_999], "big/f099999");
    const resumed = [...openWorkspaceAt(t.root).walk("", { after: "big/f050000" })];
    assert.equal(resumed.length, 49_999);
    assert.equal(resumed[0].rel, "big/f050001");
  } finally {
    await t.dispose();
  }
});

Deno.test("workspace.walk: sees an ignore file edited since the previous walk", async () => {
  const t = await makeTree({ ".ignore": "a.txt\n", "a.txt": "", "b.txt": "" });
  try {
    const ws = openWorkspaceAt(t.root);
    assert.deepEqual(walkAll(ws), [".ignore", "b.txt"]);
    await Deno.writeTextFile(`${t.root}/.ignore`, "b.txt\n");
    assert.deepEqual(walkAll(ws), [".ignore", "a.txt"]);
  } finally {
    await t.dispose();
  }
});

Deno.test("workspace.walk: a nested repository's .gitignore applies inside it even when the root is not in git", async () => {
  const t = await makeTree({
    "plain/.gitignore": "*.o\n",
    "plain/a.o": "",
    "repo/.git/": "",
    "repo/.gitignore": "*.o\n",
    "repo/b.o": "",
    "repo/b.c": "",
  });
  try {
    assert.deepEqual(walkAll(openWorkspaceAt(t.root)), [
      "plain/.gitignore",
      "plain/a.o",
      "repo/.gitignore",
      "repo/b.c",
    ]);
  } finally {
    await t.dispose();
  }
});

Deno.test("workspace.walk: a .gitignore above the work-tree top does not apply", async () => {
  const t = await makeTree({ ".gitignore": "*.c\n", "root/.git/": "", "root/a.c": "" }, "outer");
  try {
    assert.deepEqual(walkAll(openWorkspaceAt(`${t.root}/root`)), ["a.c"]);
  } finally {
    await t.dispose();
  }
});
