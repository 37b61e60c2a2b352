/**
 * The search workers, started before the features load: a session's first grep needs them, and
 * each takes 50-300 ms to start on 2 cores (a thread, an isolate, 43 modules); started when the
 * features' warm-up asks for them (after 194 modules are loaded), they were the last thing the
 * first grep waited for. Started here, they load while the main thread loads the features; the
 * pool (lib/search/pool.ts) then takes them through startWorker (lib/worker_start.ts).
 */
import { WORKER_COUNT } from "../search/pool.ts";
import { prestartWorker } from "../worker_start.ts";

/** The module and name lib/search/pool.ts starts its workers with. */
export const SEARCH_WORKER = new URL("../search/worker.ts", import.meta.url);
export const SEARCH_WORKER_NAME = "search worker";

/** Starts the search pool's workers now, for the pool to take when the features warm up. */
export function prestartSearchWorkers(): void {
  for (let i = 0; i < WORKER_COUNT; i++) prestartWorker(SEARCH_WORKER, SEARCH_WORKER_NAME);
}
