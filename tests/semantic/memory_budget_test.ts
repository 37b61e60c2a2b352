/**
 * The type engines' memory budget (--semantic-max-mib) through the real process: with a budget
 * every program is over, whole-root diagnostics and references from a file several projects
 * hold give the same answers as without one, while the projects used longest ago are released
 * (said on stderr) and built again when a question needs them.
 */
import assert from "node:assert/strict";
import { makeMonorepo } from "./monorepo_fixture.ts";
import { SemanticServer } from "./server.ts";

const REFERENCES = {
  path: "packages/core/src/strings.ts",
  line: 1,
  name: "toCamelCase",
  include_definitions: true,
  head_limit: 0,
};

async function answers(root: string, flags: string[]) {
  const server = await SemanticServer.start(root, flags);
  try {
    const diagnostics = await server.ok("diagnostics", { head_limit: 0 });
    const references = await server.ok("find_references", REFERENCES);
    // Asked again: the projects released are built again for it.
    const again = await server.ok("find_references", REFERENCES);
    return {
      diagnostics: diagnostics.structured.diagnostics,
      references: references.structured.lines,
      again: again.structured.lines,
      stderr: await server.close(),
    };
  } catch (error) {
    await server.close();
    throw error;
  }
}

Deno.test("memory budget: past --semantic-max-mib idle projects are released and the answers stay the same", async () => {
  const { root, dispose } = await makeMonorepo();
  try {
    const free = await answers(root, []);
    const tight = await answers(root, ["--semantic-max-mib", "1"]);
    assert.doesNotMatch(free.stderr, /released \d+ idle project/);
    assert.match(tight.stderr, /typescript: released \d+ idle projects? \(.*tsconfig\.json/);
    assert.deepEqual(tight.diagnostics, free.diagnostics);
    assert.deepEqual(tight.references, free.references);
    assert.deepEqual(tight.again, free.references);
  } finally {
    await dispose();
  }
});
