/**
 * A file in several projects through the real process: `packages/core/src/strings.ts` is listed by
 * core and reached through `paths` by app and tests. find_references from it equals the union of
 * the language service's references in each project (the oracle per project), names the projects
 * searched and notes their configuration problems; a rename from it covers the union of the files
 * the language service's rename changes in each project.
 */
import assert from "node:assert/strict";
import { makeMonorepo, PROJECTS } from "./monorepo_fixture.ts";
import { Oracle, type OracleRef } from "./oracle.ts";
import { SemanticServer } from "./server.ts";

Deno.test("monorepo references: from a file several projects hold, the union of every project's references, projects named", async () => {
  const { root, dispose } = await makeMonorepo();
  const union = new Map<string, OracleRef>();
  const renamed = new Set<string>();
  for (const project of PROJECTS) {
    const oracle = new Oracle(root, project);
    if (
      oracle.service.getProgram()!.getSourceFile(`${root}/packages/core/src/strings.ts`) ===
        undefined
    ) {
      continue;
    }
    for (const f of oracle.renamed("packages/core/src/strings.ts", 1, 17, "camelize").keys()) {
      renamed.add(f);
    }
    for (const r of oracle.references("packages/core/src/strings.ts", 1, 17)) {
      const key = `${r.path}:${r.line}:${r.column}`;
      const had = union.get(key);
      if (had !== undefined) had.definition ||= r.definition;
      else union.set(key, { ...r });
    }
  }
  const want = [...union.values()].sort((a, b) =>
    a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line || a.column - b.column
  );
  // Every project contributes: the test file and the app are only reached through `paths`.
  assert.ok(want.some((r) => r.path === "tests/strings.test.ts"));
  assert.ok(want.some((r) => r.path === "packages/app/src/main.ts"));
  const server = await SemanticServer.start(root);
  try {
    const got = await server.ok("find_references", {
      path: "packages/core/src/strings.ts",
      line: 1,
      name: "toCamelCase",
      include_definitions: true,
      head_limit: 0,
    });
    const lines = got.structured.lines as string[];
    const places = lines.map((l) => l.replace(/^([^:]+:\d+:\d+):.*$/, "$1"));
    assert.deepEqual(places, want.map((r) => `${r.path}:${r.line}:${r.column}`), got.text);
    assert.deepEqual(got.structured.projects, [
      "packages/core/tsconfig.json",
      "packages/app/tsconfig.json",
      "tests/tsconfig.json",
    ]);
    // The configuration problems of the projects searched are noted on the answer.
    assert.match(
      got.text,
      /\ntests\/tsconfig\.json has 1 configuration problem \(TS2688: Cannot find type definition/,
    );
    assert.match(
      got.text,
      /\npackages\/app\/tsconfig\.json has 1 configuration problem \(TS6053: /,
    );
    assert.match(
      got.text,
      /Searched 3 projects that hold the file: packages\/core\/tsconfig\.json, /,
    );
    const rename = await server.ok("rename_symbol", {
      path: "packages/core/src/strings.ts",
      line: 1,
      name: "toCamelCase",
      new_name: "camelize",
    });
    const files = (rename.structured.files as Array<{ path: string }>).map((f) => f.path);
    // The language service's rename keeps importers of the re-export as they are
    // (`camelize as toCamelCase` in the index): the union of its rename in each project.
    assert.deepEqual(files, [...renamed].sort());
    assert.ok(files.includes("tests/strings.test.ts"));
    assert.deepEqual(rename.structured.conflicts, []);
  } finally {
    await server.close();
    await dispose();
  }
});
