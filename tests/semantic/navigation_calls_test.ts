/**
 * find_references' call hierarchy through the real process: `calls` (incoming, outgoing) with
 * `depth`, equal to TypeScript's language service driven directly (navigation_oracle.ts), paged by
 * calls; a file no engine answers for, or no position, refuses it in one sentence.
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
const SPEAKER = "src/speaker.ts";

/** A call line: indentation (two spaces a level), then `place: text  [kind name; ...]`. */
function parseCall(line: string) {
  const m =
    /^( *)(.+?):(\d+):(\d+): .*\[(\S+) (.+?); (?:calls it|called) at ([\d:, ]+)(; recursion)?/
      .exec(line);
  assert.ok(m, `not a call line: ${line}`);
  return {
    depth: m[1].length / 2 + 1,
    place: `${m[2]}:${m[3]}:${m[4]}`,
    kind: m[5],
    name: m[6],
    sites: m[7],
    cycle: m[8] !== undefined,
  };
}

Deno.test("navigation tools: find_references' calls equal TypeScript's language service", async (t) => {
  const tree = await makeTree({ ...NAVIGATION, "other/x.go": "package x\n\nfunc X() {}\n" });
  const src = new NavigationOracle(new Oracle(tree.root, "tsconfig.json"));
  const scripts = new NavigationOracle(new Oracle(tree.root, null, NAVIGATION_DEFAULT_FILES));
  const oracleOf = (p: NamedPosition) => p.path.startsWith("scripts/") ? scripts : src;
  const server = await SemanticServer.start(tree.root);
  try {
    for (const calls of ["incoming", "outgoing"] as const) {
      await t.step(`find_references calls ${calls}, depth 1 and 2`, async () => {
        for (const p of POSITIONS) {
          for (const depth of [1, 2]) {
            const got = await server.ok("find_references", { ...p, calls, depth });
            const want = oracleOf(p).calls(p.path, { line: p.line, column: columnIn(p) }, {
              direction: calls,
              depth,
            });
            const lines = got.structured.lines as string[];
            if (want.roots.length === 0) {
              assert.match(got.text, /^No function, method or class at /, p.name);
              continue;
            }
            assert.match(lines[0], new RegExp(`^${calls[0].toUpperCase()}${calls.slice(1)} calls`));
            const ours = lines.slice(1).filter((l) => !/^No call/.test(l)).map(parseCall);
            assert.deepEqual(
              ours,
              want.calls.map((c) => ({
                depth: c.depth,
                place: `${c.path ?? c.external}:${c.line}:${c.column}`,
                kind: c.kind,
                name: c.name,
                sites: c.sites.map((s) => `${s.line}:${s.column}`).join(", "),
                cycle: c.cycle === true,
              })),
              `${p.name} ${calls} ${depth}`,
            );
            assert.equal(got.structured.total, want.calls.length);
            assert.equal(got.structured.engine, "typescript");
          }
        }
      });
    }
    await t.step("find_references calls pages by calls", async () => {
      const p = { path: SPEAKER, line: 8, name: "speak", calls: "incoming", depth: 2 };
      const all = await server.ok("find_references", p);
      const total = all.structured.total as number;
      assert.ok(total >= 4, all.text);
      const first = await server.ok("find_references", { ...p, head_limit: 2 });
      assert.equal(first.structured.next_offset, 2);
      assert.match(first.text, /call again with offset=2\]$/);
      const rest = await server.ok("find_references", { ...p, offset: 2 });
      assert.deepEqual(
        [
          ...(first.structured.lines as string[]).slice(1, 3),
          ...(rest.structured.lines as string[]).slice(1),
        ],
        (all.structured.lines as string[]).slice(1),
      );
    });
    await t.step("refusals: no engine, no position", async () => {
      const calls = await server.call("find_references", {
        path: "other/x.go",
        line: 3,
        name: "X",
        calls: "incoming",
      });
      assert.equal(calls.isError, true);
      assert.match(calls.text, /^calls needs a type engine, and "other\/x.go" is not a /);
      const glob = await server.call("find_references", {
        path: CALLS,
        line: 4,
        name: "fact",
        calls: "incoming",
        glob: "src/**",
      });
      assert.equal(glob.isError, true);
      assert.match(glob.text, /^glob and type narrow a search by name; calls come from the /);
      const noLine = await server.call("find_references", { name: "fact", calls: "outgoing" });
      assert.equal(noLine.isError, true);
      assert.match(noLine.text, /^calls needs a position/);
    });
  } finally {
    await server.close();
    await tree.dispose();
  }
});
