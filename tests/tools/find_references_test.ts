/** find_references (docs/tools.md "find_references"): identifiers in code only, name-based. */
import assert from "node:assert/strict";
import { findReferencesTool } from "../../lib/tools/find_references.ts";
import { call, text, toolTest } from "./helpers.ts";
import ts from "typescript";

const TREE = {
  "src/count.ts": [
    "// count is explained in this comment",
    "export let count = 0;",
    'const label = "count in a string";',
    "const counter = count + 1; // recount",
    "export function bump(): number {",
    "  count += 1;",
    "  return `${count}`.length + count;",
    "}",
    "",
  ].join("\n"),
  "src/use.py": "from count import count\n\n# count\nprint(count, 'count')\n",
  "README.md": "count count count\n",
};

toolTest(
  "find_references: identifiers in code, not comments, strings or longer names",
  TREE,
  async (h) => {
    const result = await call(findReferencesTool, { name: "count" }, h);
    assert.equal(
      text(result),
      [
        "src/count.ts:2:export let count = 0;  [definition]",
        "src/count.ts:4:const counter = count + 1; // recount",
        "src/count.ts:6:  count += 1;",
        "src/count.ts:7:  return `${count}`.length + count;",
        "src/use.py:1:from count import count",
        "src/use.py:4:print(count, 'count')",
      ].join("\n"),
    );
    const s = result.structuredContent!;
    assert.equal(s.total, 6);
    assert.equal(s.total_files, 2);
    // structuredContent: the text lines with the column of each reference (rg --column).
    assert.deepEqual(s.lines, [
      "src/count.ts:2:12:export let count = 0;  [definition]",
      "src/count.ts:4:17:const counter = count + 1; // recount",
      "src/count.ts:6:3:  count += 1;",
      "src/count.ts:7:13:  return `${count}`.length + count;",
      "src/use.py:1:6:from count import count",
      "src/use.py:4:7:print(count, 'count')",
    ]);
  },
);

toolTest(
  "find_references: include_definitions false leaves the definitions out",
  TREE,
  async (h) => {
    const result = await call(findReferencesTool, {
      name: "count",
      include_definitions: false,
      path: "src/count.ts",
    }, h);
    assert.equal(
      text(result),
      [
        "src/count.ts:4:const counter = count + 1; // recount",
        "src/count.ts:6:  count += 1;",
        "src/count.ts:7:  return `${count}`.length + count;",
      ].join("\n"),
    );
  },
);

toolTest("find_references: -C shows context like grep, with -- between groups", {
  "a.go": [
    "package a",
    "",
    "func Target() {}",
    "",
    "func one() {",
    "\tTarget()",
    "}",
    "",
    "func two() {",
    "",
    "",
    "\tTarget()",
    "}",
    "",
  ].join("\n"),
}, async (h) => {
  const result = await call(findReferencesTool, { name: "Target", "-C": 1 }, h);
  assert.equal(
    text(result),
    [
      "a.go-2-",
      "a.go:3:func Target() {}  [definition]",
      "a.go-4-",
      "a.go-5-func one() {",
      "a.go:6:\tTarget()",
      "a.go-7-}",
      "--",
      "a.go-11-",
      "a.go:12:\tTarget()",
      "a.go-13-}",
    ].join("\n"),
  );
  // The context lines are in structuredContent too: it is all a host shows the model.
  const lines = result.structuredContent?.lines as string[];
  assert.deepEqual(lines.filter((l) => !/^a\.go:\d+:/.test(l)), [
    "a.go-2-",
    "a.go-4-",
    "a.go-5-func one() {",
    "a.go-7-}",
    "--",
    "a.go-11-",
    "a.go-13-}",
  ]);
  assert.deepEqual(lines.filter((l) => /^a\.go:\d+:/.test(l)), [
    "a.go:3:6:func Target() {}  [definition]",
    "a.go:6:2:\tTarget()",
    "a.go:12:2:\tTarget()",
  ]);
});

toolTest("find_references: macro bodies count, their strings and comments do not", {
  "m.h": '#define LIMIT 8\n#define TWICE (LIMIT * 2) /* LIMIT */\n#define NAME "LIMIT"\n',
}, async (h) => {
  const result = await call(findReferencesTool, { name: "LIMIT" }, h);
  assert.equal(
    text(result),
    "m.h:1:#define LIMIT 8  [definition]\nm.h:2:#define TWICE (LIMIT * 2) /* LIMIT */",
  );
});

toolTest("find_references: pages by references; the pages add up to the whole", TREE, async (h) => {
  const all = text(await call(findReferencesTool, { name: "count" }, h)).split("\n");
  const first = await call(findReferencesTool, { name: "count", head_limit: 4 }, h);
  assert.equal(
    text(first),
    [...all.slice(0, 4), "[... 2 more references; call again with offset=4]"].join("\n"),
  );
  const rest = await call(findReferencesTool, { name: "count", head_limit: 4, offset: 4 }, h);
  assert.equal(text(rest), all.slice(4).join("\n"));
  assert.equal(rest.structuredContent?.truncated, false);
});

toolTest("find_references: nothing in code is said plainly", TREE, async (h) => {
  const result = await call(findReferencesTool, { name: "recount" }, h);
  assert.equal(
    text(result),
    'No references to "recount" found in code (1 source files mention it)',
  );
});

const ROUTES = {
  "fastapi/__init__.py": "",
  "fastapi/routing.py": [
    "class APIRoute:",
    "    def matches(self, scope):",
    "        return scope",
    "",
    "class Mount:",
    "    def matches(self, scope):",
    "        return None",
    "",
    "def handle(route, scope):",
    "    return route.matches(scope)",
    "",
  ].join("\n"),
  "docs/routing.md": "APIRoute.matches is documented here\n",
};

toolTest(
  "find_references: a qualified name keeps that container's definition and leaves the others out",
  ROUTES,
  async (h) => {
    const result = await call(findReferencesTool, { name: "APIRoute.matches" }, h);
    assert.equal(
      text(result),
      "fastapi/routing.py:2:    def matches(self, scope):  [definition]\n" +
        "fastapi/routing.py:10:    return route.matches(scope)\n" +
        '[uses of "matches" are matched by name, not resolved to the container; 1 definitions ' +
        'of "matches" in other containers left out: fastapi.routing.Mount.matches ' +
        "(fastapi/routing.py:6)]",
    );
    assert.equal(result.structuredContent?.total, 2);
    // The bare name still finds both definitions.
    const bare = await call(findReferencesTool, { name: "matches" }, h);
    assert.equal(bare.structuredContent?.total, 3);
  },
);

toolTest(
  "find_references: a qualified name whose container defines no such member says where it is",
  ROUTES,
  async (h) => {
    const result = await call(findReferencesTool, { name: "Router.matches" }, h);
    assert.equal(
      text(result),
      'No definitions of "matches" in "Router"; "matches" is defined as ' +
        "fastapi.routing.APIRoute.matches (fastapi/routing.py:2), fastapi.routing.Mount.matches " +
        "(fastapi/routing.py:6)",
    );
    assert.equal(result.structuredContent?.total, 0);
  },
);

toolTest(
  "find_references: candidates that could not be fully parsed are counted and named with their line",
  {
    "src/ok.ts": "export function target(): void {}\ntarget();\n",
    "src/broken.ts": "export function other() {\n  target();\n  const = 1;\n}\n",
  },
  async (h) => {
    const result = await call(findReferencesTool, { name: "target" }, h);
    const source = ts.createSourceFile(
      "broken.ts",
      Deno.readTextFileSync(`${h.root}/src/broken.ts`),
      ts.ScriptTarget.Latest,
      true,
    );
    // deno-lint-ignore no-explicit-any
    const first = (source as any).parseDiagnostics[0] as ts.Diagnostic;
    const line = source.getLineAndCharacterOfPosition(first.start!).line + 1;
    assert.match(
      text(result),
      new RegExp(
        `\\n\\[1 of the files that mention it could not be fully parsed, so references in them ` +
          `may be missing: src/broken\\.ts:${line}\\]$`,
      ),
    );
    assert.equal(result.structuredContent?.partial_files, 1);
  },
);
