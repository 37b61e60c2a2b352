import assert from "node:assert/strict";
import { WorkQueue } from "../lib/work_queue.ts";

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

Deno.test("work queue: at most its capacity runs at once and the rest wait in arrival order", async () => {
  const queue = new WorkQueue(2);
  const granted: number[] = [];
  const releases: Array<() => void> = [];
  const signal = new AbortController().signal;
  for (const n of [1, 2, 3, 4]) {
    queue.acquire(signal).then((release) => {
      granted.push(n);
      releases.push(release);
    });
  }
  await tick();
  assert.deepEqual(granted, [1, 2]);
  assert.equal(queue.waiting, 2);
  releases[0]();
  releases[0](); // a second release of the same grant changes nothing
  await tick();
  assert.deepEqual(granted, [1, 2, 3]);
  assert.equal(queue.waiting, 1);
});

Deno.test("work queue: a request for every unit waits for all and nobody overtakes it", async () => {
  const queue = new WorkQueue(2);
  const signal = new AbortController().signal;
  const first = await queue.acquire(signal);
  const order: string[] = [];
  queue.acquire(signal, "all").then((release) => {
    order.push("all");
    release();
  });
  queue.acquire(signal).then(() => order.push("one"));
  await tick();
  assert.deepEqual(order, []); // one unit is free, but "one" may not pass "all"
  first();
  await tick();
  assert.deepEqual(order, ["all", "one"]);
});

Deno.test("work queue: a cancelled waiter leaves at once and is never granted", async () => {
  const queue = new WorkQueue(1);
  const running = await queue.acquire(new AbortController().signal);
  const controller = new AbortController();
  const waiting = queue.acquire(controller.signal);
  controller.abort(new Error("cancelled by the client"));
  await assert.rejects(waiting, /cancelled by the client/);
  assert.equal(queue.waiting, 0);
  running();
  const next = await queue.acquire(new AbortController().signal);
  next();
});

Deno.test("work queue: weights outside 1..capacity are a programming error", () => {
  const queue = new WorkQueue(2);
  const signal = new AbortController().signal;
  assert.throws(() => queue.acquire(signal, 3), RangeError);
  assert.throws(() => queue.acquire(signal, 0), RangeError);
});

Deno.test("work queue: with several owners (the daemon's sessions) they are served in turn", async () => {
  const { asOwner } = await import("../lib/call_owner.ts");
  const queue = new WorkQueue(2);
  const a = {}, b = {};
  const order: string[] = [];
  const take = (owner: object, name: string) =>
    asOwner(owner, () => queue.acquire(new AbortController().signal, "all")).then((release) => {
      order.push(name);
      return release;
    });
  const a1 = take(a, "a1");
  const rest = [take(a, "a2"), take(a, "a3"), take(a, "a4")];
  const b1 = take(b, "b1");
  (await a1)();
  (await b1)();
  for (const r of rest) (await r)();
  // b1 came after a's whole burst but waits behind one of its jobs only.
  assert.deepEqual(order, ["a1", "b1", "a2", "a3", "a4"]);
});

Deno.test("work queue: one owner keeps arrival order", async () => {
  const queue = new WorkQueue(2);
  const order: number[] = [];
  const all = [1, 2, 3].map((n) =>
    queue.acquire(new AbortController().signal, n === 2 ? 1 : "all").then((release) => {
      order.push(n);
      return release;
    })
  );
  for (const r of all) (await r)();
  assert.deepEqual(order, [1, 2, 3]);
});

Deno.test("work queue: its listener hears the units in use after every grant and release", async () => {
  const heard: number[] = [];
  const queue = new WorkQueue(2, (inUse) => heard.push(inUse));
  const signal = new AbortController().signal;
  const one = await queue.acquire(signal);
  const waiting = queue.acquire(signal, "all");
  assert.equal(heard.at(-1), 1);
  one();
  const all = await waiting;
  assert.equal(heard.at(-1), 2, "the waiter for every unit holds them all");
  all();
  assert.equal(heard.at(-1), 0, "an idle queue says so");
});
