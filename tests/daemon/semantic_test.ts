/**
 * The shared daemon's type engines (docs/architecture.md, "The shared daemon"): their workers and
 * programs serve every session of the key, and a session that leaves while TypeScript builds a
 * program leaves it to the others. Real processes, each world with its own socket folder.
 */

import assert from "node:assert/strict";
import { call, content, DaemonWorld } from "./helpers.ts";

/**
 * 25,000 redeclarations of one name: TypeScript binds them for seconds, uninterrupted (past the
 * 1.5 s grace a cancelled call gets outside the daemon), and well within the 20 s bound of B's
 * question even on a loaded machine (40,000 took more than 20 s at load 20 on 2 cores).
 */
const FILES = {
  "slow/tsconfig.json": '{"compilerOptions":{"allowJs":true,"noEmit":true},"include":["*"]}',
  "slow/bundle.js": "var a=1;\n".repeat(25_000),
  "slow/x.ts": "export const x: number = 1;\n",
  "slow/y.ts": 'import { x } from "./x.ts";\nexport const y = x;\n',
};

/** A tools/call with a progress token. */
function tracked(id: number, token: string, name: string, args: Record<string, unknown>): string {
  const line = JSON.parse(call(id, name, args));
  line.params._meta = { progressToken: token };
  return JSON.stringify(line);
}

Deno.test("daemon: a session killed while TypeScript builds its program leaves the engine, program and all, to the next session's question", async () => {
  const world = await DaemonWorld.create(FILES);
  try {
    const a = await world.session();
    const b = await world.session();
    await world.waitForDaemons(1);
    // A's diagnostics start the TypeScript worker and the slow project's program.
    await a.send(tracked(2, "a", "diagnostics", { path: "slow" }));
    await a.take((l) => l.includes('"progressToken":"a"'), 60_000);
    await b.send(tracked(3, "b", "go_to_definition", { path: "slow/y.ts", line: 2, name: "x" }));
    a.child.kill("SIGKILL");
    await a.child.status;
    const answer = await b.take((l) => JSON.parse(l).id === 3, 120_000);
    assert.ok(JSON.parse(answer).result?.isError !== true, `B's answer: ${answer}`);
    const definitions = content(answer).definitions as Array<{ path: string; line: number }>;
    assert.deepEqual(definitions.map((d) => `${d.path}:${d.line}`), ["slow/x.ts:1"]);
    // B's question went to the worker A's call had started: no new worker loaded TypeScript.
    const progress = b.unread.filter((l) => l.includes('"progressToken":"b"'));
    assert.ok(
      !progress.some((l) => l.includes("loading TypeScript")),
      `B's progress: ${progress.join("\n")}`,
    );
  } finally {
    await world.dispose();
  }
});
