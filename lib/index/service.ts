/**
 * The trigram index as the main thread sees it: one worker per session that builds, refreshes
 * and queries the index (lib/index/worker/worker.ts). Nothing here blocks: a query is one message
 * round trip, and while the index is not ready the answer is null at once (grep then uses the
 * full scan).
 */
import { log } from "../log.ts";
import type { CacheWriterHandle } from "./store/cache_owner.ts";
import type { Candidates } from "./live/trigram_index.ts";
import type { FromIndex, IndexQuery, IndexSettings, IndexStatus, ToIndex } from "./protocol.ts";
import type { WatchPort } from "./watch_worker.ts";
import { startWorker } from "../worker_start.ts";
import { hasStoredIndex } from "./store/root_key.ts";

export type { IndexQuery, IndexSettings, IndexStatus };

export interface IndexAnswer {
  /** null: search the full scope (the reason is in `why`). */
  candidates: Candidates | null;
  why: string;
  /**
   * An early answer (asked with `early`): resolves to true once the index has checked that the
   * candidates stand (the changes heard of and the folders in scope changed nothing), false when
   * they must be asked for again. Absent: the candidates were checked before the answer.
   */
  fresh?: Promise<boolean>;
}

const OFF: IndexStatus = {
  phase: "off",
  files: 0,
  textBytes: 0,
  bytes: 0,
  leftOut: 0,
  note: "",
  diskBytes: 0,
  persisted: 0,
};

/** How long a delayed start waits for heavy work to end (checked every START_RECHECK_MS). */
const START_HOLD_MS = 2000;
const START_RECHECK_MS = 50;

export class SearchIndex {
  readonly #settings: IndexSettings;
  #worker: Worker | null = null;
  /** The index worker's file watcher (watch_worker.ts), started with it. */
  #watcher: Worker | null = null;
  #status: IndexStatus = { ...OFF, phase: "idle" };
  #next = 1;
  readonly #waiting = new Map<number, (message: FromIndex) => void>();
  readonly #persisted = new Map<number, (error: string) => void>();
  /** Early answers whose check has not come yet (FromIndex "checked"). */
  readonly #checks = new Map<number, (fresh: boolean) => void>();
  /** Queries waiting on the stat pass, told how far it is. */
  readonly #listeners = new Set<(done: number, total: number, message: string) => void>();
  #stopped = false;
  #last: IndexAnswer | null = null;
  #timer: number | null = null;
  #buildAsked = false;
  #wanted = false;
  /** start() is looking whether a stored index exists. */
  #deciding = false;
  #stored: Promise<boolean> | null = null;

  readonly #cache: CacheWriterHandle | null;
  /** Units of the session's work queue in use, shared with the worker (heavyWork). */
  readonly #busy = new Int32Array(new SharedArrayBuffer(4));

  /** `cache`: the writer of the cache folder (null: the index lives in memory only). */
  constructor(settings: IndexSettings, cache: CacheWriterHandle | null = null) {
    this.#settings = settings;
    this.#cache = cache;
  }

  /**
   * Starts the worker (after `delayMs`, so that it does not compete with the server's own start):
   * it walks the tree and builds at once, or waits for the first grep. A stored index is opened
   * at once whatever `delayMs`: its stat pass runs in the worker, and the first grep waits for
   * it rather than scanning everything. Without one (the first session on the root) the build
   * waits as without a cache, or until the first grep is done, so that the first grep's full
   * scan has the cores (and the main thread the time to start) to itself.
   */
  start(delayMs = 0): void {
    if (this.#worker !== null || this.#stopped || this.#timer !== null || this.#deciding) return;
    if (delayMs === 0) return this.#spawn();
    if (this.#cache === null) return this.#later(delayMs);
    this.#deciding = true;
    this.#storedIndex().then((stored) => {
      this.#deciding = false;
      if (this.#worker !== null || this.#stopped || this.#timer !== null) return;
      if (stored) this.#spawn();
      else this.#later(delayMs);
    });
  }

  /** Whether the cache holds a stored index of this root (asked once). */
  #storedIndex(): Promise<boolean> {
    const cache = this.#cache;
    if (cache === null) return Promise.resolve(false);
    const ws = this.#settings.ws;
    return this.#stored ??= hasStoredIndex(cache.dir, ws.root, ws).catch(() => true);
  }

  /**
   * Starts the worker after `delayMs`; while heavy work runs then (the first grep), a little
   * later, for at most START_HOLD_MS more: grepDone() starts it as soon as the grep is done.
   */
  #later(delayMs: number, held = 0): void {
    const timer = setTimeout(() => {
      this.#timer = null;
      if (Atomics.load(this.#busy, 0) > 0 && held < START_HOLD_MS) {
        this.#later(START_RECHECK_MS, held + START_RECHECK_MS);
      } else this.#spawn();
    }, delayMs) as unknown as number;
    Deno.unrefTimer(timer);
    this.#timer = timer;
  }

  #spawn(): void {
    if (this.#worker !== null || this.#stopped) return;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    const worker = startWorker(new URL("./worker/worker.ts", import.meta.url), "index worker");
    worker.onmessage = (event: MessageEvent<FromIndex>) => {
      const m = event.data;
      if (m.t === "state") {
        const was = this.#status.phase;
        this.#status = m.status;
        if (m.status.phase === "checking" && m.status.checked !== undefined) {
          for (const tell of this.#listeners) {
            tell(m.status.checked, m.status.files, "checking the stored index against the disk");
          }
        }
        if (m.status.phase === "waiting" && this.#wanted) this.#requestBuild();
        if (m.status.phase !== was) {
          log.debug(
            `index ${m.status.phase}: ${m.status.files} files, ${
              Math.round(m.status.bytes / 1048576)
            } MiB${m.status.note === "" ? "" : `; ${m.status.note}`}`,
          );
        }
        return;
      }
      if (m.t === "checked") {
        const done = this.#checks.get(m.id);
        this.#checks.delete(m.id);
        done?.(m.fresh);
        return;
      }
      if (m.t === "persisted") {
        const done = this.#persisted.get(m.id);
        this.#persisted.delete(m.id);
        done?.(m.error);
        return;
      }
      const resolve = this.#waiting.get(m.id);
      this.#waiting.delete(m.id);
      resolve?.(m);
    };
    worker.onerror = (event) => {
      event.preventDefault();
      log.warn(`The index worker failed (${event.message}); grep uses full scans`);
      this.#fail();
    };
    this.#worker = worker;
    const watch = this.#settings.watch ? this.#startWatcher() : null;
    const cache = this.#cache;
    const transfer: Transferable[] = [];
    if (watch !== null) transfer.push(watch);
    if (cache !== null) transfer.push(cache.port);
    worker.postMessage(
      {
        t: "open",
        settings: this.#settings,
        cache: cache === null ? null : { dir: cache.dir, port: cache.port },
        watch,
        busy: this.#busy,
      } satisfies ToIndex,
      transfer,
    );
  }

  /**
   * Starts the file watcher's worker from this thread (one started by the index worker took
   * about a second longer to start) and returns the port the index worker talks to it through.
   */
  #startWatcher(): MessagePort {
    const watcher = startWorker(
      new URL("./watch_worker.ts", import.meta.url),
      "index file watcher",
    );
    watcher.onerror = (event) => {
      event.preventDefault();
      this.#post({ t: "unwatched", why: `the file watcher failed (${event.message})` });
    };
    const channel = new MessageChannel();
    watcher.postMessage({ port: channel.port1 } satisfies WatchPort, [channel.port1]);
    this.#watcher = watcher;
    return channel.port2;
  }

  /** Tests: writes what is pending to the cache now; resolves once it is on disk. */
  persistNow(): Promise<void> {
    if (this.#worker === null) return Promise.resolve();
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#persisted.set(id, (error) => error === "" ? resolve() : reject(new Error(error)));
      this.#post({ t: "persist", id });
    });
  }

  /** What the index was started with. */
  get settings(): IndexSettings {
    return this.#settings;
  }

  /** The last state the worker reported. */
  get status(): IndexStatus {
    return this.#status;
  }

  /** The status as of now (a round trip to the worker). */
  async currentStatus(): Promise<IndexStatus> {
    if (this.#worker === null) return this.#status;
    const id = this.#next++;
    const m = await this.#ask(id, { t: "status", id });
    return m !== null && m.t === "status" ? m.status : this.#status;
  }

  /**
   * Candidate files for a grep, or null candidates for a full scan. Asking also starts a
   * deferred build (large trees build after their first grep).
   */
  /**
   * `progress` hears how far the stat pass of a stored index is while the query waits for it
   * (files compared with the disk, of about `total`).
   */
  /**
   * `early`: the index answers before it checks the folders in scope, and the answer's `fresh`
   * says later whether the candidates stand.
   */
  async candidates(
    query: IndexQuery,
    progress?: (done: number, total: number, message: string) => void,
    options: { early?: boolean } = {},
  ): Promise<IndexAnswer> {
    if (progress !== undefined) this.#listeners.add(progress);
    let answer: IndexAnswer;
    try {
      answer = await this.#candidates(query, options.early === true);
    } finally {
      if (progress !== undefined) this.#listeners.delete(progress);
    }
    this.#last = answer;
    const chosen = answer.candidates;
    log.debug(
      `grep /${query.source}/${query.flags}: ${
        chosen === null
          ? `full scan (${answer.why})`
          : `${chosen.files.length} files from the index`
      }`,
    );
    return answer;
  }

  /** The last answer (tests and logs: did the index choose the files, and if not why). */
  get lastAnswer(): IndexAnswer | null {
    return this.#last;
  }

  async #candidates(query: IndexQuery, early: boolean): Promise<IndexAnswer> {
    // A grep can come before the session's warm-up started the worker: with a stored index it
    // starts now (and the grep waits for its stat pass) rather than scanning everything.
    if (this.#worker === null && this.#cache !== null && !this.#stopped) {
      if (await this.#storedIndex()) this.#spawn();
    }
    const phase = this.#status.phase;
    // With a cache, a query made before the worker has said whether a stored index exists (or
    // during its stat pass) waits for the worker: the stored index answers it exactly.
    const waits = this.#cache !== null && (phase === "idle" || phase === "checking");
    if (this.#worker === null || (phase !== "ready" && !waits)) {
      return { candidates: null, why: `index ${phase}` };
    }
    const id = this.#next++;
    // Registered before the query goes: the check follows the answer, never precedes it.
    const fresh = early
      ? new Promise<boolean>((resolve) => this.#checks.set(id, resolve))
      : undefined;
    const m = await this.#ask(
      id,
      early ? { t: "query", id, query, early } : { t: "query", id, query },
    );
    if (m === null || m.t !== "answer") {
      this.#checks.get(id)?.(false);
      this.#checks.delete(id);
      return { candidates: null, why: "index stopped" };
    }
    if (m.checking !== true || fresh === undefined) {
      this.#checks.delete(id);
      return { candidates: m.candidates, why: m.why };
    }
    return { candidates: m.candidates, why: m.why, fresh };
  }

  /**
   * A grep has finished: a large tree's deferred build starts now (or once the worker knows the
   * tree is large). After the grep, not during it, so the two do not add up in memory and time.
   */
  grepDone(): void {
    this.#wanted = true;
    // The first session on the root: its build starts now rather than at the end of its delay.
    if (this.#timer !== null) this.#spawn();
    if (this.#status.phase === "waiting") this.#requestBuild();
  }

  /**
   * The session's work queue has `unitsInUse` units taken (a grep's scan, a parse, a git run):
   * while any are, the worker's build gives way to them (lib/index/worker/give_way.ts).
   */
  heavyWork(unitsInUse: number): void {
    Atomics.store(this.#busy, 0, unitsInUse);
  }

  /** The server changed these files (absolute or root-relative): seen by the next query. */
  touch(paths: string[]): void {
    if (paths.length > 0) this.#post({ t: "touch", paths });
  }

  /** Tests: simulate a watcher overflow / lost events. */
  simulate(what: "overflow" | "deafen"): void {
    this.#post({ t: what });
  }

  stop(): void {
    this.#stopped = true;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    this.#fail();
  }

  #fail(): void {
    this.#worker?.terminate();
    this.#worker = null;
    this.#watcher?.terminate();
    this.#watcher = null;
    this.#status = { ...OFF, note: this.#stopped ? "stopped" : "the index worker failed" };
    for (const resolve of this.#waiting.values()) resolve({ t: "status", id: 0, status: OFF });
    this.#waiting.clear();
    for (const done of this.#persisted.values()) done("the index stopped");
    this.#persisted.clear();
    for (const done of this.#checks.values()) done(false);
    this.#checks.clear();
  }

  #requestBuild(): void {
    if (this.#buildAsked) return;
    this.#buildAsked = true;
    this.#post({ t: "build" });
  }

  #post(message: ToIndex): void {
    this.#worker?.postMessage(message);
  }

  #ask(id: number, message: ToIndex): Promise<FromIndex | null> {
    if (this.#worker === null) return Promise.resolve(null);
    return new Promise((resolve) => {
      this.#waiting.set(id, resolve);
      this.#post(message);
    });
  }
}
