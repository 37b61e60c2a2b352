/**
 * Implementations and calls from a file several projects hold, through the real process:
 * `packages/core/src/strings.ts` is listed by core and reached through `paths` by app and tests.
 * go_to_definition's implementations and find_references' incoming calls equal the union of the
 * language service's answers in each project (navigation_oracle.ts per project), and name the
 * projects searched.
 */
import assert from "node:assert/strict";
import { makeMonorepo, PROJECTS } from "./monorepo_fixture.ts";
import { Oracle } from "./oracle.ts";
import { NavigationOracle } from "./navigation_oracle.ts";
import { SemanticServer } from "./server.ts";

const FILE = "packages/core/src/strings.ts";

Deno.test("monorepo navigation: implementations and incoming calls are the union over every project that holds the file", async () => {
  const { root, dispose } = await makeMonorepo();
  const callers: string[] = [];
  const holders: string[] = [];
  for (const project of PROJECTS) {
    const oracle = new Oracle(root, project);
    if (oracle.service.getProgram()!.getSourceFile(`${root}/${FILE}`) === undefined) continue;
    holders.push(project);
    const walk = new NavigationOracle(oracle).calls(FILE, { line: 1, column: 17 }, {
      direction: "incoming",
      depth: 1,
    });
    for (const c of walk.calls) {
      const place = `${c.path}:${c.line}:${c.column}`;
      if (!callers.includes(place)) callers.push(place);
    }
  }
  // Each project adds callers: core's own top level, the app's, and the tests' callback.
  assert.ok(callers.some((c) => c.startsWith("packages/app/src/main.ts:")), callers.join("\n"));
  assert.ok(callers.some((c) => c.startsWith("tests/strings.test.ts:")), callers.join("\n"));
  const server = await SemanticServer.start(root);
  try {
    const got = await server.ok("find_references", {
      path: FILE,
      line: 1,
      name: "toCamelCase",
      calls: "incoming",
    });
    const lines = (got.structured.lines as string[]).slice(1).filter((l) =>
      /^\S+:\d+:\d+: /.test(l)
    );
    assert.deepEqual(
      lines.map((l) => l.replace(/^(\S+?:\d+:\d+): .*$/, "$1")).sort(),
      [...callers].sort(),
      got.text,
    );
    assert.deepEqual(got.structured.projects, [
      "packages/core/tsconfig.json",
      "packages/app/tsconfig.json",
      "tests/tsconfig.json",
    ]);
    assert.equal(holders.length, 3);
    assert.match(
      got.text,
      /\nSearched 3 projects that hold the file: packages\/core\/tsconfig\.json, /,
    );
    const impl = await server.ok("go_to_definition", {
      path: FILE,
      line: 1,
      name: "toCamelCase",
      target: "implementations",
    });
    assert.deepEqual(impl.structured.projects, got.structured.projects);
  } finally {
    await server.close();
    await dispose();
  }
});
