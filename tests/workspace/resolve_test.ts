import assert from "node:assert/strict";
import { Workspace, WorkspaceError } from "../../lib/workspace/workspace.ts";
import { makeTree, openWorkspaceAt } from "../helpers/fixture.ts";

function reasonOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof WorkspaceError) return e.reason;
    throw e;
  }
  return "none";
}

Deno.test("workspace.resolve: accepts root-relative, dot, absolute and file URI spellings of one file", async () => {
  const t = await makeTree({ "src/a.ts": "a" });
  try {
    const ws = openWorkspaceAt(t.root);
    const want = { rel: "src/a.ts", abs: `${ws.root}/src/a.ts` };
    assert.deepEqual(ws.resolve("src/a.ts"), want);
    assert.deepEqual(ws.resolve("./src//./a.ts"), want);
    assert.deepEqual(ws.resolve(`${t.root}/src/a.ts`), want);
    assert.deepEqual(ws.resolve(`file://${t.root}/src/a.ts`), want);
    assert.deepEqual(ws.resolve(`file://localhost${t.root}/src/a.ts`), want);
    assert.deepEqual(ws.resolve("src/x/../a.ts"), want);
  } finally {
    await t.dispose();
  }
});

Deno.test('workspace.resolve: the root is "", "." and its absolute path', async () => {
  const t = await makeTree({ "a.txt": "a" });
  try {
    const ws = openWorkspaceAt(t.root);
    for (const input of ["", ".", "./", t.root, `${t.root}/`, `file://${t.root}`]) {
      assert.deepEqual(ws.resolve(input), { rel: "", abs: ws.root }, input);
    }
  } finally {
    await t.dispose();
  }
});

Deno.test("workspace.resolve: percent-decodes file URIs", async () => {
  const t = await makeTree({ "sp ace é.ts": "x", "100%.txt": "y" });
  try {
    const ws = openWorkspaceAt(t.root);
    assert.equal(ws.resolve(`file://${t.root}/sp%20ace%20%C3%A9.ts`).rel, "sp ace é.ts");
    assert.equal(ws.resolve(`file://${t.root}/100%25.txt`).rel, "100%.txt");
  } finally {
    await t.dispose();
  }
});

Deno.test("workspace.resolve: a root under a symlinked folder accepts both spellings", async () => {
  const t = await makeTree({ "real/f.txt": "x" }, "base");
  try {
    await Deno.symlink(`${t.root}/real`, `${t.root}/alias`);
    const ws = openWorkspaceAt(`${t.root}/alias`);
    assert.equal(ws.root, await Deno.realPath(`${t.root}/real`));
    assert.equal(ws.resolve(`${t.root}/alias/f.txt`).rel, "f.txt");
    assert.equal(ws.resolve(`${t.root}/real/f.txt`).rel, "f.txt");
    assert.equal(ws.resolve(`file://${t.root}/alias/f.txt`).rel, "f.txt");
  } finally {
    await t.dispose();
  }
});

Deno.test("workspace.resolve: refuses a sibling folder sharing the root's name as prefix (CVE-2025-53110)", async () => {
  const t = await makeTree({ "ok.txt": "x" }, "root");
  try {
    await Deno.mkdir(`${t.base}/root_evil`);
    await Deno.writeTextFile(`${t.base}/root_evil/secret.txt`, "stolen");
    const ws = openWorkspaceAt(t.root);
    for (
      const input of [
        "../root_evil/secret.txt",
        `${t.base}/root_evil/secret.txt`,
        `${t.root}_evil/secret.txt`,
        `${t.root}/../root_evil/secret.txt`,
        `file://${t.base}/root_evil/secret.txt`,
        `file://${t.root}_evil/secret.txt`,
      ]
    ) {
      assert.equal(reasonOf(() => ws.resolve(input)), "outside", input);
    }
  } finally {
    await t.dispose();
  }
});

Deno.test("workspace.resolve: a symlink leading out is absent whether its target exists or not (CVE-2025-53109)", async () => {
  const t = await makeTree({ "ok.txt": "x" });
  try {
    await Deno.writeTextFile(`${t.base}/outside.txt`, "stolen");
    await Deno.mkdir(`${t.base}/outdir`);
    await Deno.writeTextFile(`${t.base}/outdir/f.txt`, "stolen");
    await Deno.symlink(`${t.base}/outside.txt`, `${t.root}/out_file`);
    await Deno.symlink("../outdir", `${t.root}/out_dir`);
    await Deno.symlink(`${t.base}/does-not-exist.txt`, `${t.root}/out_dangling`);
    const ws = openWorkspaceAt(t.root);
    const messages = new Set<string>();
    for (
      const input of ["out_file", "out_dir/f.txt", "out_dir", "out_dir/nope.txt", "out_dangling"]
    ) {
      try {
        ws.resolve(input);
        assert.fail(`resolved ${input}`);
      } catch (e) {
        assert.ok(e instanceof WorkspaceError);
        assert.equal(e.reason, "missing", input);
        messages.add(e.message.replace(JSON.stringify(input), "X"));
      }
    }
    assert.equal(messages.size, 1, "one message whatever the outside target is");
  } finally {
    await t.dispose();
  }
});

Deno.test("workspace.resolve: follows symlinks that stay inside and returns the real path", async () => {
  const t = await makeTree({ "src/a.ts": "a" });
  try {
    await Deno.symlink("src", `${t.root}/lnk`);
    await Deno.symlink("src/a.ts", `${t.root}/a_link.ts`);
    const ws = openWorkspaceAt(t.root);
    assert.deepEqual(ws.resolve("lnk/a.ts"), { rel: "lnk/a.ts", abs: `${ws.root}/src/a.ts` });
    assert.deepEqual(ws.resolve("a_link.ts"), { rel: "a_link.ts", abs: `${ws.root}/src/a.ts` });
  } finally {
    await t.dispose();
  }
});

Deno.test("workspace.resolve: refuses paths that climb out lexically, even when they come back", async () => {
  const t = await makeTree({ "a.txt": "x" });
  try {
    const ws = openWorkspaceAt(t.root);
    assert.equal(reasonOf(() => ws.resolve("..")), "outside");
    assert.equal(reasonOf(() => ws.resolve("../root/a.txt")), "outside");
    assert.equal(reasonOf(() => ws.resolve("/etc/passwd")), "outside");
    assert.equal(reasonOf(() => ws.resolve("file:///etc/passwd")), "outside");
  } finally {
    await t.dispose();
  }
});

Deno.test("workspace.resolve: refuses malformed input as invalid-path", async () => {
  const t = await makeTree({ "a.txt": "x" });
  try {
    const ws = openWorkspaceAt(t.root);
    for (
      const input of [
        "a\0.txt",
        "src\\a.txt",
        `file://${t.root}/a%00.txt`,
        `file://example.com${t.root}/a.txt`,
        `http://localhost${t.root}/a.txt`,
        `file://${t.root}/a.txt?x=1`,
        `file://${t.root}/a.txt#frag`,
        `file://${t.root}/%E9.txt`,
        `file://${t.root}/%zz.txt`,
        "x".repeat(10_000),
      ]
    ) {
      assert.equal(reasonOf(() => ws.resolve(input)), "invalid-path", input.slice(0, 60));
    }
  } finally {
    await t.dispose();
  }
});

Deno.test("workspace.resolve: never expands ~", async () => {
  const t = await makeTree({ "~/a.txt": "x" });
  try {
    const ws = openWorkspaceAt(t.root);
    assert.equal(ws.resolve("~/a.txt").rel, "~/a.txt");
    assert.equal(reasonOf(() => ws.resolve("~/.bashrc")), "missing");
  } finally {
    await t.dispose();
  }
});

Deno.test("workspace.resolve: missing targets are refused as missing", async () => {
  const t = await makeTree({ "a.txt": "x" });
  try {
    const ws = openWorkspaceAt(t.root);
    assert.equal(reasonOf(() => ws.resolve("nope.txt")), "missing");
    assert.equal(reasonOf(() => ws.resolve("a.txt/under-a-file")), "missing");
  } finally {
    await t.dispose();
  }
});

Deno.test("workspace.resolve: refuses .git in any letter case, as named and as a symlink target", async () => {
  const t = await makeTree({ ".git/config": "[core]", ".GIT/x": "y", "ok.txt": "z" });
  try {
    await Deno.symlink(".git/config", `${t.root}/config_link`);
    await Deno.symlink(".git", `${t.root}/gitdir_link`);
    const ws = openWorkspaceAt(t.root, { noIgnore: true, allowSecrets: true });
    for (const input of [".git", ".git/config", ".GIT/x", "config_link", "gitdir_link/config"]) {
      assert.equal(reasonOf(() => ws.resolve(input)), "git", input);
    }
  } finally {
    await t.dispose();
  }
});

Deno.test("workspace.resolve: refuses secrets as named and through a symlink, lifted by allowSecrets", async () => {
  const t = await makeTree({ ".env": "KEY=1", "keys/Server.PEM": "k", "notes.md": "n" });
  try {
    await Deno.symlink(".env", `${t.root}/notes.txt`);
    const ws = openWorkspaceAt(t.root);
    assert.equal(reasonOf(() => ws.resolve(".env")), "secret");
    assert.equal(reasonOf(() => ws.resolve("keys/Server.PEM")), "secret");
    assert.equal(reasonOf(() => ws.resolve("notes.txt")), "secret");
    const open = openWorkspaceAt(t.root, { allowSecrets: true });
    assert.equal(open.resolve("notes.txt").rel, "notes.txt");
    assert.equal(open.resolve(".env").rel, ".env");
  } finally {
    await t.dispose();
  }
});

Deno.test("workspace.resolve: refuses ignored paths as named and through a symlink, lifted by noIgnore", async () => {
  const t = await makeTree({ ".ignore": "build/\n*.log\n", "build/out.js": "o", "a.log": "l" });
  try {
    await Deno.symlink("build/out.js", `${t.root}/out_link.js`);
    const ws = openWorkspaceAt(t.root);
    assert.equal(reasonOf(() => ws.resolve("build")), "ignored");
    assert.equal(reasonOf(() => ws.resolve("build/out.js")), "ignored");
    assert.equal(reasonOf(() => ws.resolve("a.log")), "ignored");
    assert.equal(reasonOf(() => ws.resolve("out_link.js")), "ignored");
    const all = openWorkspaceAt(t.root, { noIgnore: true });
    assert.equal(all.resolve("out_link.js").rel, "out_link.js");
  } finally {
    await t.dispose();
  }
});

Deno.test("workspace.resolve: error messages quote the input in one sentence", async () => {
  const t = await makeTree({ "a.txt": "x" });
  try {
    const ws = openWorkspaceAt(t.root);
    assert.throws(() => ws.resolve("../x.ts"), {
      message: 'Cannot access "../x.ts": path is outside the workspace',
    });
  } finally {
    await t.dispose();
  }
});

Deno.test("Workspace.openSync: takes the real path of the root and keeps options cloneable", async () => {
  const t = await makeTree({ "a.txt": "x" });
  try {
    await Deno.symlink(t.root, `${t.base}/link`);
    const ws = Workspace.openSync({
      root: `${t.base}/link`,
      noIgnore: false,
      allowSecrets: true,
    });
    assert.equal(ws.root, await Deno.realPath(t.root));
    const clone = structuredClone(ws.options);
    assert.equal(clone.root, ws.root);
    const again = Workspace.openSync(clone);
    assert.equal(again.resolve(`${t.base}/link/a.txt`).rel, "a.txt");
    assert.equal(again.options.allowSecrets, true);
  } finally {
    await t.dispose();
  }
});

Deno.test("Workspace.openSync: refuses a missing root and a file as root", async () => {
  const t = await makeTree({ "a.txt": "x" });
  try {
    assert.throws(
      () => Workspace.openSync({ root: `${t.root}/nope`, noIgnore: false, allowSecrets: false }),
      WorkspaceError,
    );
    assert.throws(
      () => Workspace.openSync({ root: `${t.root}/a.txt`, noIgnore: false, allowSecrets: false }),
      WorkspaceError,
    );
  } finally {
    await t.dispose();
  }
});
