/**
 * The parser workers on the main thread. Workers start on first use (nothing of tree-sitter loads
 * before a symbol tool is called). Batches wait in one queue here and go to an idle worker, else to
 * a new one while there is room for it, else to the least busy, at most IN_FLIGHT at a time each,
 * so that a call over thousands of files never hands a worker more than its next two batches. Each
 * worker's WebAssembly heap (tree-sitter's memory, which never shrinks) is capped at `heapCapBytes`
 * (a tree that needs more fails its file) and reported after every batch with the worker's
 * JavaScript heap: a worker whose WebAssembly heap has grown to `heapRecycleBytes`, whose
 * JavaScript heap has grown to `v8RecycleBytes`, or that has parsed `recycleBytes` of source, is
 * retired: it gets no new batches (the queue's next ones go to its replacement) and is terminated
 * once its last batch is answered, so the heap is given back.
 */
import type { FromParser, ParsedFile, ParseRequest } from "./worker_protocol.ts";
import { startWorker } from "../worker_start.ts";

export interface ParserPoolOptions {
  /** Parallel parser workers (default 2). */
  workers?: number;
  /** Bytes parsed by one worker before it is replaced (default 128 MiB). */
  recycleBytes?: number;
  /** A worker whose WebAssembly heap has grown to this is replaced (default 64 MiB). */
  heapRecycleBytes?: number;
  /** The most a worker's WebAssembly heap may grow to (default 160 MiB, at least 32 MiB). */
  heapCapBytes?: number;
  /**
   * A worker whose JavaScript heap (V8's, with external memory) has grown to this is replaced
   * (default 64 MiB): the garbage of a large tree's symbols is given back with it.
   */
  v8RecycleBytes?: number;
}

interface Pending {
  resolve: (files: ParsedFile[]) => void;
  reject: (error: Error) => void;
  /** A warm-up (no files): a worker holding only these is idle. */
  warm: boolean;
}

/** A batch waiting for a worker. */
interface Queued extends Pending {
  id: number;
  request: Omit<ParseRequest, "t" | "id" | "heapCapBytes">;
  /** Parsed while no other batch is (ParseOptions `alone`). */
  alone: boolean;
}

/** tree-sitter's WebAssembly heap when it starts (parser_worker.ts). */
const INITIAL_HEAP_BYTES = 32 * 1024 * 1024;

/** Batches a worker holds at once: one parsing, one waiting in its inbox. */
const IN_FLIGHT = 2;

interface Slot {
  worker: Worker;
  ready: Promise<void>;
  pending: Map<number, Pending>;
  parsedBytes: number;
  /** The heap size the worker last reported. */
  heapBytes: number;
  /** Its JavaScript heap as last reported. */
  v8HeapBytes: number;
  retired: boolean;
  /** Workers started so far, for tests and the recycling count. */
  generation: number;
}

/** A worker with no batch of files: nothing, or only its warm-up. */
function isIdle(slot: Slot): boolean {
  for (const pending of slot.pending.values()) if (!pending.warm) return false;
  return true;
}

export class ParserPool {
  readonly #size: number;
  readonly #recycleBytes: number;
  readonly #heapRecycleBytes: number;
  readonly #heapCapBytes: number;
  readonly #v8RecycleBytes: number;
  #slots: Array<Slot | null>;
  #nextId = 1;
  #generations = 0;
  #retiring = new Set<Slot>();
  #parsedFiles = 0;
  readonly #queue: Queued[] = [];
  /** The batch that runs alone, while it runs. */
  #alone: number | null = null;

  constructor(options: ParserPoolOptions = {}) {
    this.#size = Math.max(1, options.workers ?? 2);
    this.#recycleBytes = options.recycleBytes ?? 128 * 1024 * 1024;
    this.#heapRecycleBytes = options.heapRecycleBytes ?? 64 * 1024 * 1024;
    this.#heapCapBytes = options.heapCapBytes ?? 160 * 1024 * 1024;
    this.#v8RecycleBytes = options.v8RecycleBytes ?? 64 * 1024 * 1024;
    this.#slots = new Array(this.#size).fill(null);
  }

  /** How many workers have been started in all (a recycled worker counts its replacement). */
  get started(): number {
    return this.#generations;
  }

  /** Files parsed in all (tests: tell a cache hit from a parse). */
  get parsedFiles(): number {
    return this.#parsedFiles;
  }

  /**
   * The WebAssembly heap the live workers hold, as they last reported it (retiring ones
   * included until they end).
   */
  get heapBytes(): number {
    let bytes = 0;
    for (const slot of this.#slots) if (slot !== null) bytes += slot.heapBytes;
    for (const slot of this.#retiring) bytes += slot.heapBytes;
    return bytes;
  }

  /**
   * Parses one batch of files on the least busy worker, once one has room for it. `alone` (a
   * batch with a file of megabytes, whose tree and symbols grow a worker's heaps the most): the
   * batch waits until no other is being parsed, the other idle workers are ended (their heaps
   * given back), and nothing else is parsed until it is done, so that two such heaps never add
   * up.
   */
  parse(
    request: Omit<ParseRequest, "t" | "id" | "heapCapBytes">,
    signal: AbortSignal,
    options: { alone?: boolean } = {},
  ): Promise<ParsedFile[]> {
    signal.throwIfAborted();
    const id = this.#nextId++;
    return new Promise<ParsedFile[]>((resolve, reject) => {
      const onAbort = () => {
        const waiting = this.#queue.findIndex((q) => q.id === id);
        if (waiting >= 0) this.#queue.splice(waiting, 1);
        else {
          // The batch runs on (a parse cannot be interrupted); its answer is dropped.
          const slot = this.#holder(id);
          if (slot !== null && slot.pending.delete(id)) this.#maybeRetire(slot);
          this.#dispatch();
        }
        reject(signal.reason);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.#queue.push({
        id,
        request,
        alone: options.alone === true,
        warm: request.warm === true,
        resolve: (files) => {
          signal.removeEventListener("abort", onAbort);
          resolve(files);
        },
        reject: (error) => {
          signal.removeEventListener("abort", onAbort);
          reject(error);
        },
      });
      this.#dispatch();
    });
  }

  /**
   * Starts one worker and its tree-sitter runtime now, unless one is live (a symbol call does
   * this before its candidate scan, so that its first parse does not wait for it). Only one: a
   * call whose candidates fit one batch (most of them) never needs a second, and each worker
   * costs its own isolate and WebAssembly heap; a call of several batches starts the second
   * when it has a batch for it. Nothing to wait for.
   */
  warm(ws: ParseRequest["ws"]): void {
    if (this.#slots.some((slot) => slot !== null && !slot.retired)) return;
    const signal = new AbortController().signal;
    this.parse({ ws, files: [], maxBytes: 0, warm: true }, signal).catch(() => {});
  }

  /** Terminates every worker; pending and queued batches fail. */
  stop(): void {
    for (let i = 0; i < this.#slots.length; i++) {
      const slot = this.#slots[i];
      if (slot !== null) this.#kill(slot, "The parser workers were stopped");
      this.#slots[i] = null;
    }
    for (const slot of this.#retiring) this.#kill(slot, "The parser workers were stopped");
    this.#retiring.clear();
    const error = new Error("The parser workers were stopped");
    for (const queued of this.#queue.splice(0)) queued.reject(error);
  }

  /** Hands queued batches to the least busy workers while one has room. */
  #dispatch(): void {
    while (this.#queue.length > 0 && this.#alone === null) {
      const alone = this.#queue[0].alone;
      if (alone && this.#busy()) return;
      const slot = alone ? this.#soleWorker() : this.#pick();
      if (slot.pending.size >= IN_FLIGHT) return;
      const queued = this.#queue.shift()!;
      if (alone) this.#alone = queued.id;
      slot.pending.set(queued.id, {
        resolve: queued.resolve,
        reject: queued.reject,
        warm: queued.warm,
      });
      const message: ParseRequest = {
        t: "parse",
        id: queued.id,
        ...queued.request,
        heapCapBytes: this.#heapCapBytes,
      };
      slot.ready.then(() => slot.worker.postMessage(message));
    }
  }

  /** Some worker, live or retiring, has a batch. */
  #busy(): boolean {
    for (const slot of this.#slots) if (slot !== null && slot.pending.size > 0) return true;
    return this.#retiring.size > 0;
  }

  /**
   * Ends the idle workers whose heaps have grown, when no batch waits: a call that grew them
   * (thousands of files, a header of megabytes) gives their memory back before its answer is
   * built. A worker whose WebAssembly heap is still its initial size and whose JavaScript heap
   * is under half its recycle size stays (a fresh worker costs a runtime start).
   */
  shed(): void {
    if (this.#queue.length > 0) return;
    this.#endGrownIdle(null);
  }

  /**
   * One idle worker for a batch that runs alone (a live one when there is one: batches that run
   * alone one after another keep to one worker); the other grown idle ones are ended.
   */
  #soleWorker(): Slot {
    let slot: Slot | null = null;
    for (const live of this.#slots) {
      if (live !== null && !live.retired && live.pending.size === 0) {
        if (
          slot === null || live.heapBytes + live.v8HeapBytes < slot.heapBytes + slot.v8HeapBytes
        ) {
          slot = live;
        }
      }
    }
    slot ??= this.#pick();
    this.#endGrownIdle(slot);
    return slot;
  }

  #endGrownIdle(except: Slot | null): void {
    for (let i = 0; i < this.#slots.length; i++) {
      const other = this.#slots[i];
      if (other === null || other === except || other.pending.size > 0) continue;
      if (other.heapBytes > INITIAL_HEAP_BYTES || other.v8HeapBytes >= this.#v8RecycleBytes / 2) {
        other.worker.terminate();
        this.#slots[i] = null;
      }
    }
  }

  /** The worker (live or retiring) a batch was given to. */
  #holder(id: number): Slot | null {
    for (const slot of this.#slots) if (slot?.pending.has(id)) return slot;
    for (const slot of this.#retiring) if (slot.pending.has(id)) return slot;
    return null;
  }

  /**
   * The worker for the next batch: an idle live one first (a fresh worker costs a runtime start
   * and an isolate), then a new one in a free place, then the least busy.
   */
  #pick(): Slot {
    for (let i = 0; i < this.#slots.length; i++) {
      if (this.#slots[i]?.retired) this.#slots[i] = null;
    }
    for (const slot of this.#slots) if (slot !== null && isIdle(slot)) return slot;
    const free = this.#slots.indexOf(null);
    if (free >= 0) return (this.#slots[free] = this.#spawn());
    let best = this.#slots[0]!;
    for (const slot of this.#slots) if (slot!.pending.size < best.pending.size) best = slot!;
    return best;
  }

  #spawn(): Slot {
    const worker = startWorker(new URL("./parser_worker.ts", import.meta.url), "parser worker");
    let ready!: () => void;
    const slot: Slot = {
      worker,
      ready: new Promise<void>((resolve) => (ready = resolve)),
      pending: new Map(),
      parsedBytes: 0,
      heapBytes: 0,
      v8HeapBytes: 0,
      retired: false,
      generation: ++this.#generations,
    };
    worker.onmessage = (event: MessageEvent<FromParser>) => {
      const message = event.data;
      if (message.t === "ready") {
        ready();
        return;
      }
      const pending = slot.pending.get(message.id);
      slot.pending.delete(message.id);
      if (message.id === this.#alone) this.#alone = null;
      if (message.t === "parsed") {
        slot.parsedBytes += message.bytes;
        slot.heapBytes = message.heapBytes;
        slot.v8HeapBytes = message.v8HeapBytes;
        this.#parsedFiles += message.files.length;
        if (
          message.broken || slot.parsedBytes >= this.#recycleBytes ||
          message.heapBytes >= this.#heapRecycleBytes ||
          message.v8HeapBytes >= this.#v8RecycleBytes
        ) {
          slot.retired = true;
        }
        pending?.resolve(message.files);
      } else pending?.reject(new Error(message.message));
      this.#maybeRetire(slot);
      this.#dispatch();
    };
    worker.onerror = (event) => {
      event.preventDefault();
      this.#kill(slot, `The parser worker failed: ${event.message}`);
      const at = this.#slots.indexOf(slot);
      if (at >= 0) this.#slots[at] = null;
      this.#retiring.delete(slot);
      this.#dispatch();
    };
    return slot;
  }

  #maybeRetire(slot: Slot): void {
    if (!slot.retired) return;
    const at = this.#slots.indexOf(slot);
    if (at >= 0) {
      this.#slots[at] = null;
      this.#retiring.add(slot);
    }
    if (slot.pending.size === 0) {
      this.#retiring.delete(slot);
      slot.worker.terminate();
    }
  }

  #kill(slot: Slot, reason: string): void {
    slot.worker.terminate();
    if (this.#alone !== null && slot.pending.has(this.#alone)) this.#alone = null;
    const error = new Error(reason);
    for (const pending of slot.pending.values()) pending.reject(error);
    slot.pending.clear();
  }
}
