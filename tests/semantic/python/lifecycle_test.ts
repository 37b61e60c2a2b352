/**
 * The Python engine's lifecycle: nothing starts before the first question, which reports
 * progress while pyright starts; a diagnostics question over a scope without Python files is
 * answered without starting pyright; the worker ends once idle and the next question starts a
 * fresh one that answers the same.
 */
import assert from "node:assert/strict";
import { Workspace } from "../../../lib/workspace/workspace.ts";
import type { Answer } from "../../../lib/semantic/engine.ts";
import { pythonEngine } from "../../../lib/semantic/python/engine.ts";

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 20));
}

Deno.test("python lifecycle: progress on first use, no pyright for a scope without Python, idle end and restart", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "py_life_" }));
  await Deno.writeTextFile(`${root}/app.py`, "def run() -> int:\n    return 1\n\n\nrun()\n");
  await Deno.mkdir(`${root}/web`);
  await Deno.writeTextFile(`${root}/web/page.ts`, "export const x = 1;\n");
  const engine = pythonEngine({ idleMs: 300 });
  const ws = Workspace.openSync({ root, noIgnore: false, allowSecrets: false });
  const signal = new AbortController().signal;
  try {
    assert.equal(engine.running, false);
    const messages: string[] = [];
    const empty = await engine.ask(ws, { kind: "diagnostics", path: "web" }, {
      signal,
      progress: (_, message) => messages.push(message),
    });
    assert.deepEqual(empty, {
      kind: "diagnostics",
      engine: "pyright",
      diagnostics: [],
      files: 0,
      total: 0,
      leftOut: 0,
    });
    assert.ok(!messages.includes("starting pyright"), messages.join(", "));

    const ask = async (): Promise<Answer> =>
      await engine.ask(ws, { kind: "references", at: { path: "app.py", line: 5, name: "run" } }, {
        signal,
        progress: (_, message) => messages.push(message),
      });
    const first = await ask();
    assert.ok(messages.includes("starting pyright"), messages.join(", "));
    assert.ok(first.kind === "references");
    assert.deepEqual(first.references.map((r) => `${r.line}:${r.column}:${r.definition}`), [
      "1:5:true",
      "5:1:false",
    ]);
    const started = engine.started;
    await until(() => !engine.running);
    const again = await ask();
    assert.deepEqual(again, first);
    assert.equal(engine.started, started + 1);
  } finally {
    engine.stop();
    await Deno.remove(root, { recursive: true });
  }
});
