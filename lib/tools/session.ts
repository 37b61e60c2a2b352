/**
 * The services of one MCP session that tools share: the one work queue for heavy work and the
 * search pool that runs on it. Created when the features load, closed when the server stops;
 * nothing here is module-wide, so every session (and every test) owns its own.
 */

import { EditSession } from "../edits/edit_session.ts";
import { SearchPool } from "../search/pool.ts";
import { WorkQueue } from "../work_queue.ts";

/** Heavy calls that may run at once (a search-pool job takes both units). */
export const HEAVY_UNITS = 2;

export class Session {
  readonly queue: WorkQueue;
  readonly pool: SearchPool;
  /** What this session read and wrote, for the edit tools; null without --write. */
  readonly edits: EditSession | null;

  constructor(options: { write?: boolean } = {}) {
    this.queue = new WorkQueue(HEAVY_UNITS);
    this.pool = new SearchPool(this.queue);
    this.edits = options.write === true ? new EditSession() : null;
    // A write drops what the workers cached (workspaces with their ignore rules, listings).
    this.edits?.onWritten(() => this.pool.forget());
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
