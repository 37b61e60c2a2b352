/**
 * go_to_definition's deeper navigation through the real process: `target` (implementations, type)
 * and the type it carries on every engine answer, equal to TypeScript's language service driven
 * directly (navigation_oracle.ts); a file no engine answers for refuses a target in one sentence.
 */
import assert from "node:assert/strict";
import { makeTree } from "../helpers/fixture.ts";
import {
  columnIn,
  type NamedPosition,
  NAVIGATION,
  NAVIGATION_DEFAULT_FILES,
  TOOL_POSITIONS as POSITIONS,
} from "./navigation_fixture.ts";
import { Oracle } from "./oracle.ts";
import { NavigationOracle } from "./navigation_oracle.ts";
import { SemanticServer } from "./server.ts";

const CALLS = "src/calls.ts";

Deno.test("navigation tools: go_to_definition's target and type equal TypeScript's language service", async (t) => {
  const tree = await makeTree({ ...NAVIGATION, "other/x.go": "package x\n\nfunc X() {}\n" });
  const src = new NavigationOracle(new Oracle(tree.root, "tsconfig.json"));
  const scripts = new NavigationOracle(new Oracle(tree.root, null, NAVIGATION_DEFAULT_FILES));
  const oracleOf = (p: NamedPosition) => p.path.startsWith("scripts/") ? scripts : src;
  const server = await SemanticServer.start(tree.root);
  const places = (list: Array<Record<string, unknown>>) =>
    list.map((d) => `${d.path ?? d.external}:${d.line}:${d.column} ${d.kind}`);
  try {
    await t.step("go_to_definition: every answer carries the type at the position", async () => {
      for (const p of POSITIONS) {
        const got = await server.ok("go_to_definition", { ...p });
        const want = oracleOf(p).type(p.path, p.line, columnIn(p))!;
        assert.equal(got.structured.type, want.type, p.name);
        assert.equal(got.structured.documentation, want.documentation || undefined, p.name);
        assert.ok(got.text.includes(`\ntype: ${want.type}`), got.text);
      }
      const fact = await server.ok("go_to_definition", { path: CALLS, line: 5, name: "fact" });
      assert.match(fact.text, /\ntype: function fact\(n: number\): number\ndoc: Factorial, by/);
    });
    await t.step("go_to_definition target implementations and type", async () => {
      for (const p of POSITIONS) {
        const column = columnIn(p);
        const impl = await server.ok("go_to_definition", { ...p, target: "implementations" });
        assert.deepEqual(
          places(impl.structured.definitions as never),
          places(oracleOf(p).implementations(p.path, p.line, column) as never),
          `implementations ${p.name}`,
        );
        const type = await server.ok("go_to_definition", { ...p, target: "type" });
        assert.deepEqual(
          places(type.structured.definitions as never),
          places(oracleOf(p).typeDefinitions(p.path, p.line, column) as never),
          `type ${p.name}`,
        );
      }
      const none = await server.ok("go_to_definition", {
        path: CALLS,
        line: 4,
        name: "n",
        target: "type",
      });
      // A primitive's type is declared nowhere.
      assert.match(none.text, /^No type definition found for "n" on line 4 of "src\/calls.ts"\n/);
      assert.match(none.text, /\ntype: \(parameter\) n: number$/);
    });
    await t.step("refusals: no engine", async () => {
      const go = await server.call("go_to_definition", {
        path: "other/x.go",
        line: 3,
        name: "X",
        target: "implementations",
      });
      assert.equal(go.isError, true);
      assert.match(go.text, /^target "implementations" needs a type engine, and "other\/x.go" is/);
      const plain = await server.ok("go_to_definition", { path: "other/x.go", line: 3, name: "X" });
      assert.equal(plain.structured.resolution, "names");
      assert.equal(plain.structured.type, undefined);
    });
  } finally {
    await server.close();
    await tree.dispose();
  }
});
