/**
 * Deeper navigation through the TypeScript engine equals TypeScript's language service driven
 * directly (navigation_oracle.ts) on the navigation fixture: implementations of an interface, an
 * abstract class and members, overrides; type definitions; quick info (whole display text, first
 * documentation paragraph); the call hierarchy both ways at depth 1 and 2, through callbacks and
 * direct and mutual recursion. An engine that lists no navigation refuses it in one sentence.
 */
import assert from "node:assert/strict";
import { typescriptEngine } from "../../lib/semantic/typescript/engine.ts";
import { WorkerEngine } from "../../lib/semantic/worker_engine.ts";
import { Workspace } from "../../lib/workspace/workspace.ts";
import { type Answer, type NavigationQuery, SemanticRefusal } from "../../lib/semantic/engine.ts";
import {
  columnIn,
  makeNavigationProject,
  type NamedPosition,
  NAVIGATION_DEFAULT_FILES,
} from "./navigation_fixture.ts";
import { Oracle } from "./oracle.ts";
import { NavigationOracle } from "./navigation_oracle.ts";

const SPEAKER = "src/speaker.ts";
const CALLS = "src/calls.ts";
const TOOL = "scripts/tool.js";

/** Interfaces, abstract and overridden members, uses through a base and through a callback. */
const IMPLEMENTATIONS: NamedPosition[] = [
  { path: SPEAKER, line: 6, name: "Speaker" },
  { path: SPEAKER, line: 8, name: "speak" },
  { path: SPEAKER, line: 12, name: "Base" },
  { path: SPEAKER, line: 13, name: "speak" },
  { path: SPEAKER, line: 14, name: "twice" },
  { path: SPEAKER, line: 15, name: "speak" },
  { path: SPEAKER, line: 19, name: "Loud" },
  { path: SPEAKER, line: 20, name: "speak" },
  { path: CALLS, line: 22, name: "speak" },
  { path: CALLS, line: 26, name: "twice" },
  { path: CALLS, line: 16, name: "Speaker" },
];

const TYPE_DEFINITIONS: NamedPosition[] = [
  { path: CALLS, line: 21, name: "all" },
  { path: CALLS, line: 22, name: "s" },
  { path: CALLS, line: 25, name: "b" },
  { path: CALLS, line: 29, name: "sung" },
  { path: CALLS, line: 16, name: "cb" },
];

const QUICK_INFO: NamedPosition[] = [
  { path: SPEAKER, line: 6, name: "Speaker" },
  { path: SPEAKER, line: 8, name: "speak" },
  { path: SPEAKER, line: 21, name: "toUpperCase" },
  { path: CALLS, line: 4, name: "fact" },
  { path: CALLS, line: 16, name: "cb" },
  { path: CALLS, line: 22, name: "s" },
  { path: CALLS, line: 22, name: "speak" },
  { path: CALLS, line: 29, name: "sung" },
  { path: CALLS, line: 1, name: "Whisper" },
  { path: TOOL, line: 7, name: "double" },
  { path: TOOL, line: 11, name: "double" },
];

/** Functions and methods: recursion, mutual recursion, callbacks, interface and lib calls. */
const CALL_POSITIONS: NamedPosition[] = [
  { path: CALLS, line: 4, name: "fact" },
  { path: CALLS, line: 8, name: "isEven" },
  { path: CALLS, line: 16, name: "each" },
  { path: CALLS, line: 20, name: "chorus" },
  { path: CALLS, line: 25, name: "shout" },
  { path: CALLS, line: 22, name: "speak" },
  { path: SPEAKER, line: 8, name: "speak" },
  { path: SPEAKER, line: 14, name: "twice" },
  { path: SPEAKER, line: 20, name: "speak" },
  { path: SPEAKER, line: 26, name: "speak" },
  { path: TOOL, line: 7, name: "double" },
  { path: TOOL, line: 10, name: "quad" },
];

function where(p: NamedPosition, what = ""): string {
  return `${p.path}:${p.line} ${p.name}${what}`;
}

Deno.test("navigation parity: implementations, type definitions, quick info and calls equal TypeScript's language service", async (t) => {
  const tree = await makeNavigationProject();
  const ws = Workspace.openSync({ root: tree.root, noIgnore: false, allowSecrets: false });
  const engine = typescriptEngine();
  const src = new NavigationOracle(new Oracle(tree.root, "tsconfig.json"));
  const scripts = new NavigationOracle(new Oracle(tree.root, null, NAVIGATION_DEFAULT_FILES));
  const oracleOf = (p: NamedPosition) => p.path.startsWith("scripts/") ? scripts : src;
  const ask = async <K extends Answer["kind"]>(kind: K, query: NavigationQuery) => {
    const answer = await engine.ask(ws, query, { signal: new AbortController().signal });
    assert.equal(answer.kind, kind);
    assert.equal(answer.engine, "typescript");
    return answer as Extract<Answer, { kind: K }>;
  };
  const spots = (list: Array<Record<string, unknown>>) =>
    list.map((d) => {
      const spot: Record<string, unknown> = {
        path: d.path,
        line: d.line,
        column: d.column,
        kind: d.kind,
      };
      if (d.external !== undefined) spot.external = d.external;
      return spot;
    });
  try {
    await t.step("implementations", async () => {
      let nonEmpty = 0;
      for (const p of IMPLEMENTATIONS) {
        const got = await ask("implementations", { kind: "implementations", at: p });
        const want = oracleOf(p).implementations(p.path, p.line, columnIn(p));
        assert.deepEqual(spots(got.definitions as never), want, where(p));
        if (want.length > 1) nonEmpty++;
      }
      assert.ok(nonEmpty >= 4, "several positions have more than one implementation");
      const speaker = await ask("implementations", {
        kind: "implementations",
        at: IMPLEMENTATIONS[0],
      });
      // Named by the identifier the span covers; an object literal has none.
      assert.deepEqual(speaker.definitions.map((d) => d.name), [
        "Base",
        "(anonymous)",
        "Loud",
        "Whisper",
      ]);
    });
    await t.step("type definitions", async () => {
      for (const p of TYPE_DEFINITIONS) {
        const got = await ask("type_definitions", { kind: "type_definitions", at: p });
        const want = oracleOf(p).typeDefinitions(p.path, p.line, columnIn(p));
        assert.ok(want.length > 0, where(p));
        assert.deepEqual(spots(got.definitions as never), want, where(p));
      }
    });
    await t.step("quick info", async () => {
      for (const p of QUICK_INFO) {
        const got = await ask("type", { kind: "type", at: p });
        const want = oracleOf(p).type(p.path, p.line, columnIn(p));
        assert.ok(want !== null, where(p));
        assert.deepEqual(got.info, want, where(p));
        // The declaration questions carry the same type (one question instead of two).
        const definition = await engine.ask(ws, { kind: "definition", at: p }, {
          signal: new AbortController().signal,
        });
        assert.deepEqual(definition.kind === "definition" && definition.type, want, where(p));
      }
      // The first paragraph only: the interface's second paragraph is left out.
      const speaker = await ask("type", { kind: "type", at: QUICK_INFO[0] });
      assert.deepEqual(speaker.info, {
        kind: "interface",
        type: "interface Speaker",
        documentation: "Something that speaks.",
      });
    });
    for (const direction of ["incoming", "outgoing"] as const) {
      for (const depth of [1, 2]) {
        await t.step(`calls ${direction}, depth ${depth}`, async () => {
          for (const p of CALL_POSITIONS) {
            const got = await ask("calls", { kind: "calls", at: p, direction, depth });
            const want = oracleOf(p).calls(p.path, { line: p.line, column: columnIn(p) }, {
              direction,
              depth,
            });
            assert.equal(got.direction, direction);
            assert.deepEqual(spots(got.roots as never), want.roots, where(p));
            const ours = got.calls.map((c) => {
              const call: Record<string, unknown> = {
                ...spots([c as never])[0],
                name: c.name,
                depth: c.depth,
                sites: c.sites,
              };
              if (c.cycle) call.cycle = true;
              return call;
            });
            assert.deepEqual(ours, want.calls, where(p, ` ${direction} ${depth}`));
            assert.equal(got.partial, undefined);
          }
        });
      }
    }
    await t.step("the walk's shape: recursion, callbacks, lib calls", async () => {
      const fact = { path: CALLS, line: 4, name: "fact" };
      const incoming = await ask("calls", {
        kind: "calls",
        at: fact,
        direction: "incoming",
        depth: 2,
      });
      const lines = incoming.calls.map((c) => `${c.depth} ${c.name}${c.cycle ? " cycle" : ""}`);
      // fact calls itself (listed once, not walked again); chorus calls it from a callback.
      assert.ok(lines.includes("1 fact cycle"), lines.join("\n"));
      assert.ok(lines.some((l) => l.startsWith("1 ") && l.includes("chorus")), lines.join("\n"));
      const outgoing = await ask("calls", {
        kind: "calls",
        at: { path: SPEAKER, line: 20, name: "speak" },
        direction: "outgoing",
        depth: 1,
      });
      assert.deepEqual(
        outgoing.calls.map((c) => [c.path, c.external, c.name]),
        [[null, "lib.es5.d.ts", "toUpperCase"]],
      );
      const none = await ask("calls", {
        kind: "calls",
        at: { path: CALLS, line: 29, name: "sung" },
        direction: "incoming",
        depth: 1,
      });
      assert.deepEqual([none.roots, none.calls], [[], []]);
    });
  } finally {
    engine.stop();
    await tree.dispose();
  }
});

Deno.test("navigation: an engine that lists no navigation refuses it in one sentence, before its worker starts", async () => {
  const tree = await makeNavigationProject();
  const ws = Workspace.openSync({ root: tree.root, noIgnore: false, allowSecrets: false });
  const engine = new WorkerEngine({
    id: "plain",
    name: "Plain",
    handles: () => true,
    worker: new URL("../../lib/semantic/typescript/worker.ts", import.meta.url),
    needs: { environment: true },
    words: { stopped: "", overrun: () => "", leftOut: () => "" },
  });
  try {
    await assert.rejects(
      engine.ask(ws, { kind: "implementations", at: { path: CALLS, line: 4, name: "fact" } }, {
        signal: new AbortController().signal,
      }),
      (error: Error) =>
        error instanceof SemanticRefusal &&
        error.message === "The Plain engine does not answer implementations",
    );
    assert.equal(engine.started, 0);
  } finally {
    engine.stop();
    await tree.dispose();
  }
});
