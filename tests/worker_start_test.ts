/**
 * The server's workers start with the permission to read and nothing else (lib/worker_start.ts),
 * even in a process that may write, run programs and read its environment, as this test's does.
 */
import assert from "node:assert/strict";
import { parkedWorkers, prestartWorker, startWorker } from "../lib/worker_start.ts";
import { prestartSearchWorkers } from "../lib/features/early_workers.ts";
import { SearchPool } from "../lib/search/pool.ts";
import { WorkQueue } from "../lib/work_queue.ts";

const PROBE = new URL("./helpers/permission_worker.ts", import.meta.url);

async function probe(environment: boolean): Promise<Record<string, string>> {
  const dir = await Deno.makeTempDir({ prefix: "shipcode-worker-permissions-" });
  try {
    Deno.writeTextFileSync(`${dir}/there.txt`, "x");
    const worker = startWorker(PROBE, "permission probe", { environment });
    try {
      return await new Promise((resolve, reject) => {
        worker.onmessage = (event) => resolve(event.data);
        worker.onerror = (event) => {
          event.preventDefault();
          reject(new Error(event.message));
        };
        worker.postMessage({ dir });
      });
    } finally {
      worker.terminate();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("worker permissions: a worker may read, but not write, run git or read the environment", async () => {
  // The process itself may do all four.
  new Deno.Command("git", { args: ["--version"], stdout: "null" }).outputSync();
  assert.notEqual(Deno.env.get("PATH"), undefined);
  assert.deepEqual(await probe(false), {
    read: "done",
    write: "NotCapable",
    run: "NotCapable",
    env: "NotCapable",
  });
});

Deno.test("worker permissions: the semantic worker's kind also reads the environment, and still cannot write or run", async () => {
  assert.deepEqual(await probe(true), {
    read: "done",
    write: "NotCapable",
    run: "NotCapable",
    env: "done",
  });
});

Deno.test("worker permissions: a worker started ahead is handed out once, with the same permissions", async () => {
  prestartWorker(PROBE, "permission probe");
  assert.equal(parkedWorkers(), 1);
  assert.deepEqual(await probe(true), {
    read: "done",
    write: "NotCapable",
    run: "NotCapable",
    env: "done",
  });
  assert.equal(parkedWorkers(), 1, "a worker with other needs is not the one started ahead");
  assert.deepEqual(await probe(false), {
    read: "done",
    write: "NotCapable",
    run: "NotCapable",
    env: "NotCapable",
  });
  assert.equal(parkedWorkers(), 0);
});

Deno.test("worker start: the search workers started before the features load are the pool's", () => {
  prestartSearchWorkers();
  const pool = new SearchPool(new WorkQueue(2));
  pool.warm();
  try {
    assert.equal(parkedWorkers(), 0, "the pool started its own and left these idle");
  } finally {
    pool.stop();
  }
});
