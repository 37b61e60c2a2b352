/**
 * Projects whose settings differ only where a file's syntax tree cannot (hono's: `module:
 * "ES2020"` in the build project, the default ES module kind in the runtime tests, `jsx` in the
 * spec project) share the parsed lib files and sources through the registry, and answer as each
 * project alone does: find_references from a file three such projects hold equals the union of
 * the language service's references per project.
 */
import assert from "node:assert/strict";
import ts from "typescript";
import { sharedRegistry } from "../../lib/semantic/typescript/shared_registry.ts";
import { makeTree, type Tree } from "../helpers/fixture.ts";
import { Oracle, type OracleRef } from "./oracle.ts";
import { SemanticServer } from "./server.ts";

function json(value: unknown): string {
  return JSON.stringify(value, null, 2) + "\n";
}

const BASE = { strict: true, target: "ES2022", moduleResolution: "Bundler", noEmit: true };

const TREE: Tree = {
  "tsconfig.json": json({
    files: [],
    references: [{ path: "./tsconfig.build.json" }, { path: "./tsconfig.spec.json" }, {
      path: "./runtime/tsconfig.json",
    }],
  }),
  "tsconfig.build.json": json({
    compilerOptions: { ...BASE, module: "ES2020" },
    include: ["src/**/*.ts"],
    exclude: ["src/**/*.test.ts"],
  }),
  "tsconfig.spec.json": json({
    compilerOptions: { ...BASE, jsx: "react-jsx", jsxImportSource: "./src/jsx" },
    include: ["src"],
  }),
  "runtime/tsconfig.json": json({ compilerOptions: BASE, include: ["."] }),
  "src/compose.ts": [
    "export function compose(...fns: Array<(n: number) => number>) {",
    "  return (n: number) => fns.reduce((v, f) => f(v), n);",
    "}",
    "",
  ].join("\n"),
  "src/app.ts": [
    'import { compose } from "./compose";',
    "",
    "export const twice = compose((n) => n * 2, (n) => n * 2);",
    "",
  ].join("\n"),
  "src/compose.test.ts": [
    'import { compose } from "./compose";',
    "",
    "export const none = compose();",
    "export const one = compose((n) => n + 1);",
    "",
  ].join("\n"),
  "runtime/index.ts": [
    'import { compose } from "../src/compose";',
    'import { twice } from "../src/app";',
    "",
    "export const run = compose(twice);",
    "",
  ].join("\n"),
};

const PROJECTS = ["tsconfig.build.json", "tsconfig.spec.json", "runtime/tsconfig.json"];

Deno.test("shared registry: projects that differ in module kind share lib files and sources; jsx keeps sources apart", async () => {
  const { root, dispose } = await makeTree(TREE);
  try {
    const registry = sharedRegistry(ts, ts.createDocumentRegistry(true, root));
    const program = (config: string) => {
      const oracle = new Oracle(root, config);
      const host: ts.LanguageServiceHost = {
        getCompilationSettings: () => oracle.service.getProgram()!.getCompilerOptions(),
        getScriptFileNames: () => oracle.fileNames,
        getScriptVersion: () => "1",
        getScriptSnapshot: (name) => {
          const text = ts.sys.readFile(name);
          return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
        },
        getCurrentDirectory: () => root,
        getDefaultLibFileName: (options) => ts.getDefaultLibFilePath(options),
        fileExists: ts.sys.fileExists,
        readFile: ts.sys.readFile,
      };
      return ts.createLanguageService(host, registry).getProgram()!;
    };
    const [build, spec, runtime] = PROJECTS.map(program);
    const lib = build.getSourceFiles().find((f) => f.fileName.endsWith("/lib.es5.d.ts"))!;
    assert.ok(lib !== undefined);
    assert.equal(spec.getSourceFile(lib.fileName), lib);
    assert.equal(runtime.getSourceFile(lib.fileName), lib);
    const compose = `${root}/src/compose.ts`;
    assert.equal(runtime.getSourceFile(compose), build.getSourceFile(compose));
    // The spec project's sources carry the implicit JSX-runtime import: parsed on their own.
    assert.notEqual(spec.getSourceFile(compose), build.getSourceFile(compose));
    const imports = (spec.getSourceFile(compose) as unknown as { imports: ts.StringLiteral[] })
      .imports;
    assert.ok(imports.some((i) => i.text.endsWith("jsx-runtime")));
  } finally {
    await dispose();
  }
});

Deno.test("shared registry: references from a file in three projects of differing settings are the union of each project's", async () => {
  const { root, dispose } = await makeTree(TREE);
  const union = new Map<string, OracleRef>();
  for (const project of PROJECTS) {
    for (const r of new Oracle(root, project).references("src/compose.ts", 1, 17)) {
      const key = `${r.path}:${r.line}:${r.column}`;
      const had = union.get(key);
      if (had !== undefined) had.definition ||= r.definition;
      else union.set(key, { ...r });
    }
  }
  const want = [...union.keys()].sort((a, b) => {
    const [pa, la, ca] = a.split(":");
    const [pb, lb, cb] = b.split(":");
    return pa < pb ? -1 : pa > pb ? 1 : Number(la) - Number(lb) || Number(ca) - Number(cb);
  });
  // Each project adds its own: the test file only the spec project, runtime/ only its own.
  assert.ok(want.some((k) => k.startsWith("src/compose.test.ts:")));
  assert.ok(want.some((k) => k.startsWith("runtime/index.ts:")));
  const server = await SemanticServer.start(root);
  try {
    const got = await server.ok("find_references", {
      path: "src/compose.ts",
      line: 1,
      name: "compose",
      head_limit: 0,
    });
    const lines = got.structured.lines as string[];
    assert.deepEqual(lines.map((l) => l.replace(/^([^:]+:\d+:\d+):.*$/, "$1")), want, got.text);
    assert.deepEqual(got.structured.projects, [
      "tsconfig.build.json",
      "runtime/tsconfig.json",
      "tsconfig.spec.json",
    ]);
  } finally {
    await server.close();
    await dispose();
  }
});
