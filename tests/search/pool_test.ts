import assert from "node:assert/strict";
import { JobAbortedError, type JobDriver, SearchPool } from "../../lib/search/pool.ts";
import { runGrep } from "../../lib/search/grep_job.ts";
import { type PatternSpec, translatePattern } from "../../lib/search/pattern.ts";
import type { ListEntry } from "../../lib/search/protocol.ts";
import { WorkQueue } from "../../lib/work_queue.ts";
import type { WorkspaceOptions } from "../../lib/workspace/workspace.ts";
import { makeTree } from "../helpers/fixture.ts";

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

function spec(pattern: string): PatternSpec {
  const translated = translatePattern(pattern, {
    ignoreCase: false,
    fixedStrings: false,
    multiline: false,
  });
  if (!("spec" in translated)) throw new Error(translated.error);
  return translated.spec;
}

/** 300 files over three batches (the walker reports a heap, the searcher one per batch). */
function manyFiles(): Record<string, string> {
  const files: Record<string, string> = { "slow.txt": ("a".repeat(34) + "!\n").repeat(4) };
  for (let i = 0; i < 300; i++) {
    files[`src/d${i % 6}/f${String(i).padStart(3, "0")}.ts`] = i % 50 === 7
      ? "const needle = 1;\n"
      : "const hay = 2;\n";
  }
  return files;
}

const NEEDLES = ["src/d1/f007.ts", "src/d1/f157.ts", "src/d3/f057.ts", "src/d3/f207.ts"]
  .concat(["src/d5/f107.ts", "src/d5/f257.ts"]).sort();

async function grepNeedles(pool: SearchPool, ws: WorkspaceOptions): Promise<string[]> {
  const outcome = await runGrep(pool, {
    ws,
    base: "",
    single: false,
    globs: [],
    typeGlobs: [],
    spec: spec("needle"),
    mode: "files_with_matches",
    content: { before: 0, after: 0, lineNumbers: false },
    collectLines: Infinity,
    collectChars: Infinity,
    offset: 0,
  }, context(new AbortController().signal));
  return outcome.results.map((r) => r.path);
}

async function withTree(test: (ws: WorkspaceOptions) => Promise<void>): Promise<void> {
  const tree = await makeTree(manyFiles());
  try {
    await test({ root: Deno.realPathSync(tree.root), noIgnore: false, allowSecrets: false });
  } finally {
    await tree.dispose();
  }
}

Deno.test("pool: after a job, a worker whose heap is over its share is replaced and the next job runs on the new one", async () => {
  await withTree(async (ws) => {
    const pool = new SearchPool(new WorkQueue(2), { heapShareBytes: 1 });
    try {
      assert.deepEqual(await grepNeedles(pool, ws), NEEDLES);
      assert.equal(pool.spawned, 4, "both workers reported a heap over 1 byte");
      assert.equal(pool.recycled, 2);
      assert.deepEqual(pool.heaps, [0, 0], "the replacements have reported nothing yet");
      assert.deepEqual(await grepNeedles(pool, ws), NEEDLES);
      assert.equal(pool.spawned, 6);
      assert.equal(pool.recycled, 4);
    } finally {
      pool.stop();
    }
  });
});

Deno.test("pool: workers whose heap is within their share are kept across jobs", async () => {
  await withTree(async (ws) => {
    const share = 1024 * 1024 * 1024;
    const pool = new SearchPool(new WorkQueue(2), { heapShareBytes: share });
    try {
      assert.deepEqual(await grepNeedles(pool, ws), NEEDLES);
      assert.deepEqual(await grepNeedles(pool, ws), NEEDLES);
      assert.equal(pool.spawned, 2);
      assert.equal(pool.recycled, 0);
      for (const heap of pool.heaps) assert.ok(heap > 0 && heap < share, `heap ${heap}`);
    } finally {
      pool.stop();
    }
  });
});

Deno.test("pool: a cancelled job replaces each grown worker once, the busy one by its settling", async () => {
  await withTree(async (ws) => {
    const pool = new SearchPool(new WorkQueue(2), { heapShareBytes: 1 });
    try {
      // Both workers list the root (and report a heap), then worker 1 runs a regex that does not
      // end while worker 0 is idle.
      let listed = 0;
      let bothListed!: () => void;
      const scanning = new Promise<void>((resolve) => (bothListed = resolve));
      const controller = new AbortController();
      const stuck = pool.run<never>({
        start(job) {
          for (let slot = 0; slot < job.slots; slot++) {
            job.post(slot, { t: "list", job: job.id, ws, base: "", depth: 1 });
          }
        },
        onMessage(job, _slot, message) {
          if (message.t !== "listed" || ++listed < job.slots) return;
          job.post(1, {
            t: "search",
            job: job.id,
            batch: 0,
            files: ["slow.txt"],
            reals: [""],
            ws,
            spec: spec("(a{1,20}){1,20}$"),
            mode: "count",
            content: { before: 0, after: 0, lineNumbers: false },
          });
          bothListed();
        },
      }, context(controller.signal));
      await scanning;
      await new Promise((resolve) => setTimeout(resolve, 500));
      controller.abort();
      await assert.rejects(stuck, JobAbortedError);
      // The next job waits for the settling, then runs on the replacements.
      const signal = new AbortController().signal;
      assert.equal(
        await pool.run({ start: (job) => job.finish(7), onMessage() {} }, context(signal)),
        7,
      );
      assert.equal(pool.spawned, 4, "each worker was replaced exactly once");
      assert.equal(pool.recycled, 1, "only the idle worker was replaced for its heap");
      const entries = await pool.run<ListEntry[]>({
        start: (job) => job.post(0, { t: "list", job: job.id, ws, base: "", depth: 1 }),
        onMessage: (job, _slot, message) => {
          if (message.t === "listed") job.finish(message.entries);
        },
      }, context(signal));
      assert.deepEqual(entries.map((e) => e.rel).sort(), ["slow.txt", "src"]);
    } finally {
      pool.stop();
    }
  });
});
