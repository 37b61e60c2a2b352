/**
 * edit_file and write_file as tools (docs/tools.md "edit_file", "write_file"): listed only with
 * --write, read before write through read_file and resources/read, and every cache sees a write
 * at once (an edit then a grep finds the new text).
 */
import assert from "node:assert/strict";
import { call, type Harness, text, toolTest } from "../tools/helpers.ts";
import { editFileTool } from "../../lib/tools/edit_file.ts";
import { writeFileTool } from "../../lib/tools/write_file.ts";
import { readFileTool } from "../../lib/tools/read_file.ts";
import { grepTool } from "../../lib/tools/grep.ts";
import { globTool } from "../../lib/tools/glob.ts";
import { toolsFor } from "../../lib/tools/index.ts";
import { createResourceProvider } from "../../lib/resources/provider.ts";
import { pathToFileUri } from "../../lib/workspace/uri.ts";
import { Session } from "../../lib/tools/session.ts";
import { cleanup, grepIndexed, indexHarness, waitFor } from "../index/helpers.ts";

const WRITE = { write: true };

async function read(h: Harness, path: string): Promise<void> {
  const r = await call(readFileTool, { path }, h);
  assert.equal(r.isError, undefined, text(r));
}

Deno.test("edit tools: listed only with --write, with destructive annotations", () => {
  const names = (write: boolean) => toolsFor({ write, git: false }).map((t) => t.name);
  assert.ok(!names(false).includes("edit_file") && !names(false).includes("write_file"));
  assert.ok(names(true).includes("edit_file") && names(true).includes("write_file"));
  for (const tool of [editFileTool, writeFileTool]) {
    assert.deepEqual(
      {
        readOnlyHint: tool.annotations.readOnlyHint,
        destructiveHint: tool.annotations.destructiveHint,
        idempotentHint: tool.annotations.idempotentHint,
        openWorldHint: tool.annotations.openWorldHint,
      },
      { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    );
    assert.ok(tool.description.length < 800);
  }
});

toolTest("edit_file: read_file, edit, then grep finds the new text", {
  "src/a.ts": "export const answer = 41;\n",
}, async (h) => {
  await read(h, "src/a.ts");
  const r = await call(editFileTool, {
    file_path: `${h.root}/src/a.ts`,
    old_string: "41",
    new_string: "42",
  }, h);
  assert.equal(r.isError, undefined, text(r));
  assert.equal(r.structuredContent!.path, "src/a.ts");
  assert.equal(r.structuredContent!.replacements, 1);
  assert.match(text(r), /^Edited src\/a\.ts: 1 replacement \(\+1 -1 lines\)\n--- a\/src\/a\.ts/);
  const g = await call(grepTool, { pattern: "answer = 42", output_mode: "content" }, h);
  assert.equal(text(g), "src/a.ts:1:export const answer = 42;");
}, WRITE);

toolTest("edit_file: without a read it is refused as an isError", { "a.ts": "a\n" }, async (h) => {
  const r = await call(editFileTool, { path: "a.ts", old_string: "a", new_string: "b" }, h);
  assert.equal(r.isError, true);
  assert.match(text(r), /^Read line 1 of a\.ts first/);
}, WRITE);

toolTest("edit_file: a page of read_file authorises the lines it showed, not others", {
  "long.txt": Array.from({ length: 50 }, (_, i) => `line ${i + 1}`).join("\n") + "\n",
}, async (h) => {
  const page = await call(readFileTool, { path: "long.txt", offset: 40, limit: 2 }, h);
  assert.equal(page.isError, undefined);
  const edit = { path: "long.txt", old_string: "line 3\nline 4\n", new_string: "" };
  const refused = await call(editFileTool, edit, h);
  assert.equal(
    text(refused),
    "Read lines 3-4 of long.txt first (read_file with offset=3 and limit=2): an edit may change " +
      "only lines this session was shown since the file last changed",
  );
  assert.equal(
    (await call(editFileTool, { path: "long.txt", old_string: "line 41", new_string: "L41" }, h))
      .isError,
    undefined,
  );
  await call(readFileTool, { path: "long.txt", offset: 3, limit: 2 }, h);
  const r = await call(editFileTool, edit, h);
  assert.equal(r.isError, undefined, text(r));
}, WRITE);

toolTest("edit_file: resources/read counts as a read", { "r.md": "# title\n" }, async (h) => {
  const provider = createResourceProvider(h.ws, h.ctx.config, { edits: h.ctx.session.edits });
  try {
    await provider.read(pathToFileUri(`${h.ws.root}/r.md`), new AbortController().signal);
  } finally {
    provider.close();
  }
  const r = await call(editFileTool, { path: "r.md", old_string: "title", new_string: "T" }, h);
  assert.equal(r.isError, undefined, text(r));
}, WRITE);

toolTest(
  "edit_file: path and file_path together, or neither, are refused",
  { "a.ts": "a\n" },
  async (h) => {
    const both = await call(editFileTool, {
      path: "a.ts",
      file_path: "a.ts",
      old_string: "a",
      new_string: "b",
    }, h);
    assert.match(text(both), /only one of file_path and path/);
    const neither = await call(editFileTool, { old_string: "a", new_string: "b" }, h);
    assert.match(text(neither), /Missing file/);
  },
  WRITE,
);

toolTest("edit_file: dry_run says so and the file keeps its text", { "a.ts": "a\n" }, async (h) => {
  await read(h, "a.ts");
  const r = await call(editFileTool, {
    path: "a.ts",
    old_string: "a",
    new_string: "b",
    dry_run: true,
  }, h);
  assert.match(
    text(r),
    /^Dry run: a\.ts was not changed; 1 replacement would be made \(\+1 -1 lines\)/,
  );
  assert.equal(Deno.readTextFileSync(`${h.root}/a.ts`), "a\n");
}, WRITE);

toolTest("edit_file: a big diff is cut to the output budget", {
  "big.txt": Array.from({ length: 3000 }, (_, i) => `x${i % 7} padding padding`).join("\n") + "\n",
}, async (h) => {
  await call(readFileTool, { path: "big.txt", limit: 3000 }, h);
  const r = await call(editFileTool, {
    path: "big.txt",
    old_string: "x3",
    new_string: "y3",
    replace_all: true,
  }, h);
  const diff = r.structuredContent!.diff as string;
  // The result stays within the 20,000-character budget as text and as structuredContent.
  assert.ok(text(r).length <= 20_000, `${text(r).length}`);
  assert.ok(JSON.stringify(r.structuredContent).length <= 20_000);
  assert.match(diff, /\[\.\.\. \d+ more diff lines; \+\d+ -\d+ lines in all\]$/);
  assert.equal(r.structuredContent!.replacements, 429);
}, WRITE);

toolTest(
  "write_file: a new file is found by glob and grep at once",
  { "a.ts": "a\n" },
  async (h) => {
    // Warm the workers' caches first.
    await call(grepTool, { pattern: "zebra" }, h);
    const r = await call(writeFileTool, { path: "new/zebra.ts", content: "const zebra = 1;\n" }, h);
    assert.deepEqual(r.structuredContent, {
      path: "new/zebra.ts",
      created: true,
      bytes: 17,
      sha256: r.structuredContent!.sha256,
    });
    assert.equal(text(await call(grepTool, { pattern: "zebra" }, h)), "new/zebra.ts");
    assert.match(text(await call(globTool, { pattern: "**/zebra.ts" }, h)), /new\/zebra\.ts/);
  },
  WRITE,
);

toolTest("write_file: a rewritten .gitignore changes what grep sees at once", {
  ".git/HEAD": "ref: refs/heads/main\n",
  ".gitignore": "gen/\n",
  "gen/out.ts": "const needle = 1;\n",
  "src/a.ts": "const other = 1;\n",
}, async (h) => {
  assert.equal(text(await call(grepTool, { pattern: "needle" }, h)), "No matches found");
  await read(h, ".gitignore");
  const r = await call(writeFileTool, { path: ".gitignore", content: "" }, h);
  assert.equal(r.isError, undefined, text(r));
  assert.equal(text(await call(grepTool, { pattern: "needle" }, h)), "gen/out.ts");
  assert.equal(text(await call(grepTool, { pattern: "needle", path: "gen" }, h)), "gen/out.ts");
}, WRITE);

toolTest(
  "write_file: replacing shows the diff; an unread file is refused",
  { "a.ts": "a\n" },
  async (h) => {
    const refused = await call(writeFileTool, { path: "a.ts", content: "b\n" }, h);
    assert.match(text(refused), /^Read a\.ts first/);
    await read(h, "a.ts");
    const r = await call(writeFileTool, { path: "a.ts", content: "b\n" }, h);
    assert.equal(r.structuredContent!.created, false);
    assert.match(r.structuredContent!.diff as string, /-a\n\+b$/);
  },
  WRITE,
);

toolTest("edit tools: without --write the session cannot edit", { "a.ts": "a\n" }, async (h) => {
  await read(h, "a.ts");
  const r = await call(editFileTool, { path: "a.ts", old_string: "a", new_string: "b" }, h);
  assert.match(text(r), /Editing is off/);
  assert.equal(Deno.readTextFileSync(`${h.root}/a.ts`), "a\n");
});

Deno.test("edit tools: with the trigram index ready and its watcher deaf, edits are found by grep through the index", async () => {
  const h = await indexHarness({ "src/a.c": "int old_token;\n", "src/b.c": "int other;\n" });
  // The index's session, with editing on, so writes reach its update hook.
  const scan = h.ctx.session;
  h.ctx = { ...h.ctx, session: new Session({ write: true, index: h.index }) };
  try {
    await waitFor(h.index, "ready");
    h.index.simulate("deafen"); // only the server's own notice can tell the index now
    await read(h, "src/a.c");
    const edited = await call(editFileTool, {
      path: "src/a.c",
      old_string: "old_token",
      new_string: "fresh_token",
    }, h);
    assert.equal(edited.isError, undefined, text(edited));
    await call(writeFileTool, { path: "src/new.c", content: "int fresh_token2;\n" }, h);
    const r = await grepIndexed(h, { pattern: "fresh_token" });
    assert.equal(r.text, "src/a.c\nsrc/new.c");
    assert.equal(r.indexed, true, r.why);
    assert.equal((await grepIndexed(h, { pattern: "old_token" })).text, "No matches found");
  } finally {
    scan.close();
    await cleanup(h);
  }
});
