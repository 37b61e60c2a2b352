/**
 * delete_file and move_file through the real server (docs/tools.md "delete_file", "move_file"):
 * listed only with --write, every path through the write rules, a delete needs the file shown, a
 * move's destination must not exist, and listings, grep and the read-before-write state see the
 * change at once; checked against the bytes on disk.
 */
import assert from "node:assert/strict";
import { makeTree } from "../helpers/fixture.ts";
import { ToolProcess } from "../helpers/tool_process.ts";

const TREE = {
  "src/a.ts": "export const a = 'alpha';\n",
  "src/b.ts": "export const b = 'beta';\n",
  "docs/readme.md": "# docs\n",
  ".gitignore": "build/\n",
};

async function withServer(
  fn: (p: ToolProcess, root: string) => Promise<void>,
  flags = ["--write"],
): Promise<void> {
  const { root, dispose } = await makeTree(TREE);
  Deno.mkdirSync(`${root}/.git`);
  Deno.mkdirSync(`${root}/empty`);
  const p = await ToolProcess.start(root, flags);
  try {
    await fn(p, root);
  } finally {
    await p.stop();
    await dispose();
  }
}

function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

Deno.test("delete_file/move_file process: listed only with --write, with the edit tools' annotations", async () => {
  await withServer(async (p) => {
    const names = await p.toolNames();
    assert.ok(!names.includes("delete_file") && !names.includes("move_file"), names.join());
    const answer = await p.request("tools/call", {
      name: "delete_file",
      arguments: { path: "src/a.ts" },
    });
    assert.deepEqual(answer.error, { code: -32602, message: "Unknown tool: delete_file" });
  }, []);
  await withServer(async (p) => {
    const list = await p.request("tools/list");
    const tools = (list.result as { tools: { name: string; annotations: unknown }[] }).tools;
    for (const name of ["delete_file", "move_file"]) {
      const tool = tools.find((t) => t.name === name);
      assert.ok(tool !== undefined, name);
      assert.deepEqual(
        { ...(tool.annotations as Record<string, unknown>), title: undefined },
        {
          title: undefined,
          readOnlyHint: false,
          destructiveHint: true,
          idempotentHint: false,
          openWorldHint: false,
        },
      );
    }
  });
});

Deno.test("delete_file process: a file shown is deleted and every listing and grep sees it at once", async () => {
  await withServer(async (p, root) => {
    // Listings and grep warm their caches first.
    assert.match((await p.call("glob", { pattern: "**/*.ts" })).text, /src\/a\.ts/);
    assert.match((await p.call("grep", { pattern: "alpha" })).text, /^src\/a\.ts$/);
    const unread = await p.call("delete_file", { path: "src/a.ts" });
    assert.equal(unread.isError, true);
    assert.equal(
      unread.text,
      "Read src/a.ts first: a file is deleted only after this session was shown it (any page)",
    );
    assert.ok(exists(`${root}/src/a.ts`));
    await p.call("read_file", { path: "src/a.ts", limit: 1 });
    const done = await p.call("delete_file", { path: "src/a.ts" });
    assert.equal(done.isError, false, done.text);
    assert.equal(done.text, "Deleted src/a.ts (26 bytes)");
    assert.deepEqual(done.structured, { path: "src/a.ts", kind: "file", bytes: 26 });
    assert.ok(!exists(`${root}/src/a.ts`));
    assert.equal((await p.call("glob", { pattern: "**/*.ts" })).text, "src/b.ts");
    assert.equal((await p.call("grep", { pattern: "alpha" })).text, "No matches found");
    const listing = await p.call("list_dir", { path: "src" });
    assert.doesNotMatch(listing.text, /a\.ts/);
    const resources = await p.request("resources/list");
    const names = (resources.result as { resources: { name: string }[] }).resources.map((r) =>
      r.name
    );
    assert.ok(!names.includes("src/a.ts"), names.join());
    const again = await p.call("delete_file", { path: "src/a.ts" });
    assert.match(again.text, /src\/a\.ts/);
    assert.equal(again.isError, true);
  });
});

Deno.test("delete_file process: folders only when empty, never .git, secrets or ignored paths", async () => {
  await withServer(async (p, root) => {
    const full = await p.call("delete_file", { path: "src" });
    assert.equal(
      full.text,
      'Cannot delete "src": the folder is not empty; delete its files first (delete_file ' +
        "removes only files and empty folders)",
    );
    const empty = await p.call("delete_file", { path: "empty" });
    assert.equal(empty.isError, false, empty.text);
    assert.equal(empty.text, "Deleted the empty folder empty");
    assert.ok(!exists(`${root}/empty`));
    const git = await p.call("delete_file", { path: ".git" });
    assert.equal(git.isError, true);
    assert.match(git.text, /\.git folder is never written/);
    assert.ok(exists(`${root}/.git`));
    const root_ = await p.call("delete_file", { path: "." });
    assert.equal(root_.isError, true);
  });
});

Deno.test("move_file process: moves a file, creates folders, keeps what was shown, and refuses an existing destination", async () => {
  await withServer(async (p, root) => {
    const taken = await p.call("move_file", { source: "src/a.ts", destination: "src/b.ts" });
    assert.equal(
      taken.text,
      'Cannot move "src/a.ts" to "src/b.ts": the destination exists; delete it first or choose another name',
    );
    await p.call("read_file", { path: "src/a.ts" });
    const moved = await p.call("move_file", { source: "src/a.ts", destination: "lib/deep/a.ts" });
    assert.equal(moved.isError, false, moved.text);
    assert.equal(moved.text, "Moved src/a.ts to lib/deep/a.ts (26 bytes)");
    assert.ok(!exists(`${root}/src/a.ts`));
    assert.equal(Deno.readTextFileSync(`${root}/lib/deep/a.ts`), TREE["src/a.ts"]);
    assert.equal(
      (await p.call("grep", { pattern: "alpha", output_mode: "content" })).text,
      "lib/deep/a.ts:1:export const a = 'alpha';",
    );
    assert.equal((await p.call("glob", { pattern: "**/a.ts" })).text, "lib/deep/a.ts");
    // Shown before the move: still shown under the new name, so no read is needed.
    const edit = await p.call("edit_file", {
      path: "lib/deep/a.ts",
      old_string: "alpha",
      new_string: "ALPHA",
    });
    assert.equal(edit.isError, false, edit.text);
    for (const destination of [".env", "build/a.ts", ".git/a.ts"]) {
      const refused = await p.call("move_file", { source: "src/b.ts", destination });
      assert.equal(refused.isError, true, destination);
    }
    assert.equal(Deno.readTextFileSync(`${root}/src/b.ts`), TREE["src/b.ts"]);
  });
});

Deno.test("move_file process: moves a folder with what it holds, and every listing, grep and read state follows", async () => {
  await withServer(async (p, root) => {
    Deno.mkdirSync(`${root}/src/inner/empty`, { recursive: true });
    Deno.writeTextFileSync(`${root}/src/inner/c.ts`, "export const c = 'gamma';\n");
    await p.call("read_file", { path: "src/a.ts" });
    assert.equal((await p.call("glob", { pattern: "**/*.ts" })).isError, false);
    const moved = await p.call("move_file", { source: "src", destination: "lib/code" });
    assert.equal(moved.isError, false, moved.text);
    assert.equal(moved.text, "Moved src to lib/code (a folder of 3 files, 77 bytes)");
    assert.deepEqual(moved.structured, {
      source: "src",
      destination: "lib/code",
      bytes: 77,
      files: 3,
    });
    assert.ok(!exists(`${root}/src`));
    assert.ok(exists(`${root}/lib/code/inner/empty`));
    assert.equal(
      Deno.readTextFileSync(`${root}/lib/code/inner/c.ts`),
      "export const c = 'gamma';\n",
    );
    assert.equal(
      (await p.call("glob", { pattern: "**/*.ts" })).text.split("\n").sort().join("\n"),
      "lib/code/a.ts\nlib/code/b.ts\nlib/code/inner/c.ts",
    );
    assert.equal(
      (await p.call("grep", { pattern: "gamma", output_mode: "content" })).text,
      "lib/code/inner/c.ts:1:export const c = 'gamma';",
    );
    // Shown before the move: still shown under the new name.
    const edit = await p.call("edit_file", {
      path: "lib/code/a.ts",
      old_string: "alpha",
      new_string: "ALPHA",
    });
    assert.equal(edit.isError, false, edit.text);
    // And back under its first name, in one call.
    const back = await p.call("move_file", { source: "lib/code", destination: "src" });
    assert.equal(back.isError, false, back.text);
    assert.ok(
      exists(`${root}/src/inner/c.ts`) && exists(`${root}/lib`) && !exists(`${root}/lib/code`),
    );
  });
});

Deno.test("move_file process: a folder move follows the write rules for every path it touches", async () => {
  await withServer(async (p, root) => {
    Deno.mkdirSync(`${root}/keys`);
    Deno.writeTextFileSync(`${root}/keys/.env`, "TOKEN=1\n");
    Deno.mkdirSync(`${root}/pkg/build`, { recursive: true });
    Deno.writeTextFileSync(`${root}/pkg/index.ts`, "export {};\n");
    Deno.writeTextFileSync(`${root}/pkg/build/out.js`, "built\n");
    Deno.mkdirSync(`${root}/linked`);
    Deno.symlinkSync("../docs/readme.md", `${root}/linked/readme.md`);
    const cases: [string, string, RegExp][] = [
      ["keys", "keys2", /^Cannot move "keys\/\.env": secret files are not served or written/],
      ["pkg", "pkg2", /"pkg\/build\/out\.js": (the )?path is excluded by ignore rules/],
      ["docs", "build", /^Cannot move "docs" to "build": the path is excluded by ignore rules/],
      ["docs", "src", /^Cannot move "docs" to "src": the destination exists/],
      ["docs", "docs/sub", /^Cannot move "docs" into itself \("docs\/sub"\)$/],
      ["linked", "linked2", /^Cannot move "linked": "linked\/readme\.md" is a symbolic link/],
      [".git", "git2", /\.git/],
      ["docs", ".git/docs", /\.git folder is never written/],
    ];
    for (const [source, destination, want] of cases) {
      const r = await p.call("move_file", { source, destination });
      assert.equal(r.isError, true, `${source} -> ${destination}: ${r.text}`);
      assert.match(r.text, want, `${source} -> ${destination}: ${r.text}`);
    }
    for (const kept of ["keys/.env", "pkg/build/out.js", "docs/readme.md", "linked/readme.md"]) {
      assert.ok(exists(`${root}/${kept}`), kept);
    }
    assert.ok(!exists(`${root}/keys2`) && !exists(`${root}/pkg2`) && !exists(`${root}/build`));
  });
});
