/**
 * The search pool on the main thread: two persistent workers, one job at a time (a job drives
 * both, so it takes every unit of the session's work queue), a watchdog that terminates a worker whose single-file scan runs past the regex timeout
 * (and replaces it), cancellation through the shared control block, and progress polling. Once a
 * job has settled, each idle worker whose JavaScript heap (as it last reported it) is over its
 * share is replaced too: the garbage of a large scan would otherwise sit in it for the session.
 */
import {
  CTL_BYTES,
  CTL_CUTOFF,
  CTL_INTS,
  CTL_JOB,
  CTL_SCANNED,
  CTL_SLOT,
  CTL_STAMP_OFFSET,
  type FromWorker,
  PHASE_REGEX,
  PHASE_WALK,
  type ToWorker,
} from "./protocol.ts";
import type { WorkQueue } from "../work_queue.ts";
import { startWorker } from "../worker_start.ts";
import { log } from "../log.ts";

export const WORKER_COUNT = 2;
const WATCH_MS = 50;

/**
 * How long the scans of a cancelled job get to end on their own (each worker checks the job
 * between files) before their worker is replaced: a replacement costs the next job 150-350 ms of
 * start-up, a scan that ends at its next file a few milliseconds. A runaway regex does not end
 * and is replaced when this has passed.
 */
const SETTLE_MS = 60;

/**
 * The JavaScript heap a search worker may keep between jobs (SearchPoolOptions `heapShareBytes`).
 * Measured on generated C trees: a fresh worker reports 9-10 MiB after its first batch, one that
 * has run tens of small greps stays at 10-20 MiB, and one that has scanned thousands of files
 * keeps 17-39 MiB (after a files-mode scan of the whole kernel tree, about 11 MiB each); content
 * greps with many hit lines leave 25 MiB to hundreds. The share sits above the routine figures,
 * so that an agent's run of ordinary greps never waits for a worker's start-up (60-110 ms for
 * two), and catches the heaps that hold a large answer's garbage.
 */
export const HEAP_SHARE_BYTES = 48 * 1024 * 1024;

export interface SearchPoolOptions {
  /**
   * Once a job has settled, an idle worker whose last reported JavaScript heap (V8's committed
   * heap with its external memory) is over this many bytes is replaced (default
   * HEAP_SHARE_BYTES).
   */
  heapShareBytes?: number;
}

/** Deadline of a read or a walk step that makes no progress (a FIFO swapped in, a stalled disk). */
export const STALL_MS = 10_000;

/**
 * A worker ran past a deadline and was replaced: a regex scan of one chunk of `file` past the
 * regex timeout, reading `file` past STALL_MS, or a walk step past STALL_MS.
 */
export class ScanTimeoutError extends Error {
  readonly file: string;
  readonly phase: "read" | "regex" | "walk";
  readonly ms: number;
  constructor(file: string, phase: "read" | "regex" | "walk" = "regex", ms = 0) {
    super(`Scan of "${file}" timed out`);
    this.name = "ScanTimeoutError";
    this.file = file;
    this.phase = phase;
    this.ms = ms;
  }
}

/** The job was cancelled (its signal aborted). */
export class JobAbortedError extends Error {
  constructor() {
    super("The search was cancelled");
    this.name = "JobAbortedError";
  }
}

export interface JobContext {
  signal: AbortSignal;
  progress: (scanned: number) => void;
  timeoutMs: number;
  /** The file a slot was scanning, from its batch and index (for timeout messages). */
  fileOf?: (batch: number, index: number) => string | undefined;
}

/** What a job does with the workers; `finish`/`fail` settle it. */
export interface JobDriver<T> {
  start(job: Job<T>): void;
  onMessage(job: Job<T>, slot: number, message: FromWorker): void;
}

export interface Job<T> {
  readonly id: number;
  readonly slots: number;
  post(slot: number, message: ToWorker): void;
  finish(value: T): void;
  fail(error: Error): void;
  /** Batches above `batch` report counts only. */
  setCutoff(batch: number): void;
}

interface Slot {
  worker: Worker;
  /** Its JavaScript heap as it last reported it (FromWorker `heap`); 0 before its first report. */
  heap: number;
  /** Resolves when the worker is up: null, or why it could not start (STOPPED if killed first). */
  ready: Promise<string | null>;
  /** Terminates the worker; a pending `ready` settles with STOPPED. */
  kill(): void;
}

const STOPPED = "stopped";

/** Bytes in MiB with one decimal, for the log. */
function mib(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(1);
}

export class SearchPool {
  readonly #control = new SharedArrayBuffer(CTL_BYTES);
  readonly #ints = new Int32Array(this.#control, 0, CTL_INTS);
  readonly #stamps = new Float64Array(this.#control, CTL_STAMP_OFFSET);
  #slots: Slot[] = [];
  #nextJob = 1;
  readonly #queue: WorkQueue;
  #onMessage: ((slot: number, message: FromWorker) => void) | null = null;
  #watchdog: number | null = null;
  #timeoutMs = 2000;
  #onTimeout: ((slot: number, phase: number) => void) | null = null;
  /** Workers of a cancelled job still inside a scan are being waited for (see #stopBusy). */
  #settling: Promise<void> | null = null;
  /** Bumped by stop(): a settling that began before it replaces no worker. */
  #generation = 0;
  #spawned = 0;
  #recycled = 0;
  readonly #heapShare: number;

  /** `queue` is the session's one queue for heavy work: each job holds all of it while it runs. */
  constructor(queue: WorkQueue, options: SearchPoolOptions = {}) {
    this.#queue = queue;
    this.#heapShare = options.heapShareBytes ?? HEAP_SHARE_BYTES;
  }

  /** Workers started so far (the first two, and every replacement). */
  get spawned(): number {
    return this.#spawned;
  }

  /** Workers replaced after a job because their heap was over its share. */
  get recycled(): number {
    return this.#recycled;
  }

  /** The JavaScript heap each live worker last reported, in bytes (0 before its first report). */
  get heaps(): number[] {
    return this.#slots.map((slot) => slot.heap);
  }

  /** Starts the workers (idempotent). */
  warm(): void {
    if (this.#slots.length > 0) return;
    for (let i = 0; i < WORKER_COUNT; i++) this.#slots.push(this.#spawn(i));
    if (this.#watchdog === null) {
      const id = setInterval(() => this.#watch(), WATCH_MS) as unknown as number;
      Deno.unrefTimer(id);
      this.#watchdog = id;
    }
  }

  /**
   * Tells every worker to drop its cached workspaces and folder listings (a file was written);
   * messages run in order, so every later job sees the change.
   */
  forget(): void {
    for (const slot of this.#slots) slot.worker.postMessage({ t: "forget" } satisfies ToWorker);
  }

  /** Terminates every worker (the server calls this on shutdown; they keep the process alive). */
  stop(): void {
    Atomics.store(this.#ints, CTL_JOB, 0);
    this.#generation++;
    this.#settling = null;
    for (const slot of this.#slots) slot.kill();
    this.#slots = [];
    if (this.#watchdog !== null) clearInterval(this.#watchdog);
    this.#watchdog = null;
  }

  #spawn(index: number): Slot {
    const worker = startWorker(new URL("./worker.ts", import.meta.url), "search worker");
    this.#spawned++;
    let started = false;
    let settleReady!: (error: string | null) => void;
    const ready = new Promise<string | null>((resolve) => (settleReady = resolve));
    const kill = () => {
      worker.terminate();
      settleReady(STOPPED);
    };
    const slot: Slot = { worker, heap: 0, ready, kill };
    worker.onmessage = (event: MessageEvent<FromWorker>) => {
      const message = event.data;
      if (message.t === "ready") {
        started = true;
        settleReady(null);
        return;
      }
      if ("heap" in message) slot.heap = message.heap;
      this.#onMessage?.(index, message);
    };
    worker.onerror = (event) => {
      event.preventDefault();
      const message = `A search worker failed: ${event.message}`;
      if (!started) {
        // The module did not load: report it to every job instead of respawning in a loop.
        settleReady(message);
        return;
      }
      this.#onMessage?.(index, { t: "failed", job: -1, message });
      if (this.#slots[index] === slot) this.#replace(index);
    };
    this.#stamps[index] = 0;
    worker.postMessage({ t: "init", control: this.#control, slot: index } satisfies ToWorker);
    return slot;
  }

  /** Terminates the worker at `index` and starts another in its place (with no caches). */
  #replace(index: number): void {
    this.#slots[index].kill();
    this.#slots[index] = this.#spawn(index);
  }

  /**
   * Replaces each worker whose last reported heap is over its share and that is idle: a worker
   * still inside a scan of a cancelled job is left to #stopBusy, which calls this again when it
   * is done. A replacement reports no heap before its first unit of work, so none is replaced
   * twice.
   */
  #recycle(): void {
    for (let i = 0; i < this.#slots.length; i++) {
      const heap = this.#slots[i].heap;
      if (heap <= this.#heapShare || this.#stamps[i] > 0) continue;
      log.debug(
        `Replacing search worker ${i}: its JavaScript heap is ${mib(heap)} MiB, over its share ` +
          `of ${mib(this.#heapShare)} MiB`,
      );
      this.#replace(i);
      this.#recycled++;
    }
  }

  /**
   * After a cancellation: the workers still inside a file scan get SETTLE_MS to notice and stop
   * (checked every few milliseconds); those still busy then are replaced. The next job waits for
   * this (it would otherwise queue behind the old scans), so a cancellation never waits longer.
   */
  #stopBusy(): void {
    if (this.#settling !== null) return;
    if (!this.#slots.some((_, i) => this.#stamps[i] > 0)) {
      this.#recycle();
      return;
    }
    const generation = this.#generation;
    const started = Date.now();
    this.#settling = new Promise<void>((resolve) => {
      const check = () => {
        if (generation !== this.#generation) return resolve();
        const busy = this.#slots.map((_, i) => i).filter((i) => this.#stamps[i] > 0);
        if (busy.length > 0 && Date.now() - started < SETTLE_MS) {
          setTimeout(check, 4);
          return;
        }
        for (const i of busy) this.#replace(i);
        this.#recycle();
        this.#settling = null;
        resolve();
      };
      setTimeout(check, 1);
    });
  }

  #watch(): void {
    const now = Date.now();
    for (let i = 0; i < this.#slots.length; i++) {
      const stamp = this.#stamps[i];
      const phase = this.#ints[CTL_SLOT + 4 * i + 3];
      const limit = phase === PHASE_REGEX ? this.#timeoutMs : Math.max(STALL_MS, this.#timeoutMs);
      if (stamp > 0 && now - stamp > limit) {
        this.#replace(i);
        if (this.#onTimeout !== null) this.#onTimeout(i, phase);
      }
    }
  }

  /** Runs one job with exclusive use of the workers, once the work queue grants it. */
  async run<T>(driver: JobDriver<T>, ctx: JobContext): Promise<T> {
    let release: () => void;
    try {
      release = await this.#queue.acquire(ctx.signal, "all");
    } catch {
      throw new JobAbortedError(); // cancelled while waiting: it never ran
    }
    try {
      return await this.#run(driver, ctx);
    } finally {
      release();
    }
  }

  async #run<T>(driver: JobDriver<T>, ctx: JobContext): Promise<T> {
    for (let attempt = 0;; attempt++) {
      if (this.#settling !== null) await this.#settling;
      if (ctx.signal.aborted) throw new JobAbortedError();
      this.warm();
      const problems = (await Promise.all(this.#slots.map((s) => s.ready))).filter((p) => p);
      if (problems.length === 0) break;
      const failure = problems.find((p) => p !== STOPPED);
      if (failure !== undefined || attempt >= 3) {
        // Try fresh workers next time (the cause may have been transient).
        this.stop();
        throw new Error(failure ?? "The search workers were stopped; try again");
      }
      // Workers stopped while starting (a cancellation or shutdown): start over.
    }
    const id = this.#nextJob++;
    const ints = this.#ints;
    Atomics.store(ints, CTL_JOB, id);
    Atomics.store(ints, CTL_CUTOFF, 0x7fffffff);
    Atomics.store(ints, CTL_SCANNED, 0);
    this.#timeoutMs = ctx.timeoutMs;
    return await new Promise<T>((resolve, reject) => {
      let done = false;
      /** Set by a cancellation, whose settling (#stopBusy) replaces the grown workers instead. */
      let cancelled = false;
      const progressTimer = setInterval(() => ctx.progress(Atomics.load(ints, CTL_SCANNED)), 100);
      const settle = () => {
        done = true;
        Atomics.store(ints, CTL_JOB, 0);
        clearInterval(progressTimer);
        ctx.signal.removeEventListener("abort", onAbort);
        this.#onMessage = null;
        this.#onTimeout = null;
        if (!cancelled) this.#recycle();
      };
      const job: Job<T> = {
        id,
        slots: this.#slots.length,
        post: (slot, message) => this.#slots[slot].worker.postMessage(message),
        finish: (value) => {
          if (done) return;
          ctx.progress(Atomics.load(ints, CTL_SCANNED));
          settle();
          resolve(value);
        },
        fail: (error) => {
          if (done) return;
          settle();
          reject(error);
        },
        setCutoff: (batch) => Atomics.store(ints, CTL_CUTOFF, batch),
      };
      const onAbort = () => {
        cancelled = true;
        job.fail(new JobAbortedError());
        this.#stopBusy();
      };
      ctx.signal.addEventListener("abort", onAbort);
      if (ctx.signal.aborted) {
        onAbort();
        return;
      }
      this.#onMessage = (slot, message) => {
        if (done) return;
        if (message.t === "failed") {
          const failure = new Error(message.message);
          if (message.code !== undefined) Object.assign(failure, { code: message.code });
          job.fail(failure);
          return;
        }
        if ("job" in message && message.job !== id) return;
        try {
          driver.onMessage(job, slot, message);
        } catch (error) {
          job.fail(error instanceof Error ? error : new Error(String(error)));
        }
      };
      this.#onTimeout = (slot, phase) => {
        const base = CTL_SLOT + 4 * slot;
        const file = ints[base] === id
          ? ctx.fileOf?.(ints[base + 1], ints[base + 2]) ?? "(unknown file)"
          : "(a file of a cancelled search)";
        job.fail(
          new ScanTimeoutError(
            file,
            phase === PHASE_REGEX ? "regex" : phase === PHASE_WALK ? "walk" : "read",
            phase === PHASE_REGEX ? ctx.timeoutMs : Math.max(STALL_MS, ctx.timeoutMs),
          ),
        );
      };
      try {
        driver.start(job);
      } catch (error) {
        job.fail(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }
}
