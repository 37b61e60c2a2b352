/**
 * The services of one MCP session that tools share: the one work queue for heavy work and the
 * search pool that runs on it. Created when the features load, closed when the server stops;
 * nothing here is module-wide, so every session (and every test) owns its own. In the shared
 * daemon (lib/daemon/) each connected session is a Session of its own over the services of the
 * daemon's first one (`shared`): the queue, the workers, the index, the symbol cache and the
 * type engines are the daemon's, what the session read and wrote (`edits`) is its own.
 */

import { EditSession } from "../edits/edit_session.ts";
import { GitRunner } from "../git/runner.ts";
import type { GitTarget } from "../git/target.ts";
import { HEAP_SHARE_BYTES, SearchPool } from "../search/pool.ts";
import { SemanticRouter } from "../semantic/router/router.ts";
import type { EngineFactory } from "../semantic/router/engines.ts";
import { SymbolService } from "../symbols/service.ts";
import { WorkQueue } from "../work_queue.ts";
import type { SearchIndex } from "../index/service.ts";
import { INDEX_START_DELAY_MS } from "../index/early_start.ts";

/** Heavy calls that may run at once (a search-pool job takes both units). */
export const HEAVY_UNITS = 2;

export class Session {
  readonly queue: WorkQueue;
  readonly pool: SearchPool;
  /** What this session read and wrote, for the edit tools; null without --write. */
  readonly edits: EditSession | null;
  /** The trigram index grep asks for candidate files (null: --no-index, or none given). */
  readonly index: SearchIndex | null;
  /** Parsed symbols: parser workers (started on first use) and the per-file cache. */
  readonly symbols: SymbolService;

  /** The type engines (lib/semantic/router/engines.ts): each starts on first use, ends idle. */
  readonly semantic: SemanticRouter;

  /** The git runner of the root (lib/git/runner.ts), or null when the git tools are not offered. */
  readonly git: GitRunner | null;
  /** False for a session over another's services (`shared`). */
  #owner = true;

  constructor(
    options: {
      write?: boolean;
      index?: SearchIndex;
      git?: GitTarget | null;
      semanticIdleMs?: number;
      /** The time bound of one type-aware question (lib/semantic/worker_engine.ts; 20 s). */
      semanticBudgetMs?: number;
      maxReadBytes?: number;
      /** The memory budget of the type engines' programs (--semantic-max-mib). */
      semanticMaxMib?: number;
      /** The session whose services this one uses (and never stops): a daemon's sessions. */
      shared?: Session;
      /** The type engines' table (default: lib/semantic/router/engines.ts); tests name fewer. */
      engines?: readonly EngineFactory[];
    } = {},
  ) {
    this.edits = options.write === true ? new EditSession() : null;
    const shared = options.shared;
    if (shared !== undefined) {
      this.#owner = false;
      this.queue = shared.queue;
      this.pool = shared.pool;
      this.index = shared.index;
      this.git = shared.git;
      this.semantic = shared.semantic;
      this.symbols = shared.symbols;
      this.#onWritten();
      return;
    }
    // While heavy work runs, the index's build gives way to it (lib/index/worker/give_way.ts).
    this.queue = new WorkQueue(HEAVY_UNITS, (inUse) => this.index?.heavyWork(inUse));
    // Each search worker whose heap a job grew past its share is replaced when the job ends.
    this.pool = new SearchPool(this.queue, { heapShareBytes: HEAP_SHARE_BYTES });
    this.index = options.index ?? null;
    this.git = options.git ? new GitRunner(options.git) : null;
    this.semantic = new SemanticRouter({
      idleMs: options.semanticIdleMs,
      budgetMs: options.semanticBudgetMs,
      maxBytes: options.maxReadBytes,
      maxMib: options.semanticMaxMib,
    }, options.engines);
    this.symbols = new SymbolService({ queue: this.queue });
    this.#onWritten();
  }

  /**
   * A write drops what the workers cached (workspaces with their ignore rules, listings) and
   * re-reads the file into the index before the next grep.
   */
  #onWritten(): void {
    this.edits?.onWritten((file) => {
      this.pool.forget();
      this.index?.touch([file.rel]);
      this.semantic.touch([file.rel], file.created);
    });
  }

  /** Starts what the first calls would otherwise wait for (the search workers, the index). */
  warm(): void {
    if (!this.#owner) return;
    this.pool.warm();
    this.index?.start(INDEX_START_DELAY_MS);
  }

  /** Stops the workers (a shared session's are its owner's to stop). Idempotent. */
  close(): void {
    if (!this.#owner) return;
    this.pool.stop();
    this.index?.stop();
    this.symbols.stop();
    this.semantic.stop();
  }
}
