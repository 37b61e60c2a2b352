/**
 * The projects a references question builds: besides the projects that list the file, only those
 * whose imports can reach it (through a relative import, `paths`, or the JSX runtime a
 * `@jsxImportSource` pragma names); a project that cannot, or a solution config without files of
 * its own, is never built. The walk that tells is sound against the programs themselves: every
 * root file a program holds is one it said could be.
 */
import assert from "node:assert/strict";
import ts from "typescript";
import { makeTree, openWorkspaceAt, type Tree } from "../helpers/fixture.ts";
import { TypeFiles } from "../../lib/semantic/typescript/type_files.ts";
import { ProjectSet } from "../../lib/semantic/typescript/projects.ts";
import { ProjectReach } from "../../lib/semantic/typescript/reach.ts";
import { sharedRegistry } from "../../lib/semantic/typescript/shared_registry.ts";

function json(value: unknown): string {
  return JSON.stringify(value, null, 2) + "\n";
}

const OPTIONS = { strict: true, target: "ES2022", module: "ESNext", moduleResolution: "Bundler" };

const TREE: Tree = {
  // A solution config: no files of its own, never built for a question.
  "tsconfig.json": json({
    files: [],
    references: [{ path: "./lib" }, { path: "./app" }, { path: "./views" }, { path: "./bench" }],
  }),
  "lib/tsconfig.json": json({ compilerOptions: OPTIONS, include: ["src"] }),
  "lib/src/strings.ts": "export const upper = (s: string) => s.toUpperCase();\n",
  "lib/src/jsx-runtime.ts": "export const jsx = (..._: unknown[]) => null;\n",
  // Reaches lib/src/strings.ts through `paths`.
  "app/tsconfig.json": json({
    compilerOptions: { ...OPTIONS, paths: { "@lib/*": ["../lib/src/*"] } },
    include: ["."],
  }),
  "app/main.ts": 'import { upper } from "@lib/strings";\nexport const a = upper("a");\n',
  // Reaches lib/src/jsx-runtime.ts only through its pragma.
  "views/tsconfig.json": json({
    compilerOptions: { ...OPTIONS, jsx: "react-jsx" },
    include: ["."],
  }),
  "views/page.tsx": "/** @jsxImportSource ../lib/src */\nexport const page = <div />;\n",
  // Reaches nothing of lib/.
  "bench/tsconfig.json": json({ compilerOptions: OPTIONS, include: ["."] }),
  "bench/run.ts": 'import { thing } from "some-package";\nexport const b = thing;\n',
};

Deno.test("project reach: only projects whose imports can reach a file are built for it, and the walk never misses a file a program holds", async () => {
  const { root, dispose } = await makeTree(TREE);
  try {
    const ws = openWorkspaceAt(root);
    const libDir = ts.getDefaultLibFilePath({}).replace(/\/[^/]*$/, "");
    const files = new TypeFiles(ws, libDir, 4 * 1024 * 1024);
    const token = { isCancellationRequested: () => false, throwIfCancellationRequested() {} };
    const registry = sharedRegistry(ts, ts.createDocumentRegistry(true, ws.root));
    const set = new ProjectSet(ts, files, registry, token, () => {});
    const strings = `${ws.root}/lib/src/strings.ts`;
    const keys = (list: { key: string }[]) => list.map((p) => p.key).sort();
    assert.deepEqual(keys(set.candidates(strings)), ["app/tsconfig.json", "lib/tsconfig.json"]);
    assert.deepEqual(keys(set.built), ["app/tsconfig.json", "lib/tsconfig.json"]);
    const runtime = `${ws.root}/lib/src/jsx-runtime.ts`;
    assert.deepEqual(keys(set.candidates(runtime)), [
      "app/tsconfig.json",
      "lib/tsconfig.json",
      "views/tsconfig.json",
    ]);
    assert.ok(
      set.projectOf(set.allConfigs().find((c) => c.path.endsWith("views/tsconfig.json"))!)
        .holds(runtime),
    );
    // Sound: every file inside the root that a program holds, the walk said it could hold.
    const reach = new ProjectReach(ts, files);
    for (const config of set.allConfigs()) {
      const program = set.projectOf(config).service.getProgram()!;
      for (const file of program.getSourceFiles()) {
        if (files.relOf(file.fileName) === null || files.isLib(file.fileName)) continue;
        assert.ok(reach.couldHold(config, file.fileName), `${config.path}: ${file.fileName}`);
      }
    }
  } finally {
    await dispose();
  }
});
