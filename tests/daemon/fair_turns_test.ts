import assert from "node:assert/strict";
import { FairTurns } from "../../lib/daemon/fair_turns.ts";

/** Enters `count` calls of `session`, recording each start in `log` under `name`. */
function enter(turns: FairTurns, session: object, name: string, count: number, log: string[]) {
  const releases: Array<Promise<() => void>> = [];
  for (let i = 0; i < count; i++) {
    const signal = new AbortController().signal;
    releases.push(
      turns.enter(session, signal).then((release) => {
        log.push(`${name}${i}`);
        return release;
      }),
    );
  }
  return releases;
}

Deno.test("fair turns: a session's burst does not hold another's call behind all of it", async () => {
  const turns = new FairTurns(2, 16);
  const log: string[] = [];
  const a = {}, b = {};
  const heavy = enter(turns, a, "a", 10, log);
  const light = enter(turns, b, "b", 1, log);
  await Promise.resolve();
  // a0 and a1 run (the daemon's bound is 2); b0 is next, before a2.
  (await heavy[0])();
  await light[0];
  assert.deepEqual(log.slice(0, 3), ["a0", "a1", "b0"]);
  (await heavy[1])();
  (await light[0])();
  for (const r of heavy.slice(2)) (await r)();
  assert.equal(log.length, 11);
  assert.equal(turns.running, 0);
});

Deno.test("fair turns: at most perSession calls of one session run, the others wait", async () => {
  const turns = new FairTurns(32, 3);
  const log: string[] = [];
  const a = {};
  const calls = enter(turns, a, "a", 5, log);
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(turns.running, 3);
  (await calls[0])();
  await calls[3];
  assert.equal(turns.running, 3);
  assert.deepEqual(log, ["a0", "a1", "a2", "a3"]);
});

Deno.test("fair turns: a waiting call whose signal aborts leaves its line; a session that leaves frees its turn", async () => {
  const turns = new FairTurns(1, 16);
  const a = {}, b = {};
  const first = await turns.enter(a, new AbortController().signal);
  const controller = new AbortController();
  const waiting = turns.enter(a, controller.signal);
  controller.abort(new Error("cancelled"));
  await assert.rejects(waiting, /cancelled/);
  const next = turns.enter(b, new AbortController().signal);
  turns.leave(a);
  first();
  (await next)();
  assert.equal(turns.running, 0);
});
