/**
 * The type-aware tools' arguments and other languages, through the real process: a position by
 * name or column, the errors a bad position gets (the line and the nearest occurrence quoted),
 * the name-based answers for a file of a language no engine answers for (`resolution: "names"`), diagnostics of
 * one file or folder, and progress while the first program builds.
 */
import assert from "node:assert/strict";
import { makeProject } from "./fixture.ts";
import { SemanticServer } from "./server.ts";

/** A file of a language no engine answers for (Python has pyright now; Go has none). */
const GO_UTIL = "package tools\n\nfunc helper() int {\n\treturn 1\n}\n\nvar value = helper()\n";

Deno.test("semantic tools: positions by name or column, and the errors of a bad one", async () => {
  const { root, dispose } = await makeProject();
  await Deno.writeTextFile(
    `${root}/tools/util.go`,
    GO_UTIL,
  ).catch(async () => {
    await Deno.mkdir(`${root}/tools`);
    await Deno.writeTextFile(`${root}/tools/util.go`, GO_UTIL);
  });
  const server = await SemanticServer.start(root);
  try {
    // The same symbol by name and by column (UTF-16, 1-based).
    const byName = await server.ok("go_to_definition", {
      path: "src/use.ts",
      line: 8,
      name: "scale",
    });
    const byColumn = await server.ok("go_to_definition", {
      path: "src/use.ts",
      line: 8,
      column: 24,
    });
    assert.deepEqual(byColumn.structured, byName.structured);
    // occurrence counts words on the line: the second "radius" on line 10 is inside String(...).
    const second = await server.ok("find_references", {
      path: "src/use.ts",
      line: 6,
      name: "radius",
      occurrence: 1,
    });
    assert.equal(second.structured.resolution, "types");
    const errors: Array<[string, Record<string, unknown>, RegExp]> = [
      [
        "go_to_definition",
        { path: "src/use.ts", line: 5, name: "circle" },
        /"circle" is not on line 5 of "src\/use\.ts" \("const radius = 2;"\); nearest occurrence: line 7, column 14/,
      ],
      [
        "go_to_definition",
        { path: "src/use.ts", line: 6, name: "radius", occurrence: 2 },
        /has 1 occurrence of "radius", not 2/,
      ],
      [
        "go_to_definition",
        { path: "src/use.ts", line: 99, name: "x" },
        /past the end of "src\/use\.ts", which has 13 lines/,
      ],
      [
        "go_to_definition",
        { path: "src/use.ts", line: 5, column: 80 },
        /Column 80 is past the end of line 5/,
      ],
      [
        "go_to_definition",
        { path: "src/use.ts", line: 5, name: "radius", column: 7 },
        /only one of name and column/,
      ],
      ["go_to_definition", { path: "src/use.ts", line: 5 }, /Missing name or column/],
      [
        "go_to_definition",
        { path: "src/use.ts", line: 5, column: 7, occurrence: 1 },
        /occurrence counts occurrences of name/,
      ],
      ["go_to_definition", { path: ".env", line: 1, name: "SECRET_TOKEN_z8x1" }, /secret/],
      [
        "go_to_definition",
        { path: "../outside/secret.ts", line: 1, name: "x" },
        /outside the workspace/,
      ],
      ["find_references", { column: 3 }, /give path and line/],
      ["find_references", {}, /Missing name/],
    ];
    for (const [tool, args, message] of errors) {
      const got = await server.call(tool, args);
      assert.equal(got.isError, true, `${tool} ${JSON.stringify(args)}: ${got.text}`);
      assert.match(got.text, message);
    }
    // Another language: find_symbol's and find_references' name-based answers.
    const go = await server.ok("go_to_definition", {
      path: "tools/util.go",
      line: 7,
      name: "helper",
    });
    assert.equal(go.structured.resolution, "names");
    assert.deepEqual(go.structured.definitions, [{
      path: "tools/util.go",
      line: 3,
      column: 6,
      end_line: 5,
      kind: "function",
      name: "helper",
      text: "func helper() int {",
    }]);
    const goRefs = await server.ok("find_references", {
      path: "tools/util.go",
      line: 7,
      column: 13,
    });
    assert.equal(goRefs.structured.resolution, "names");
    assert.deepEqual(goRefs.structured.lines, [
      "tools/util.go:3:6:func helper() int {  [definition]",
      "tools/util.go:7:13:var value = helper()",
    ]);
  } finally {
    await server.close();
    await dispose();
  }
});

Deno.test("semantic tools: diagnostics of one file or one folder, paged, with progress", async () => {
  const { root, dispose } = await makeProject();
  await Deno.writeTextFile(
    `${root}/src/more.ts`,
    "export const a: string = 1;\nexport const b: number = 'b';\n",
  );
  const server = await SemanticServer.start(root);
  try {
    const answer = await server.request("tools/call", {
      name: "diagnostics",
      arguments: { path: "src/more.ts" },
      _meta: { progressToken: "p" },
    });
    assert.equal(
      answer.text,
      "2 diagnostics in 1 file; 1 TypeScript/JavaScript file checked in 1 project " +
        "(tsconfig.json)\nBy code: TS2322 ×2\nBy file: src/more.ts 2\n" +
        "src/more.ts:1:14: error TS2322: Type 'number' is not assignable to type 'string'.\n" +
        "src/more.ts:2:14: error TS2322: Type 'string' is not assignable to type 'number'.",
    );
    assert.equal(answer.structured.files_checked, 1);
    const progress = server.process.raw.split("\n").filter((l) =>
      l.includes("notifications/progress")
    );
    assert.ok(progress.length > 0, "progress while the program builds");
    const page = await server.ok("diagnostics", { path: "src", head_limit: 1, offset: 1 });
    assert.equal(page.structured.total, 3);
    assert.equal(page.structured.next_offset, 2);
    assert.match(
      page.text,
      /^3 diagnostics in 2 files; .*\nBy code: TS2322 ×3\n.*\nsrc\/more\.ts:2:14: error TS2322/,
    );
    assert.match(page.text, /\[\.\.\. 1 more diagnostics; call again with offset=2\]$/);
    const clean = await server.ok("diagnostics", { path: "scripts" });
    assert.equal(clean.text, "No diagnostics: 2 TypeScript/JavaScript files checked");
  } finally {
    await server.close();
    await dispose();
  }
});
