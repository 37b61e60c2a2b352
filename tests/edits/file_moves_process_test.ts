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
    const folder = await p.call("move_file", { source: "docs", destination: "doc" });
    assert.equal(
      folder.text,
      'Cannot move "docs": it is a folder; move_file moves one file at a time',
    );
  });
});
