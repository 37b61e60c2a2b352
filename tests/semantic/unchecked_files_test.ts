/**
 * diagnostics over files no type engine checks (docs/tools.md "diagnostics"): they are named by
 * language, never covered by "No diagnostics", and their syntax errors come from the tree-sitter
 * parse (code "syntax", the first node of each error region), at the places gcc -fsyntax-only
 * names for the same C files.
 */
import assert from "node:assert/strict";
import { makeTree } from "../helpers/fixture.ts";
import { SemanticServer } from "./server.ts";

const TREE = {
  "src/a.ts": 'export const n: number = "x";\n',
  "src/stray.c": "int a(void) {\n  int x = 1 ` 2;\n  return x;\n}\n",
  "src/semicolon.c": "int b(void) { return 1; }\nint c(void) { return 2 }\n",
  "src/fine.c": "struct s { int a; };\nint d(void) {\n  return 0;\n}\n",
  "src/main.go": "package main\n\nfunc main() {}\n",
  "README.md": "# notes\n",
};

/** What gcc 12 -fsyntax-only names first for the C files (used where gcc is not installed). */
const GCC_FIRST: Record<string, string | null> = {
  "src/stray.c": "src/stray.c:2:13",
  "src/semicolon.c": "src/semicolon.c:2:23",
  "src/fine.c": null,
};

/** gcc's first error of a C file as `path:line:column`, or null when it compiles. */
async function gccFirstError(root: string, path: string): Promise<string | null> {
  let out: Deno.CommandOutput;
  try {
    out = await new Deno.Command("gcc", {
      args: ["-fsyntax-only", path],
      cwd: root,
      stdout: "null",
      stderr: "piped",
    }).output();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return GCC_FIRST[path];
    throw error;
  }
  if (out.success) return null;
  const first = /^(.*?):(\d+):(\d+): error:/m.exec(new TextDecoder().decode(out.stderr));
  assert.ok(first, "gcc names an error");
  return `${first[1]}:${first[2]}:${first[3]}`;
}

Deno.test("diagnostics: files no engine checks are named by language and their syntax errors are where gcc finds them", async () => {
  const tree = await makeTree(TREE);
  const server = await SemanticServer.start(tree.root);
  try {
    const got = await server.ok("diagnostics", {});
    const listed = got.structured.diagnostics as Array<Record<string, unknown>>;
    const syntax = listed.filter((d) => d.code === "syntax");
    for (const path of ["src/stray.c", "src/semicolon.c", "src/fine.c"]) {
      const ours = syntax.filter((d) => d.path === path).map((d) =>
        `${d.path}:${d.line}:${d.column}`
      );
      const gcc = await gccFirstError(tree.root, path);
      assert.deepEqual(ours.slice(0, 1), gcc === null ? [] : [gcc], path);
    }
    assert.ok(syntax.every((d) => d.source === "tree-sitter" && d.category === "error"));
    assert.deepEqual(
      listed.filter((d) => d.code !== "syntax").map((d) => `${d.path}:${d.code}:${d.source}`),
      ["src/a.ts:TS2322:typescript"],
    );
    assert.equal(got.structured.unchecked, "3 C files, 1 Go file");
    assert.match(
      got.text,
      /^Not type-checked \(no type engine for their language\): 3 C files, 1 Go file; their syntax was checked with tree-sitter: 2 error regions$/m,
    );
  } finally {
    await server.close();
    await tree.dispose();
  }
});

Deno.test('diagnostics: a scope no engine checks never answers "No diagnostics"', async () => {
  const tree = await makeTree(TREE);
  const server = await SemanticServer.start(tree.root);
  try {
    const fine = await server.ok("diagnostics", { path: "src/fine.c" });
    assert.doesNotMatch(fine.text, /No diagnostics/);
    assert.match(fine.text, /^No type errors reported: no type engine checks these files\n/);
    assert.match(fine.text, /1 C file; their syntax was checked with tree-sitter: no errors$/);
    assert.equal(fine.structured.files_checked, 0);
    assert.equal(fine.structured.engine, undefined);
    const docs = await server.ok("diagnostics", { path: "README.md" });
    assert.equal(docs.text, "No files here that a type engine or a parser checks");
    const ts = await server.ok("diagnostics", { path: "src/a.ts" });
    assert.equal(ts.structured.engine, "typescript");
    assert.equal(ts.structured.unchecked, undefined);
  } finally {
    await server.close();
    await tree.dispose();
  }
});
