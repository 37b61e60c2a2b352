import assert from "node:assert/strict";
import { JobAbortedError, type JobDriver, SearchPool } from "../../lib/search/pool.ts";
import { WorkQueue } from "../../lib/work_queue.ts";

/** A job that never finishes by itself. */
const forever: JobDriver<never> = { start() {}, onMessage() {} };

function context(signal: AbortSignal) {
  return { signal, progress: () => {}, timeoutMs: 60_000 };
}

Deno.test("pool: a job cancelled while it waits for the running one rejects at once", async () => {
  const pool = new SearchPool(new WorkQueue(2));
  try {
    const first = new AbortController();
    const second = new AbortController();
    const running = pool.run(forever, context(first.signal));
    const waiting = pool.run(forever, context(second.signal));
    second.abort();
    await assert.rejects(waiting, JobAbortedError);
    first.abort();
    await assert.rejects(running, JobAbortedError);
  } finally {
    pool.stop();
  }
});

Deno.test("pool: a job whose signal is already aborted never starts", async () => {
  const pool = new SearchPool(new WorkQueue(2));
  try {
    let started = false;
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(
      pool.run({ start: () => (started = true), onMessage() {} }, context(controller.signal)),
      JobAbortedError,
    );
    assert.equal(started, false);
  } finally {
    pool.stop();
  }
});

Deno.test("pool: a finished job passes its value and frees the pool", async () => {
  const pool = new SearchPool(new WorkQueue(2));
  try {
    const signal = new AbortController().signal;
    const one = await pool.run({ start: (job) => job.finish(1), onMessage() {} }, context(signal));
    const two = await pool.run({ start: (job) => job.finish(2), onMessage() {} }, context(signal));
    assert.deepEqual([one, two], [1, 2]);
  } finally {
    pool.stop();
  }
});

Deno.test("pool: stopping workers that are still starting never blocks later jobs", async () => {
  const pool = new SearchPool(new WorkQueue(2));
  try {
    const controller = new AbortController();
    const first = pool.run(forever, context(controller.signal));
    controller.abort();
    await assert.rejects(first, JobAbortedError);
    pool.stop();
    const signal = new AbortController().signal;
    assert.equal(
      await pool.run({ start: (job) => job.finish(7), onMessage() {} }, context(signal)),
      7,
    );
  } finally {
    pool.stop();
  }
});
