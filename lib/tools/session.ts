/**
 * The services of one MCP session that tools share: the one work queue for heavy work and the
 * search pool that runs on it. Created when the features load, closed when the server stops;
 * nothing here is module-wide, so every session (and every test) owns its own.
 */

import { SearchPool } from "../search/pool.ts";
import { WorkQueue } from "../work_queue.ts";

/** Heavy calls that may run at once (a search-pool job takes both units). */
export const HEAVY_UNITS = 2;

export class Session {
  readonly queue: WorkQueue;
  readonly pool: SearchPool;

  constructor() {
    this.queue = new WorkQueue(HEAVY_UNITS);
    this.pool = new SearchPool(this.queue);
  }

  /** Starts what the first calls would otherwise wait for (the search workers). */
  warm(): void {
    this.pool.warm();
  }

  /** Stops the workers: idle workers keep a process alive. Idempotent. */
  close(): void {
    this.pool.stop();
  }
}
