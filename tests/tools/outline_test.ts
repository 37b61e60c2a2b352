/** outline (docs/tools.md "outline"): text, structuredContent, depth, paging and refusals. */
import assert from "node:assert/strict";
import { outlineTool } from "../../lib/tools/outline.ts";
import { call, text, toolTest } from "./helpers.ts";

const SHAPES = [
  "export interface Shape {",
  "  area(): number;",
  "}",
  "",
  "export class Square implements Shape {",
  "  side = 1;",
  "  area(): number {",
  "    return this.side ** 2;",
  "  }",
  "}",
  "",
  "export function unit(): Square {",
  "  return new Square();",
  "}",
  "",
].join("\n");

toolTest(
  "outline: one symbol per line, indented by level; structuredContent holds the same lines",
  {
    "src/shapes.ts": SHAPES,
  },
  async (h) => {
    const result = await call(outlineTool, { path: "src/shapes.ts" }, h);
    assert.equal(
      text(result),
      [
        "1-3 interface Shape",
        "  2-2 method area",
        "5-10 class Square",
        "  6-6 field side",
        "  7-9 method area",
        "12-14 function unit",
      ].join("\n"),
    );
    assert.deepEqual(result.structuredContent, {
      path: "src/shapes.ts",
      language: "TypeScript",
      partial: false,
      symbols: text(result).split("\n"),
      total: 6,
      offset: 0,
      truncated: false,
    });
  },
);

toolTest("outline: depth 1 shows the top level only; file_path works too", {
  "shapes.ts": SHAPES,
}, async (h) => {
  const result = await call(outlineTool, { file_path: `${h.root}/shapes.ts`, depth: 1 }, h);
  assert.equal(text(result), "1-3 interface Shape\n5-10 class Square\n12-14 function unit");
});

toolTest("outline: pages by symbols; a child whose parent is on an earlier page names it", {
  "shapes.ts": SHAPES,
}, async (h) => {
  const first = await call(outlineTool, { path: "shapes.ts", head_limit: 3 }, h);
  assert.equal(
    text(first),
    "1-3 interface Shape\n  2-2 method area\n5-10 class Square\n" +
      "[... 3 more symbols; call again with offset=3]",
  );
  assert.equal(first.structuredContent?.next_offset, 3);
  const second = await call(outlineTool, { path: "shapes.ts", head_limit: 3, offset: 3 }, h);
  assert.equal(
    text(second),
    "  6-6 field side  (in Square)\n  7-9 method area  (in Square)\n12-14 function unit",
  );
  assert.deepEqual(second.structuredContent?.symbols, text(second).split("\n"));
  assert.equal(second.structuredContent?.truncated, false);
});

toolTest("outline: a file with syntax errors still gets its outline, partial", {
  "broken.py": "def fine():\n    return 1\n\ndef broken(:\n    pass\n\nclass Later:\n    x = 1\n",
}, async (h) => {
  const result = await call(outlineTool, { path: "broken.py" }, h);
  assert.equal(result.structuredContent?.partial, true);
  assert.match(text(result), /^1-2 function fine$/m);
  assert.match(text(result), /^7-8 class Later\n {2}8-8 field x$/m);
  // Python's own parser stops at the same line.
  const python = await new Deno.Command("python3", {
    args: [
      "-c",
      "import sys\ntry:\n compile(open(sys.argv[1]).read(), 'f', 'exec')\n" +
      "except SyntaxError as e:\n print(e.lineno)",
      `${h.root}/broken.py`,
    ],
    stdout: "piped",
  }).output();
  const line = new TextDecoder().decode(python.stdout).trim();
  assert.equal(line, "4");
  assert.match(
    text(result),
    new RegExp(`\\[partial: the file could not be fully parsed at line ${line}; symbols near`),
  );
});

toolTest("outline: a file over --max-read-bytes is an error naming the limit", {
  "big.c": "int x;\n".repeat(200),
}, async (h) => {
  const result = await call(outlineTool, { path: "big.c" }, h);
  assert.equal(result.isError, true);
  assert.equal(
    text(result),
    'Cannot read symbols of "big.c": it is 1400 bytes, over the 1000-byte limit; use grep or ' +
      "read_file with offset and limit (the user can raise the limit by restarting the server " +
      "with --max-read-bytes)",
  );
}, { maxReadBytes: 1000 });

toolTest("outline: a binary file is an error", {
  "blob.c": new Uint8Array([105, 110, 116, 0, 0, 1]),
}, async (h) => {
  const result = await call(outlineTool, { path: "blob.c" }, h);
  assert.equal(result.isError, true);
  assert.equal(text(result), 'Cannot read symbols of "blob.c": it is a binary file');
});

toolTest("outline: other files are an error naming the languages", {
  "notes.md": "# Notes\n",
  "src/a.ts": "",
}, async (h) => {
  const md = await call(outlineTool, { path: "notes.md" }, h);
  assert.equal(md.isError, true);
  assert.equal(
    text(md),
    'Cannot outline "notes.md": not a file of a supported language; symbols are read from C, ' +
      "C++, TypeScript, TSX, JavaScript, Python, Go, Rust, Java, Ruby files",
  );
  const folder = await call(outlineTool, { path: "src" }, h);
  assert.equal(text(folder), 'Cannot outline "src": it is a folder; give one of its files');
  const missing = await call(outlineTool, { path: "src/b.ts" }, h);
  assert.equal(missing.isError, true);
  const empty = await call(outlineTool, { path: "src/a.ts" }, h);
  assert.equal(text(empty), 'No symbols found in "src/a.ts"');
});

toolTest("outline: a changed file is outlined afresh", {
  "m.go": "package m\n\nfunc A() {}\n",
}, async (h) => {
  assert.equal(text(await call(outlineTool, { path: "m.go" }, h)), "3-3 function A");
  await Deno.writeTextFile(`${h.root}/m.go`, "package m\n\nfunc B() {}\n\nfunc C() {}\n");
  assert.equal(
    text(await call(outlineTool, { path: "m.go" }, h)),
    "3-3 function B\n5-5 function C",
  );
});

toolTest("outline: path and file_path together are refused", { "a.ts": "" }, async (h) => {
  const result = await call(outlineTool, { path: "a.ts", file_path: "a.ts" }, h);
  assert.equal(text(result), "Give only one of path and file_path, not both");
});
