/**
 * Python's call hierarchy equals pyright standalone's (navigation_oracle.ts over pyright_oracle.ts)
 * both ways at depth 1 and 2, on the Python fixture plus a module of overrides, callbacks, and
 * direct and mutual recursion.
 * Implementations: implementations_test.ts.
 */
import assert from "node:assert/strict";
import { Workspace } from "../../../lib/workspace/workspace.ts";
import type { Answer, NavigationQuery } from "../../../lib/semantic/engine.ts";
import { pythonEngine } from "../../../lib/semantic/python/engine.ts";
import { writeTree } from "../../helpers/fixture.ts";
import { makePythonProject } from "./fixture.ts";
import { findNode, PyrightOracle } from "./pyright_oracle.ts";
import { PythonNavigationOracle } from "./navigation_oracle.ts";

const WALK = "src/shop/walk.py";

/** Added to both copies of the fixture before either server starts. */
const EXTRA: Record<string, string> = {
  [WALK]: [
    "from typing import Callable",
    "",
    "from shop.models import Shape, Square",
    "",
    "",
    "def fact(n: int) -> int:",
    '    """Factorial, by recursion.',
    "",
    '    Second paragraph."""',
    "    return 1 if n <= 1 else n * fact(n - 1)",
    "",
    "",
    "def is_even(n: int) -> bool:",
    "    return True if n == 0 else is_odd(n - 1)",
    "",
    "",
    "def is_odd(n: int) -> bool:",
    "    return False if n == 0 else is_even(n - 1)",
    "",
    "",
    "def each(shapes: list[Shape], cb: Callable[[Shape], float]) -> list[float]:",
    "    return [cb(s) for s in shapes]",
    "",
    "",
    "def areas() -> list[float]:",
    "    return each([Square(2.0), Shape()], lambda s: s.area() + fact(3))",
    "",
    "",
    "def shout(s: Shape) -> str:",
    "    return s.describe() + str(is_even(4))",
    "",
    "",
    "RESULT = areas()",
    "",
  ].join("\n"),
};

interface Spot {
  path: string;
  line: number;
  name: string;
}

const CALLS: Spot[] = [
  { path: WALK, line: 6, name: "fact" },
  { path: WALK, line: 13, name: "is_even" },
  { path: WALK, line: 21, name: "each" },
  { path: WALK, line: 25, name: "areas" },
  { path: WALK, line: 29, name: "shout" },
  { path: "src/shop/models.py", line: 11, name: "area" },
  { path: "src/shop/models.py", line: 14, name: "describe" },
  { path: "src/shop/models.py", line: 26, name: "make_shape" },
  { path: "src/shop/orders.py", line: 7, name: "total" },
];

function columnIn(text: string, spot: Spot): number {
  const line = text.split("\n")[spot.line - 1];
  const hit = new RegExp(`(?<!\\w)${spot.name}(?!\\w)`).exec(line);
  if (hit === null) throw new Error(`${spot.name} is not on ${spot.path}:${spot.line}`);
  return hit.index + 1;
}

const node = findNode();

Deno.test({
  name: "python navigation: calls both ways equal pyright standalone (needs node)",
  ignore: node === null,
  async fn(t) {
    const fixture = await makePythonProject();
    await writeTree(fixture.root, EXTRA);
    await writeTree(fixture.oracleRoot, EXTRA);
    const oracle = await PyrightOracle.start(node!, fixture.oracleRoot);
    const nav = new PythonNavigationOracle(oracle);
    const engine = pythonEngine();
    const ws = Workspace.openSync({ root: fixture.root, noIgnore: false, allowSecrets: false });
    const signal = new AbortController().signal;
    const ask = async <K extends Answer["kind"]>(kind: K, query: NavigationQuery) => {
      const answer = await engine.ask(ws, query, { signal });
      assert.equal(answer.kind, kind);
      assert.equal(answer.engine, "pyright");
      return answer as Extract<Answer, { kind: K }>;
    };
    const column = (s: Spot) =>
      columnIn(Deno.readTextFileSync(`${fixture.oracleRoot}/${s.path}`), s);
    const at = (s: Spot) => ({ path: s.path, line: s.line, name: s.name });
    try {
      for (const direction of ["incoming", "outgoing"] as const) {
        for (const depth of [1, 2]) {
          await t.step(`calls ${direction}, depth ${depth}`, async () => {
            for (const s of CALLS) {
              const got = await ask("calls", { kind: "calls", at: at(s), direction, depth });
              const want = await nav.calls(s.path, { line: s.line, column: column(s) }, {
                direction,
                depth,
              });
              const place = (e: { path: string | null; external?: string; line: number }) =>
                `${e.path ?? e.external}:${e.line}`;
              assert.deepEqual(got.roots.map(place), want.roots.map(place), s.name);
              assert.deepEqual(
                got.calls.map((c) => ({
                  path: c.path,
                  ...(c.external === undefined ? {} : { external: c.external }),
                  line: c.line,
                  column: c.column,
                  name: c.name,
                  depth: c.depth,
                  sites: c.sites,
                  ...(c.cycle ? { cycle: true } : {}),
                })),
                want.calls,
                `${s.path}:${s.line} ${s.name} ${direction} ${depth}`,
              );
            }
          });
        }
      }
      await t.step(
        "recursion is listed once; a lambda is a caller of its own",
        async () => {
          const fact = await ask("calls", {
            kind: "calls",
            at: at(CALLS[0]),
            direction: "incoming",
            depth: 2,
          });
          const lines = fact.calls.map((c) => `${c.depth} ${c.name}${c.cycle ? " cycle" : ""}`);
          assert.ok(lines.includes("1 fact cycle"), lines.join("\n"));
          assert.ok(lines.includes("1 (lambda)"), lines.join("\n"));
        },
      );
      await t.step("a definition answer carries the type at the position", async () => {
        for (const s of CALLS) {
          const definition = await engine.ask(ws, { kind: "definition", at: at(s) }, { signal });
          const type = await ask("type", { kind: "type", at: at(s) });
          assert.ok(type.info !== null, s.name);
          assert.deepEqual(definition.kind === "definition" && definition.type, type.info, s.name);
        }
      });
    } finally {
      engine.stop();
      await oracle.stop();
      await fixture.dispose();
    }
  },
});
