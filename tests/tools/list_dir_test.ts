import assert from "node:assert/strict";
import { listDirTool } from "../../lib/tools/list_dir.ts";
import { call, text, toolTest } from "./helpers.ts";

const TREE: Record<string, string> = {
  "b.txt": "12345",
  "a.md": "x".repeat(2048),
  "src/z.ts": "z",
  "src/lib/x.ts": "x",
  "src/lib/y.ts": "y",
  "docs/guide.md": "g",
  ".env": "SECRET=1",
  ".git/HEAD": "ref",
};

function sc(result: { structuredContent?: Record<string, unknown> }) {
  return result.structuredContent as Record<string, unknown>;
}

toolTest("list_dir: folders first, then files, each sorted, sizes shown", TREE, async (h) => {
  const r = await call(listDirTool, {}, h);
  assert.equal(
    text(r),
    [
      "docs/",
      "docs/guide.md (1 B)",
      "src/",
      "src/lib/ (2 entries)",
      "src/z.ts (1 B)",
      "a.md (2.0 KB)",
      "b.txt (5 B)",
    ].join("\n"),
  );
});

toolTest("list_dir: depth 1 shows direct children with entry counts", TREE, async (h) => {
  const r = await call(listDirTool, { depth: 1 }, h);
  assert.deepEqual(sc(r).entries, [
    "docs/ (1 entry)",
    "src/ (2 entries)",
    "a.md (2.0 KB)",
    "b.txt (5 B)",
  ]);
});

toolTest("list_dir: path lists a subfolder with root-relative paths", TREE, async (h) => {
  const r = await call(listDirTool, { path: "src", depth: 3 }, h);
  assert.equal(text(r), "src/lib/\nsrc/lib/x.ts (1 B)\nsrc/lib/y.ts (1 B)\nsrc/z.ts (1 B)");
});

toolTest("list_dir: .git and secret entries are left out", TREE, async (h) => {
  const r = await call(listDirTool, { depth: 5, head_limit: 0 }, h);
  const all = (sc(r).entries as string[]).join("\n");
  assert.doesNotMatch(all, /\.git|\.env/);
});

toolTest("list_dir: head_limit and offset page through entries", TREE, async (h) => {
  const r = await call(listDirTool, { head_limit: 2 }, h);
  assert.equal(
    text(r),
    "docs/\ndocs/guide.md (1 B)\n[... 5 more entries; call again with offset=2]",
  );
  assert.equal(sc(r).total, 7);
  const next = await call(listDirTool, { head_limit: 2, offset: 2 }, h);
  assert.deepEqual(sc(next).entries, ["src/", "src/lib/ (2 entries)"]);
});

toolTest("list_dir: a file path is an error pointing to read_file", TREE, async (h) => {
  const r = await call(listDirTool, { path: "b.txt" }, h);
  assert.equal(r.isError, true);
  assert.match(text(r), /read_file/);
});

toolTest("list_dir: a path outside the root is refused", TREE, async (h) => {
  const r = await call(listDirTool, { path: "../.." }, h);
  assert.equal(r.isError, true);
  assert.match(text(r), /outside the workspace/);
});

toolTest("list_dir: an empty folder says so", { "empty/.keep": "" }, async (h) => {
  await Deno.remove(`${h.root}/empty/.keep`);
  const r = await call(listDirTool, { path: "empty" }, h);
  assert.equal(text(r), "(empty folder)");
});

toolTest(
  "list_dir: ignored entries are left out",
  { ".ignore": "build/\n*.log\n", "build/out.js": "x", "app.log": "l", "src/a.ts": "a" },
  async (h) => {
    const r = await call(listDirTool, {}, h);
    assert.equal(text(r), "src/\nsrc/a.ts (1 B)\n.ignore (13 B)");
  },
);

toolTest("list_dir: a missing folder suggests the nearest served folders", TREE, async (h) => {
  const r = await call(listDirTool, { path: "src/lob" }, h);
  assert.equal(r.isError, true);
  assert.match(text(r), /; did you mean src\/lib\/\?$/);
});
