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
  const r = await call(listDirTool, { depth: 2, head_limit: 2 }, h);
  assert.equal(
    text(r),
    "docs/\ndocs/guide.md (1 B)\n[... 5 more entries; call again with offset=2]",
  );
  assert.equal(sc(r).total, 7);
  const next = await call(listDirTool, { depth: 2, head_limit: 2, offset: 2 }, h);
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

const WIDE: Record<string, string> = { "top.txt": "t", "z.md": "z" };
for (const folder of ["alpha", "beta", "gamma"]) {
  for (let i = 0; i < 150; i++) WIDE[`${folder}/f${String(i).padStart(3, "0")}.c`] = "c";
}
WIDE["beta/sub/deep.c"] = "d";

toolTest(
  "list_dir: without depth, the depth is lowered until the first page holds the whole top level",
  WIDE,
  async (h) => {
    const r = await call(listDirTool, {}, h);
    assert.equal(
      text(r),
      [
        "alpha/ (150 entries)",
        "beta/ (151 entries)",
        "gamma/ (150 entries)",
        "top.txt (1 B)",
        "z.md (1 B)",
        "[depth 1 shown: 451 entries below; list a subfolder for more]",
      ].join("\n"),
    );
    assert.deepEqual(sc(r), {
      entries: text(r).split("\n").slice(0, 5),
      total: 5,
      offset: 0,
      depth: 1,
      truncated: false,
    });
  },
);

toolTest("list_dir: an explicit depth is never lowered (the listing pages)", WIDE, async (h) => {
  const r = await call(listDirTool, { depth: 2 }, h);
  assert.equal(sc(r).depth, 2);
  assert.equal(sc(r).truncated, true);
  assert.equal((sc(r).entries as string[]).length, 400);
  assert.doesNotMatch(text(r), /depth \d shown/);
});

toolTest("list_dir: the default depth stays when the listing fits", TREE, async (h) => {
  const r = await call(listDirTool, {}, h);
  assert.equal(sc(r).depth, 2);
  assert.doesNotMatch(text(r), /shown/);
});

toolTest("list_dir: the budget also lowers the depth", WIDE, async (h) => {
  h.ctx.config.maxOutputChars = 3000;
  const r = await call(listDirTool, { path: "beta" }, h);
  assert.equal(sc(r).depth, 1);
  assert.match(text(r), /\[depth 1 shown: 1 entry below; list a subfolder for more\]/);
});

toolTest(
  "list_dir: a top level larger than a page is listed at depth 1 and paged, the hint last",
  (() => {
    const tree: Record<string, string> = {};
    for (let i = 0; i < 450; i++) tree[`d${String(i).padStart(3, "0")}/x.c`] = "x";
    return tree;
  })(),
  async (h) => {
    const r = await call(listDirTool, {}, h);
    assert.equal(sc(r).depth, 1);
    assert.equal((sc(r).entries as string[]).length, 400);
    const lines = text(r).split("\n");
    assert.equal(lines.at(-2), "[depth 1 shown: 450 entries below; list a subfolder for more]");
    assert.equal(lines.at(-1), "[... 50 more entries; call again with offset=400]");
    const next = await call(listDirTool, { offset: 400 }, h);
    assert.equal(sc(next).depth, 1);
    assert.equal((sc(next).entries as string[])[0], "d400/ (1 entry)");
  },
);
