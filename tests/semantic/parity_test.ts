/**
 * Parity through the real process: go_to_definition, find_references (position mode),
 * rename_symbol (dry run) and diagnostics equal TypeScript's own language service driven
 * directly over the same project (oracle.ts), on positions that exercise re-exports, shorthand
 * properties, overloads, declaration merging, JSX, export default, namespace imports, `paths`,
 * a declaration package under node_modules, lib types, CRLF and BOM files, and the default
 * project.
 */
import assert from "node:assert/strict";
import { makeProject, PROJECT } from "./fixture.ts";
import { Oracle } from "./oracle.ts";
import { SemanticServer } from "./server.ts";

interface Position {
  path: string;
  line: number;
  name: string;
  occurrence?: number;
}

const POSITIONS: Position[] = [
  { path: "src/use.ts", line: 1, name: "Circle" },
  { path: "src/use.ts", line: 1, name: "scale" },
  { path: "src/use.ts", line: 1, name: "Shape" },
  { path: "src/use.ts", line: 2, name: "lib" },
  { path: "src/use.ts", line: 5, name: "radius" },
  { path: "src/use.ts", line: 6, name: "radius" },
  { path: "src/use.ts", line: 7, name: "Circle" },
  { path: "src/use.ts", line: 7, name: "radius" },
  { path: "src/use.ts", line: 8, name: "scale" },
  { path: "src/use.ts", line: 9, name: "Shape" },
  { path: "src/use.ts", line: 9, name: "Circle" },
  { path: "src/use.ts", line: 10, name: "pkgHelper" },
  { path: "src/use.ts", line: 11, name: "area" },
  { path: "src/use.ts", line: 11, name: "map" },
  { path: "src/lib/shapes.ts", line: 1, name: "Shape" },
  { path: "src/lib/shapes.ts", line: 11, name: "scale" },
  { path: "src/lib/shapes.ts", line: 15, name: "Circle" },
  { path: "src/lib/shapes.ts", line: 16, name: "label" },
  { path: "src/lib/index.ts", line: 2, name: "Circle" },
  { path: "src/view.tsx", line: 11, name: "Badge" },
  { path: "src/view.tsx", line: 15, name: "Badge" },
  { path: "src/view.tsx", line: 15, name: "scale" },
  { path: "src/crlf.ts", line: 4, name: "fromCrlf" },
  { path: "src/crlf.ts", line: 4, name: "scale" },
  { path: "src/bom.ts", line: 2, name: "scale" },
  { path: "scripts/tool.ts", line: 3, name: "scale" },
  { path: "scripts/plain.js", line: 4, name: "plainHelper" },
];

const DEFAULT_FILES = ["scripts/plain.js", "scripts/tool.ts"];

/** The 1-based column of the `occurrence`-th word `name` on `line` of a fixture file. */
function columnOf(p: Position): number {
  let text = PROJECT[p.path] as string;
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const line = text.split("\n")[p.line - 1].replace(/\r$/, "");
  const re = new RegExp(`(?<![\\w$])${p.name}(?![\\w$])`, "g");
  const hits = [...line.matchAll(re)];
  const hit = hits[(p.occurrence ?? 1) - 1];
  assert.ok(hit, `${p.name} is not on ${p.path}:${p.line}`);
  return hit.index! + 1;
}

function oracleFor(path: string, oracles: { src: Oracle; scripts: Oracle }): Oracle {
  return path.startsWith("scripts/") ? oracles.scripts : oracles.src;
}

/** A types-mode reference line: `path:line:column:text`, definitions marked at the end. */
export function parseReference(line: string) {
  const m = /^(.*?):(\d+):(\d+):(.*)$/.exec(line);
  assert.ok(m, `not a reference line: ${line}`);
  return {
    path: m[1],
    line: Number(m[2]),
    column: Number(m[3]),
    definition: m[4].endsWith("  [definition]"),
  };
}

function where(p: Position): string {
  return `${p.path}:${p.line} ${p.name}`;
}

Deno.test("semantic parity: definitions, references, rename and diagnostics equal TypeScript's language service", async (t) => {
  const { root, dispose } = await makeProject();
  const oracles = {
    src: new Oracle(root, "tsconfig.json"),
    scripts: new Oracle(root, null, DEFAULT_FILES),
  };
  const server = await SemanticServer.start(root);
  try {
    await t.step("go_to_definition", async () => {
      for (const p of POSITIONS) {
        const got = await server.ok("go_to_definition", { ...p });
        assert.equal(got.structured.resolution, "types");
        const ours = (got.structured.definitions as Array<Record<string, unknown>>).map((d) => ({
          path: d.path,
          line: d.line,
          column: d.column,
          kind: d.kind,
          name: d.name,
        }));
        const want = oracleFor(p.path, oracles).definitions(p.path, p.line, columnOf(p));
        assert.deepEqual(ours, want, where(p));
        assert.ok(ours.length > 0, `no definition for ${where(p)}`);
      }
    });
    await t.step("find_references with a position", async () => {
      for (const p of POSITIONS) {
        const got = await server.ok("find_references", { ...p, head_limit: 0 });
        assert.equal(got.structured.resolution, "types");
        const ours = (got.structured.lines as string[]).map(parseReference);
        const want = oracleFor(p.path, oracles).references(p.path, p.line, columnOf(p));
        assert.deepEqual(ours, want, where(p));
        assert.equal(got.structured.total, want.length);
      }
    });
    await t.step("rename_symbol dry run", async () => {
      for (const p of POSITIONS.filter((p) => !["map", "pkgHelper"].includes(p.name))) {
        const got = await server.ok("rename_symbol", { ...p, new_name: "renamedThing" });
        assert.equal(got.structured.applied, false);
        const want = oracleFor(p.path, oracles).renamed(
          p.path,
          p.line,
          columnOf(p),
          "renamedThing",
        );
        const files = got.structured.files as Array<{ path: string; edits: string[] }>;
        assert.deepEqual(files.map((f) => f.path), [...want.keys()].sort(), where(p));
        // Every edit the oracle makes shows in the diff of that file.
        for (const f of files) {
          const before = (PROJECT[f.path] as string).replace(/^\uFEFF/, "").replaceAll(
            "\r\n",
            "\n",
          );
          const after = want.get(f.path)!.replaceAll("\r\n", "\n");
          const removed = before.split("\n").filter((l, i) => after.split("\n")[i] !== l);
          for (const line of removed) {
            assert.ok((got.structured.diff as string).includes(`-${line}`), `${where(p)}: ${line}`);
          }
        }
      }
    });
    await t.step("diagnostics", async () => {
      const got = await server.ok("diagnostics", { head_limit: 0 });
      const ours = got.structured.diagnostics as Array<Record<string, unknown>>;
      const files = [
        ...oracles.src.fileNames.map((f) => f.slice(root.length + 1)),
        ...DEFAULT_FILES,
        "other/a.ts",
      ].sort();
      const want = files.filter((f) => f !== "other/a.ts").flatMap((f) =>
        oracleFor(f, oracles).diagnostics(f)
      );
      // The configuration problem of other/tsconfig.json (its extends leads outside) comes first.
      assert.deepEqual(ours[0].path, "other/tsconfig.json");
      assert.deepEqual(ours[0].code, "TS5083");
      assert.deepEqual(
        ours.filter((d) => d.path !== "other/a.ts" && d.path !== "other/tsconfig.json"),
        want,
      );
      assert.equal(got.structured.files_checked, files.length);
      assert.ok(ours.some((d) => d.path === "src/use.ts" && d.code === "TS2322"), got.text);
      assert.match(got.text, /^src\/use\.ts:12:7: error TS2322: /m);
    });
  } finally {
    await server.close();
    await dispose();
  }
});

Deno.test("find_references: asked from a use or an import, the declarations are marked as the language service marks them asked from the declaration, and import specifiers are not", async () => {
  const { root, dispose } = await makeProject();
  const oracle = new Oracle(root, "tsconfig.json");
  const server = await SemanticServer.start(root);
  try {
    // scale's overloads and implementation (src/lib/shapes.ts:9-11), asked at one of them.
    const declared = oracle.markedDefinitions("src/lib/shapes.ts", 11, 17);
    assert.deepEqual(declared, [
      "src/lib/shapes.ts:10",
      "src/lib/shapes.ts:11",
      "src/lib/shapes.ts:9",
    ]);
    // The language service itself marks none from the use and the import specifier from it.
    assert.deepEqual(oracle.markedDefinitions("src/use.ts", 8, 24), []);
    assert.deepEqual(oracle.markedDefinitions("src/use.ts", 1, 18), ["src/use.ts:1"]);
    for (const at of [{ line: 8, name: "scale" }, { line: 1, name: "scale" }]) {
      const got = await server.ok("find_references", { path: "src/use.ts", ...at, head_limit: 0 });
      const marked = (got.structured.lines as string[]).map(parseReference)
        .filter((r) => r.definition).map((r) => `${r.path}:${r.line}`).sort();
      assert.deepEqual(marked, declared, `asked at src/use.ts:${at.line}`);
    }
  } finally {
    await server.close();
    await dispose();
  }
});
