/**
 * The semantic service of a session (main thread): one worker running TypeScript's language
 * service (worker.ts), started on the first question, told of every file the server writes, and
 * ended once it has been idle for `idleMs` (5 minutes by default) so that its memory is returned.
 * The main thread never parses: while a program builds, pings and other tools are answered.
 */
import { log } from "../log.ts";
import type { Workspace } from "../workspace/workspace.ts";
import type { Answer, FromSemantic, Query, ToSemantic } from "./protocol.ts";

export type { Answer, Query };

export interface SemanticOptions {
  /** The worker ends after this long without a question (default 5 minutes). */
  idleMs?: number;
  /** Files over this many bytes are left out of programs (the server's --max-read-bytes). */
  maxBytes?: number;
}

export interface AskOptions {
  signal: AbortSignal;
  progress?: (done: number, message: string) => void;
}

/** A question the worker would not answer: the text says why (the tool's isError). */
export class SemanticRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SemanticRefusal";
  }
}

interface Pending {
  resolve: (answer: Answer) => void;
  reject: (error: Error) => void;
  progress?: (done: number, message: string) => void;
}

const DEFAULT_IDLE_MS = 5 * 60 * 1000;

export class SemanticService {
  readonly #idleMs: number;
  readonly #maxBytes: number;
  #worker: Worker | null = null;
  #root: string | null = null;
  #cancel: Int32Array | null = null;
  #next = 1;
  readonly #pending = new Map<number, Pending>();
  #idleTimer: number | null = null;
  #started = 0;

  constructor(options: SemanticOptions = {}) {
    this.#idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
    this.#maxBytes = options.maxBytes ?? 10 * 1024 * 1024;
  }

  /** True while the worker runs (tests: it ends when idle). */
  get running(): boolean {
    return this.#worker !== null;
  }

  /** Workers started so far. */
  get started(): number {
    return this.#started;
  }

  /** Asks the worker (started now if need be); rejects with SemanticRefusal for the model. */
  ask(ws: Workspace, query: Query, options: AskOptions): Promise<Answer> {
    options.signal.throwIfAborted();
    const worker = this.#ensure(ws);
    this.#clearIdle();
    const id = this.#next++;
    return new Promise<Answer>((resolve, reject) => {
      const onAbort = () => {
        // The worker stops at its next cancellation check; the answer is dropped.
        if (this.#cancel !== null) Atomics.store(this.#cancel, 0, id);
        reject(options.signal.reason);
      };
      options.signal.addEventListener("abort", onAbort, { once: true });
      const done = () => {
        options.signal.removeEventListener("abort", onAbort);
        this.#armIdle();
      };
      this.#pending.set(id, {
        resolve: (answer) => {
          done();
          resolve(answer);
        },
        reject: (error) => {
          done();
          reject(error);
        },
        progress: options.progress,
      });
      this.#post(worker, { t: "ask", id, query });
    });
  }

  /** The server wrote these root-relative files: the next question sees them. */
  touch(paths: string[], created = false): void {
    if (this.#worker !== null && paths.length > 0) {
      this.#post(this.#worker, { t: "touch", paths, created });
    }
  }

  /** Ends the worker; pending questions fail. Idempotent. */
  stop(): void {
    this.#clearIdle();
    this.#end("The semantic worker was stopped");
  }

  #ensure(ws: Workspace): Worker {
    if (this.#worker !== null && this.#root === ws.root) return this.#worker;
    if (this.#worker !== null) this.#end("The workspace changed");
    const worker = new Worker(new URL("./worker.ts", import.meta.url).href, { type: "module" });
    const buffer = new SharedArrayBuffer(4);
    this.#cancel = new Int32Array(buffer);
    worker.onmessage = (event: MessageEvent<FromSemantic>) => this.#receive(event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      log.warn(`The semantic worker failed (${event.message}); it restarts on the next call`);
      this.#end(`The semantic worker failed: ${event.message}`);
    };
    this.#post(worker, {
      t: "open",
      settings: { ws: ws.options, maxBytes: this.#maxBytes },
      cancel: buffer,
    });
    this.#worker = worker;
    this.#root = ws.root;
    this.#started++;
    return worker;
  }

  #receive(message: FromSemantic): void {
    if (message.t === "ready") return;
    if (message.t === "log") {
      log[message.level](message.message);
      return;
    }
    const pending = this.#pending.get(message.id);
    if (pending === undefined) return;
    if (message.t === "progress") {
      pending.progress?.(message.done, message.message);
      return;
    }
    this.#pending.delete(message.id);
    if (message.t === "answer") pending.resolve(message.answer);
    else if (message.t === "refused") pending.reject(new SemanticRefusal(message.message));
    else if (message.t === "cancelled") pending.reject(new Error("The request was cancelled"));
    else pending.reject(new Error(`The semantic worker failed: ${message.message}`));
  }

  #post(worker: Worker, message: ToSemantic): void {
    worker.postMessage(message);
  }

  #armIdle(): void {
    if (this.#pending.size > 0 || this.#worker === null) return;
    this.#clearIdle();
    const timer = setTimeout(() => {
      this.#idleTimer = null;
      if (this.#pending.size === 0) this.#end("idle");
    }, this.#idleMs);
    Deno.unrefTimer(timer);
    this.#idleTimer = timer as unknown as number;
  }

  #clearIdle(): void {
    if (this.#idleTimer !== null) clearTimeout(this.#idleTimer);
    this.#idleTimer = null;
  }

  #end(reason: string): void {
    this.#worker?.terminate();
    this.#worker = null;
    this.#root = null;
    this.#cancel = null;
    const error = new Error(reason);
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }
}
