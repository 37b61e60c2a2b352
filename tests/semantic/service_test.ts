/**
 * The semantic service's time bound and cancellation (docs/tools.md "Type-aware tools"): a
 * project TypeScript needs minutes for (its binder is quadratic in redeclarations of one name:
 * 40,000 `var a` take it ~6 s, 120,000 about a minute, the fuzz fixture's 400,000 about ten)
 * stops at the bound with a partial answer, a cancelled question frees the worker, and later
 * questions are answered. Times are bounded well below the bundle's own time: the first program
 * of a worker (TypeScript's lib files) alone takes ~1 s on a quiet machine and 5 s at load 6.
 */
import assert from "node:assert/strict";
import { makeTree } from "../helpers/fixture.ts";
import { GRACE_MS, type WorkerEngine } from "../../lib/semantic/worker_engine.ts";
import { typescriptEngine } from "../../lib/semantic/typescript/engine.ts";
import { Workspace } from "../../lib/workspace/workspace.ts";
import type { Answer, Query } from "../../lib/semantic/engine.ts";
import { asOwner } from "../../lib/call_owner.ts";

/** Above a worker's first program (lib files) under load, far below binding SLOW_BUNDLE. */
const BUDGET_MS = 8000;
const SLOW_BUNDLE = "var a=1;\n".repeat(120_000);
/** Far below what binding SLOW_BUNDLE takes, far above a worker's first program under load. */
const WELL_BELOW_MS = 25_000;

async function world(extra: Record<string, string> = {}) {
  const tree = await makeTree({
    "slow/tsconfig.json": '{"compilerOptions":{"allowJs":true,"noEmit":true},"include":["*"]}',
    "slow/bundle.js": SLOW_BUNDLE,
    "slow/x.ts": "export const x: number = 1;\n",
    "fast/tsconfig.json": '{"compilerOptions":{"strict":true,"noEmit":true},"include":["*"]}',
    "fast/a.ts": "export function alpha(n: number): number {\n  return n;\n}\n",
    "fast/b.ts": 'import { alpha } from "./a.ts";\nexport const s: string = alpha(1);\n',
    ...extra,
  });
  const ws = Workspace.openSync({ root: tree.root, noIgnore: false, allowSecrets: false });
  return { tree, ws };
}

function ask(
  service: WorkerEngine,
  ws: Workspace,
  query: Query,
) {
  return service.ask(ws, query, { signal: new AbortController().signal });
}

const DEFINITION = {
  kind: "definition",
  at: { path: "fast/b.ts", line: 1, name: "alpha" },
} as const;

/** A question on the slow project itself: it needs the program the slow question builds. */
const DEFINITION_IN_SLOW = {
  kind: "definition",
  at: { path: "slow/x.ts", line: 1, name: "x" },
} as const;

function definedAt(answer: Answer): string[] {
  assert.equal(answer.kind, "definition");
  return answer.kind === "definition" ? answer.definitions.map((d) => `${d.path}:${d.line}`) : [];
}

Deno.test("semantic service: diagnostics that run past the caller's time limit answer with the files checked and a sentence, and the next question is answered", async () => {
  const { tree, ws } = await world();
  const service = typescriptEngine({ budgetMs: 60_000 });
  try {
    const t = performance.now();
    const answer = await ask(service, ws, {
      kind: "diagnostics",
      path: "slow",
      timeoutMs: BUDGET_MS,
    });
    const ms = performance.now() - t;
    assert.equal(answer.kind, "diagnostics");
    if (answer.kind !== "diagnostics") return;
    assert.match(
      answer.stopped ?? "",
      /^Stopped at the time limit \(8 s\) with 0 of 2 files checked: /,
    );
    assert.deepEqual([answer.files, answer.total, answer.diagnostics], [0, 2, []]);
    assert.ok(ms < WELL_BELOW_MS, `answered after ${ms.toFixed(0)} ms`);
    assert.deepEqual(definedAt(await ask(service, ws, DEFINITION)), ["fast/a.ts:1"]);
  } finally {
    service.stop();
    await tree.dispose();
  }
});

Deno.test("semantic service: a cancelled question is dropped at once and the question after it is answered", async () => {
  const { tree, ws } = await world();
  const service = typescriptEngine({ budgetMs: 60_000 });
  try {
    const controller = new AbortController();
    const slow = service.ask(ws, { kind: "diagnostics", path: "slow" }, {
      signal: controller.signal,
    });
    const next = ask(service, ws, DEFINITION);
    await new Promise((r) => setTimeout(r, 300));
    controller.abort(new Error("cancelled by the client"));
    // A cancelled diagnostics question answers with what it checked, as a partial answer.
    const cut = await slow;
    assert.equal(cut.kind, "diagnostics");
    if (cut.kind === "diagnostics") assert.match(cut.stopped ?? "", /^Cancelled with 0 of /);
    const t = performance.now();
    assert.deepEqual(definedAt(await next), ["fast/a.ts:1"]);
    const ms = performance.now() - t;
    assert.ok(ms < GRACE_MS + WELL_BELOW_MS, `the next question waited ${ms.toFixed(0)} ms`);
  } finally {
    service.stop();
    await tree.dispose();
  }
});

Deno.test("semantic service: in the shared daemon, a question its session cancels leaves the worker and the program it was binding to another session's question", async () => {
  // 40,000 redeclarations: TypeScript binds them for seconds (far past GRACE_MS), uninterrupted.
  const { tree, ws } = await world({ "slow/bundle.js": "var a=1;\n".repeat(40_000) });
  const service = typescriptEngine({ budgetMs: 120_000 });
  const [sessionA, sessionB] = [{}, {}];
  try {
    const controller = new AbortController();
    const slow = asOwner(
      sessionA,
      () => service.ask(ws, { kind: "diagnostics", path: "slow" }, { signal: controller.signal }),
    );
    const other = asOwner(sessionB, () => ask(service, ws, DEFINITION_IN_SLOW));
    await new Promise((r) => setTimeout(r, 300));
    // Session A cancels (or its relay went away) while its project binds.
    controller.abort(new Error("relay gone"));
    const cut = await slow;
    assert.equal(cut.kind, "diagnostics");
    if (cut.kind === "diagnostics") assert.match(cut.stopped ?? "", /^Cancelled with 0 of /);
    assert.deepEqual(definedAt(await other), ["slow/x.ts:1"]);
    // The worker that bound the project answered B: it was not terminated and started again.
    assert.equal(service.started, 1);
  } finally {
    service.stop();
    await tree.dispose();
  }
});

Deno.test("semantic service: minified files that no tsconfig includes are left out and counted", async () => {
  const { tree, ws } = await world({
    "web/app.min.js": SLOW_BUNDLE,
    "web/page.ts": "const n: number = 'x';\n",
  });
  const service = typescriptEngine({ budgetMs: 60_000 });
  try {
    const t = performance.now();
    const answer = await ask(service, ws, { kind: "diagnostics", path: "web" });
    assert.equal(answer.kind, "diagnostics");
    if (answer.kind !== "diagnostics") return;
    assert.deepEqual(
      [answer.files, answer.total, answer.leftOut, answer.stopped],
      [1, 1, 1, undefined],
    );
    assert.deepEqual(answer.diagnostics.map((d) => `${d.path}:${d.line} ${d.code}`), [
      "web/page.ts:1 TS2322",
    ]);
    assert.ok(performance.now() - t < WELL_BELOW_MS, "the minified bundle was bound");
    await assert.rejects(
      ask(service, ws, { kind: "definition", at: { path: "web/app.min.js", line: 1, column: 5 } }),
      /minified file/,
    );
  } finally {
    service.stop();
    await tree.dispose();
  }
});
