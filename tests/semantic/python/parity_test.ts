/**
 * Python parity: definitions, references, rename edits and diagnostics of the Python engine
 * (and the type at a position, its type's declarations) equal the same pyright run standalone
 * under Node (pyright_oracle.ts: empty PATH and HOME,
 * asked after it has listed the workspace; its CLI for diagnostics), on positions that exercise
 * relative and absolute imports, `import x as y`, `from m import name`, overrides, keyword
 * arguments, a dataclass, `__all__`, a venv's site-packages, `extraPaths` and builtins. The
 * oracle's copy of the project has no outside folder, secret file or outside link: to our engine
 * those are absent, which is what it must show.
 */
import assert from "node:assert/strict";
import { Workspace } from "../../../lib/workspace/workspace.ts";
import type { Answer, Query } from "../../../lib/semantic/engine.ts";
import { pythonEngine } from "../../../lib/semantic/python/engine.ts";
import { columnOf, makePythonProject, type Position, POSITIONS } from "./fixture.ts";
import { findNode, PyrightOracle } from "./pyright_oracle.ts";

function at(p: Position) {
  return { path: p.path, line: p.line, name: p.name, occurrence: p.occurrence };
}

function byPlace(a: { path: string | null; line: number; column: number }, b: typeof a): number {
  return String(a.path).localeCompare(String(b.path)) || a.line - b.line || a.column - b.column;
}

const node = findNode();

Deno.test({
  name:
    "python parity: definitions, references, rename edits and diagnostics equal pyright standalone (needs node)",
  ignore: node === null,
  async fn() {
    const fixture = await makePythonProject();
    const oracle = await PyrightOracle.start(node!, fixture.oracleRoot);
    const engine = pythonEngine();
    const ws = Workspace.openSync({ root: fixture.root, noIgnore: false, allowSecrets: false });
    const signal = new AbortController().signal;
    const ask = async <K extends Answer["kind"]>(query: Query & { kind: K }) =>
      (await engine.ask(ws, query, { signal })) as Extract<Answer, { kind: K }>;
    try {
      let renames = 0;
      let types = 0;
      for (const p of POSITIONS) {
        const column = columnOf(p);
        const where = `${p.path}:${p.line} ${p.name}`;
        const definitions = await ask({ kind: "definition", at: at(p) });
        assert.equal(definitions.engine, "pyright");
        const expected = await oracle.definitions(p.path, p.line, column);
        assert.deepEqual(
          definitions.definitions.map((d) => ({
            path: d.path,
            ...(d.external === undefined ? {} : { external: d.external }),
            line: d.line,
            column: d.column,
          })).sort(byPlace),
          expected.sort(byPlace),
          `definitions at ${where}`,
        );
        const typed = await engine.ask(ws, { kind: "type", at: at(p) }, { signal });
        assert.ok(typed.kind === "type");
        assert.equal(typed.info?.type ?? null, await oracle.hover(p.path, p.line, column), where);
        if (typed.info !== null) types++;
        const typeDefs = await engine.ask(ws, { kind: "type_definitions", at: at(p) }, { signal });
        assert.ok(typeDefs.kind === "type_definitions");
        assert.deepEqual(
          typeDefs.definitions.map((d) => ({
            path: d.path,
            ...(d.external === undefined ? {} : { external: d.external }),
            line: d.line,
            column: d.column,
          })).sort(byPlace),
          (await oracle.typeDefinitions(p.path, p.line, column)).sort(byPlace),
          `type definitions at ${where}`,
        );
        const references = await ask({ kind: "references", at: at(p) });
        assert.deepEqual(
          references.references.map((r) => ({ path: r.path, line: r.line, column: r.column })),
          // Inside the root only (a builtin's declaration in typeshed is not a reference there).
          (await oracle.references(p.path, p.line, column)).filter((r) => r.path !== null).sort(
            byPlace,
          ),
          `references at ${where}`,
        );
        // Every declaration pyright names is marked, and nothing else.
        const declared = new Set(
          definitions.definitions.map((d) => `${d.path}:${d.line}:${d.column}`),
        );
        for (const r of references.references) {
          assert.equal(
            r.definition,
            declared.has(`${r.path}:${r.line}:${r.column}`),
            `mark at ${where}`,
          );
        }
        const oracleEdits = await oracle.rename(p.path, p.line, column, "renamed_name");
        if (oracleEdits.length === 0) continue;
        const rename = await ask({ kind: "rename", at: at(p), newName: "renamed_name" });
        renames++;
        assert.deepEqual(
          rename.edits.map(({ old_text: _, ...e }) => e),
          oracleEdits.sort(byPlace),
          `rename at ${where}`,
        );
        for (const e of rename.edits) {
          assert.equal(e.old_text, p.name, `old text at ${where}`);
        }
      }
      assert.ok(renames >= 20, `renames compared: ${renames}`);
      assert.ok(types >= 30, `types compared: ${types}`);

      const diagnostics = await ask({ kind: "diagnostics", path: "" });
      const expected = await oracle.diagnostics();
      const shown = (
        d: {
          path: string;
          line: number;
          column: number;
          code: string;
          category: string;
          message: string;
        },
      ) => `${d.path}:${d.line}:${d.column} ${d.category} ${d.code} ${d.message}`;
      assert.deepEqual(diagnostics.diagnostics.map(shown).sort(), expected.map(shown).sort());
      assert.ok(
        expected.some((d) =>
          d.code === "syntax" && d.path === "src/shop/broken.py" && d.line === 4
        ),
      );
      assert.ok(expected.some((d) => d.category === "information"));
      const one = await ask({ kind: "diagnostics", path: "src/shop/typed.py" });
      assert.deepEqual(
        one.diagnostics.map(shown).sort(),
        (await oracle.diagnostics(["src/shop/typed.py"])).map(shown).sort(),
      );
    } finally {
      engine.stop();
      await oracle.stop();
      await fixture.dispose();
    }
  },
});
