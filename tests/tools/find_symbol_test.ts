/** find_symbol (docs/tools.md "find_symbol"): definitions only, from syntax trees. */
import assert from "node:assert/strict";
import { findSymbolTool } from "../../lib/tools/find_symbol.ts";
import { call, text, toolTest } from "./helpers.ts";
import ts from "typescript";

const TREE = {
  "src/engine.c": [
    "/* engine_start is documented here */",
    '#include "engine.h"',
    "",
    "int engine_start(int n);",
    "",
    "static int",
    "engine_start(int n)",
    "{",
    "\treturn n + 1;",
    "}",
    "",
    "int main(void) { return engine_start(1); }",
    "",
  ].join("\n"),
  "src/engine.h": "struct engine { int engine_start_count; };\nint engine_start(int n);\n",
  "src/app.ts": [
    "export class Engine {",
    "  start(): void {}",
    "}",
    "export function startEngine(e: Engine) { e.start(); }",
    'const note = "Engine in a string";',
    "",
  ].join("\n"),
  "lib/engine.py": "class Engine:\n    def start(self):\n        pass\n",
  "docs/engine.md": "# Engine\n\nengine_start starts it.\n",
};

toolTest(
  "find_symbol: definitions only, not prototypes, calls, comments or docs",
  TREE,
  async (h) => {
    const result = await call(findSymbolTool, { name: "engine_start" }, h);
    assert.equal(text(result), "src/engine.c:7: function engine_start");
    assert.deepEqual(result.structuredContent, {
      symbols: ["src/engine.c:7-10: function engine_start"],
      total: 1,
      files_parsed: 2,
      skipped: 0,
      partial_files: 0,
      offset: 0,
      truncated: false,
    });
  },
);

toolTest(
  "find_symbol: every language in the scope, sorted by path, with containers",
  TREE,
  async (h) => {
    const result = await call(findSymbolTool, { name: "start" }, h);
    assert.equal(
      text(result),
      "lib/engine.py:2: method start  (in Engine)\nsrc/app.ts:2: method start  (in Engine)",
    );
    const classes = await call(findSymbolTool, { name: "Engine", kind: "class" }, h);
    assert.equal(text(classes), "lib/engine.py:1: class Engine\nsrc/app.ts:1: class Engine");
  },
);

toolTest("find_symbol: prefix, substring and -i matching", TREE, async (h) => {
  const prefix = await call(findSymbolTool, { name: "engine", match: "prefix" }, h);
  assert.equal(
    text(prefix),
    "src/engine.c:7: function engine_start\nsrc/engine.h:1: struct engine\n" +
      "src/engine.h:1: field engine_start_count  (in engine)",
  );
  const sub = await call(findSymbolTool, { name: "Engine", match: "substring" }, h);
  assert.equal(
    text(sub),
    "lib/engine.py:1: class Engine\nsrc/app.ts:1: class Engine\nsrc/app.ts:4: function startEngine",
  );
  const folded = await call(findSymbolTool, { name: "ENGINE", "-i": true, kind: "struct" }, h);
  assert.equal(text(folded), "src/engine.h:1: struct engine");
});

toolTest("find_symbol: path, glob and type narrow the scope", TREE, async (h) => {
  assert.equal(
    text(await call(findSymbolTool, { name: "Engine", path: "src" }, h)),
    "src/app.ts:1: class Engine",
  );
  assert.equal(
    text(await call(findSymbolTool, { name: "Engine", glob: "*.py" }, h)),
    "lib/engine.py:1: class Engine",
  );
  assert.equal(
    text(await call(findSymbolTool, { name: "Engine", type: "ts" }, h)),
    "src/app.ts:1: class Engine",
  );
  assert.equal(
    text(await call(findSymbolTool, { name: "Engine", path: "src/app.ts" }, h)),
    "src/app.ts:1: class Engine",
  );
});

toolTest("find_symbol: pages exactly, and says how to get the rest", {
  "many.go": Array.from({ length: 5 }, (_, i) => `func Handler${i}() {}`).join("\n\n") + "\n",
}, async (h) => {
  const all = text(await call(findSymbolTool, { name: "Handler", match: "prefix" }, h)).split("\n");
  assert.equal(all.length, 5);
  const first = await call(findSymbolTool, { name: "Handler", match: "prefix", head_limit: 2 }, h);
  assert.equal(
    text(first),
    `${all[0]}\n${all[1]}\n[... 3 more definitions; call again with offset=2]`,
  );
  const rest = await call(findSymbolTool, {
    name: "Handler",
    match: "prefix",
    head_limit: 0,
    offset: 2,
  }, h);
  assert.equal(text(rest), all.slice(2).join("\n"));
  assert.equal(rest.structuredContent?.total, 5);
});

toolTest("find_symbol: nothing found, unsupported files and bad names are said plainly", {
  ...TREE,
  "big.c": `int huge_one(void) { return 1; }\n${"int x;\n".repeat(300)}`,
}, async (h) => {
  const none = await call(findSymbolTool, { name: "nowhere_to_be_found" }, h);
  assert.equal(
    text(none),
    'No definitions of "nowhere_to_be_found" found (0 source files mention it; no other files do)',
  );
  const md = await call(findSymbolTool, { name: "Engine", path: "docs/engine.md" }, h);
  assert.equal(md.isError, true);
  assert.match(text(md), /^Cannot search "docs\/engine.md": not a file of a supported language/);
  const spaced = await call(findSymbolTool, { name: "two words" }, h);
  assert.equal(spaced.isError, true);
  const big = await call(findSymbolTool, { name: "huge_one" }, h);
  assert.equal(
    text(big),
    'No definitions of "huge_one" found (1 source files mention it; no other files do)\n' +
      "[1 files that mention it were not parsed: binary or over --max-read-bytes]",
  );
  assert.equal(big.structuredContent?.skipped, 1);
}, { maxReadBytes: 1000 });

toolTest(
  "find_symbol: an empty answer names the other files (docs) that mention the name",
  TREE,
  async (h) => {
    const result = await call(findSymbolTool, { name: "starts" }, h);
    assert.equal(
      text(result),
      'No definitions of "starts" found (0 source files mention it; 1 other files do: ' +
        "docs/engine.md)",
    );
    assert.equal(result.structuredContent?.other_files, 1);
  },
);

toolTest(
  "find_symbol: Container.name and Container::name keep the definitions in that container",
  {
    ...TREE,
    "src/widget.cpp": "namespace ui {\nclass Widget {\n  void start() {}\n};\n}\n",
  },
  async (h) => {
    const dotted = await call(findSymbolTool, { name: "Engine.start" }, h);
    assert.equal(
      text(dotted),
      "lib/engine.py:2: method start  (in Engine)\nsrc/app.ts:2: method start  (in Engine)",
    );
    const colons = await call(findSymbolTool, { name: "ui::Widget::start" }, h);
    assert.equal(text(colons), "src/widget.cpp:3: method start  (in Widget)");
    const wrong = await call(findSymbolTool, { name: "Session.start" }, h);
    assert.equal(
      text(wrong),
      'No definitions of "start" in "Session"; "start" is defined as engine.Engine.start ' +
        "(lib/engine.py:2), Engine.start (src/app.ts:2), ui::Widget::start (src/widget.cpp:3)",
    );
    const bad = await call(findSymbolTool, { name: "Engine." }, h);
    assert.equal(bad.isError, true);
    assert.match(text(bad), /^Invalid name "Engine\.": give an identifier, or Container\.name/);
  },
);

toolTest(
  "find_symbol: a kind filter that removes every definition names the kinds there are",
  TREE,
  async (h) => {
    const result = await call(findSymbolTool, { name: "Engine", kind: "function" }, h);
    assert.equal(text(result), 'No function named "Engine"; its definitions are: class (2)');
    assert.equal(result.structuredContent?.total, 0);
  },
);

/** The line of TypeScript's own first syntax error in a file. */
function firstTypeScriptError(root: string, path: string): number {
  const text = Deno.readTextFileSync(`${root}/${path}`);
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  // deno-lint-ignore no-explicit-any
  const first = (source as any).parseDiagnostics[0] as ts.Diagnostic;
  return source.getLineAndCharacterOfPosition(first.start!).line + 1;
}

toolTest(
  "find_symbol: candidate files with syntax errors are counted and named with their line",
  {
    "src/ok.ts": "export function target(): void {}\n",
    "src/broken.ts": "export function other() {\n  target();\n  const = 1;\n}\n",
  },
  async (h) => {
    const result = await call(findSymbolTool, { name: "target" }, h);
    assert.equal(
      text(result),
      "src/ok.ts:1: function target\n" +
        "[1 of the files that mention it could not be fully parsed, so definitions in them may " +
        `be missing: src/broken.ts:${firstTypeScriptError(h.root, "src/broken.ts")}]`,
    );
    assert.equal(result.structuredContent?.partial_files, 1);
  },
);

/** 40 Python files of 60 functions each, every name starting with `s`. */
const MANY: Record<string, string> = {};
for (let i = 0; i < 40; i++) {
  const defs = [];
  for (let j = 0; j < 60; j++) defs.push(`def s${i}_${j}():\n    pass\n`);
  MANY[`pkg/m${String(i).padStart(2, "0")}.py`] = defs.join("");
}

toolTest(
  "find_symbol: a prefix matching thousands of definitions pages them exactly, with the whole total",
  MANY,
  async (h) => {
    const result = await call(findSymbolTool, {
      name: "s",
      match: "prefix",
      offset: 1_000,
      head_limit: 3,
    }, h);
    // Definition 1,000 is the 41st of the 17th file (m16.py), at line 81.
    assert.equal(
      text(result),
      [
        "pkg/m16.py:81: function s16_40",
        "pkg/m16.py:83: function s16_41",
        "pkg/m16.py:85: function s16_42",
        "[... 1397 more definitions; call again with offset=1003]",
      ].join("\n"),
    );
    const structured = result.structuredContent as Record<string, unknown>;
    assert.equal(structured.total, 2_400);
    assert.equal(structured.files_parsed, 40);
    assert.equal(structured.next_offset, 1_003);
    const last = await call(findSymbolTool, { name: "s", match: "prefix", offset: 2_399 }, h);
    assert.equal(text(last), "pkg/m39.py:119: function s39_59");
    const past = await call(findSymbolTool, { name: "s", match: "prefix", offset: 2_400 }, h);
    assert.equal(text(past), "No more definitions");
  },
);
