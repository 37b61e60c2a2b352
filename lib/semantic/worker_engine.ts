/**
 * The generic part of an engine that runs in a worker (docs/architecture.md "Engines"): the
 * worker is started on the first question, told of every file the server writes, and ended once
 * it has been idle for `idleMs` (5 minutes by default) so that its memory is returned. The main
 * thread never parses: while a program builds, pings and other tools are answered. An engine
 * folder gives its worker's URL, its words and its permissions (`WorkerEngineSpec`); its worker
 * answers the messages of protocol.ts (worker_host.ts runs that side).
 *
 * Questions wait here, in arrival order, and go to the worker one at a time, so that a worker
 * that must be stopped takes only its current question with it. Every question but diagnostics
 * has a time bound (`budgetMs`); diagnostics have none unless the question sets `timeoutMs`
 * (the worker then stops between files, a partial answer). A question still unanswered
 * `GRACE_MS` past its bound (an engine inside one long step that cannot be interrupted), or
 * cancelled and not stopped within `GRACE_MS`, has its worker terminated: the next question
 * starts a fresh one. A diagnostics question stopped by its limit or cancelled is answered with
 * the files checked so far, `stopped` saying why (a partial answer: never paged further). Cancellation reaches the worker through a SharedArrayBuffer: the
 * id of the cancelled question is stored in its first Int32 slot.
 *
 * In the shared daemon the worker and its programs serve every session (a question asked there
 * has an owner, lib/call_owner.ts): a question cancelled because its session cancelled it or
 * went away leaves the worker to finish the step it is in (a program build that the other
 * sessions' questions need, which TypeScript cannot interrupt), and the worker is terminated
 * only if it is still busy at the question's own time bound (`budgetMs` from its start; a
 * diagnostics question without a limit: `budgetMs` from the cancellation).
 */
import { currentOwner } from "../call_owner.ts";
import { log } from "../log.ts";
import type { Workspace } from "../workspace/workspace.ts";
import {
  type Answer,
  type AskOptions,
  type Diagnostic,
  type Engine,
  isNavigation,
  NAVIGATION_WORDS,
  type NavigationKind,
  type NavigationQuery,
  type Query,
  SemanticRefusal,
} from "./engine.ts";
import type { FromEngine, ToEngine, WorkerAnswer } from "./protocol.ts";
import { byDiagnostic } from "./diagnostic_order.ts";
import { startWorker, type WorkerNeeds } from "../worker_start.ts";

/** The session's settings every engine gets (the table's factories take them). */
export interface EngineOptions {
  /** The worker ends after this long without a question (default 5 minutes). */
  idleMs?: number;
  /** Files over this many bytes are left out of programs (the server's --max-read-bytes). */
  maxBytes?: number;
  /** The time bound of one question but diagnostics (default 20 s); see the module comment. */
  budgetMs?: number;
  /** The memory budget of the engine's programs in MiB (--semantic-max-mib; default 1536). */
  maxMib?: number;
}

/** What an engine folder gives to run in a worker. */
export interface WorkerEngineSpec {
  id: string;
  name: string;
  handles(path: string): boolean;
  /** The navigation questions its worker answers (engine.ts); others are refused here. */
  navigation?: readonly NavigationKind[];
  /** True when its worker reads a question's `overlay` (default false). */
  overlays?: boolean;
  /** The worker module (it answers protocol.ts's messages). */
  worker: URL;
  /** What the worker may do beyond reading (lib/worker_start.ts). */
  needs: WorkerNeeds;
  /** Sentences that name the engine's own causes and remedies. */
  words: {
    /** After "Stopped ... with M of T files checked: " (diagnostics cut by a limit or cancelled). */
    stopped: string;
    /** The refusal of another question cut by the bound after `seconds`. */
    overrun(seconds: number): string;
    /** Names the `count` files of a diagnostics scope left out on purpose, and why. */
    leftOut(count: number): string;
  };
}

/** One question, waiting or with the worker. */
interface Asked {
  id: number;
  query: Query | NavigationQuery;
  resolve: (answer: Answer) => void;
  reject: (error: Error) => void;
  progress?: (done: number, message: string) => void;
  /** Files a diagnostics question has checked so far, with their diagnostics. */
  checked: Diagnostic[];
  files: number;
  /** The scope of a diagnostics question, once the worker has walked it. */
  total: number;
  leftOut: number;
  /** Cancelled while with the worker: its answer is dropped. */
  cancelled: boolean;
  timers: number[];
  /** The session that asked, in the shared daemon (lib/call_owner.ts); undefined in one session. */
  owner: object | undefined;
  /** When the worker began it (performance.now()), or null before. */
  begunAt: number | null;
}

export const DEFAULT_IDLE_MS = 5 * 60 * 1000;
const DEFAULT_BUDGET_MS = 20_000;
const DEFAULT_MAX_MIB = 1536;
/** How long a worker may take to stop on its own (past the budget, or after a cancellation). */
export const GRACE_MS = 1500;

export class WorkerEngine implements Engine {
  readonly id: string;
  readonly name: string;
  readonly navigation: ReadonlySet<NavigationKind>;
  readonly overlays: boolean;
  readonly #spec: WorkerEngineSpec;
  readonly #idleMs: number;
  readonly #maxBytes: number;
  readonly #budgetMs: number;
  readonly #maxMib: number;
  #worker: Worker | null = null;
  #root: string | null = null;
  #cancel: Int32Array | null = null;
  #next = 1;
  /** Questions waiting for the worker, in arrival order. */
  #waiting: Array<{ ws: Workspace; asked: Asked }> = [];
  /** The question the worker has. */
  #current: Asked | null = null;
  #idleTimer: number | null = null;
  #started = 0;

  constructor(spec: WorkerEngineSpec, options: EngineOptions = {}) {
    this.#spec = spec;
    this.id = spec.id;
    this.name = spec.name;
    this.navigation = new Set(spec.navigation ?? []);
    this.overlays = spec.overlays === true;
    this.#idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
    this.#maxBytes = options.maxBytes ?? 10 * 1024 * 1024;
    this.#budgetMs = options.budgetMs ?? DEFAULT_BUDGET_MS;
    this.#maxMib = options.maxMib ?? DEFAULT_MAX_MIB;
  }

  handles(path: string): boolean {
    return this.#spec.handles(path);
  }

  /** How long the worker stays after its last question before it ends. */
  get idleMs(): number {
    return this.#idleMs;
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
  ask(ws: Workspace, query: Query | NavigationQuery, options: AskOptions): Promise<Answer> {
    options.signal.throwIfAborted();
    if (isNavigation(query) && !this.navigation.has(query.kind)) {
      return Promise.reject(
        new SemanticRefusal(
          `The ${this.name} engine does not answer ${NAVIGATION_WORDS[query.kind]}`,
        ),
      );
    }
    this.#clearIdle();
    return new Promise<Answer>((resolve, reject) => {
      const asked: Asked = {
        id: this.#next++,
        query,
        resolve: (answer) => {
          done();
          resolve(answer);
        },
        reject: (error) => {
          done();
          reject(error);
        },
        progress: options.progress,
        checked: [],
        files: 0,
        total: 0,
        leftOut: 0,
        cancelled: false,
        timers: [],
        owner: currentOwner(),
        begunAt: null,
      };
      const onAbort = () => this.#abort(asked, options.signal.reason);
      const done = () => {
        options.signal.removeEventListener("abort", onAbort);
        for (const timer of asked.timers) clearTimeout(timer);
      };
      options.signal.addEventListener("abort", onAbort, { once: true });
      this.#waiting.push({ ws, asked });
      this.#dispatch();
    });
  }

  /** The server wrote these root-relative files: the next question sees them. */
  touch(paths: string[], created: boolean): void {
    if (this.#worker !== null && paths.length > 0) {
      this.#post(this.#worker, { t: "touch", paths, created });
    }
  }

  /** Ends the worker; pending questions fail. Idempotent. */
  stop(): void {
    this.#clearIdle();
    const error = new Error(`The ${this.name} worker was stopped`);
    for (const { asked } of this.#waiting.splice(0)) asked.reject(error);
    this.#end(`The ${this.name} worker was stopped`);
  }

  /** Gives the oldest waiting question to the worker, if it has none. */
  #dispatch(): void {
    if (this.#current !== null) return;
    const next = this.#waiting.shift();
    if (next === undefined) {
      this.#armIdle();
      return;
    }
    const worker = this.#ensure(next.ws);
    const asked = next.asked;
    this.#current = asked;
    this.#post(worker, { t: "ask", id: asked.id, query: asked.query });
  }

  /** The worker began the question (its engine is loaded): its time bound starts. */
  #begun(asked: Asked): void {
    asked.begunAt = performance.now();
    const query = asked.query;
    const bound = query.kind !== "diagnostics" ? this.#budgetMs : query.timeoutMs;
    if (bound === undefined) return;
    const timer = setTimeout(() => this.#overrun(asked), bound + GRACE_MS);
    Deno.unrefTimer(timer);
    asked.timers.push(timer as unknown as number);
  }

  /**
   * A cancellation: a waiting question leaves; the worker's is stopped, by force if need be. A
   * diagnostics question is answered with the files checked so far, as a partial answer.
   */
  #abort(asked: Asked, reason: unknown): void {
    const at = this.#waiting.findIndex((w) => w.asked === asked);
    if (at >= 0) this.#waiting.splice(at, 1);
    else if (this.#current === asked) {
      // The worker stops at its next cancellation check; one that does not is terminated.
      asked.cancelled = true;
      if (this.#cancel !== null) Atomics.store(this.#cancel, 0, asked.id);
      const timer = setTimeout(() => {
        if (this.#current === asked) this.#restart("cancelled");
      }, this.#stopWait(asked));
      Deno.unrefTimer(timer);
    }
    if (asked.query.kind === "diagnostics") {
      asked.resolve(this.#partial(asked, "Cancelled"));
      return;
    }
    asked.reject(reason instanceof Error ? reason : new Error(String(reason)));
  }

  /**
   * How long a cancelled question's worker may take to stop on its own: GRACE_MS in one session;
   * in the shared daemon, what is left of the question's own bound (see the module comment).
   */
  #stopWait(asked: Asked): number {
    if (asked.owner === undefined) return GRACE_MS;
    const query = asked.query;
    const bound = query.kind !== "diagnostics" ? this.#budgetMs : query.timeoutMs;
    if (bound === undefined || asked.begunAt === null) return (bound ?? this.#budgetMs) + GRACE_MS;
    return Math.max(GRACE_MS, asked.begunAt + bound + GRACE_MS - performance.now());
  }

  /** The files a diagnostics question checked so far, with why it stopped. */
  #partial(asked: Asked, why: string): Answer {
    asked.checked.sort(byDiagnostic);
    const total = Math.max(asked.total, asked.files);
    return this.#named({
      kind: "diagnostics",
      diagnostics: asked.checked,
      files: asked.files,
      total,
      leftOut: asked.leftOut,
      stopped: `${why} with ${asked.files} of ${total} files checked: ${this.#spec.words.stopped}`,
    });
  }

  /** The worker's question ran past its bound: the worker is terminated. */
  #overrun(asked: Asked): void {
    if (this.#current !== asked) return;
    const seconds = Math.round(this.#budgetMs / 1000);
    const words = this.#spec.words;
    if (asked.query.kind === "diagnostics") {
      const limit = Math.round((asked.query.timeoutMs ?? 0) / 1000);
      asked.resolve(this.#partial(asked, `Stopped at the time limit (${limit} s)`));
    } else {
      asked.reject(
        new SemanticRefusal(words.overrun(seconds)),
      );
    }
    this.#restart("overrun");
  }

  /** Terminates the worker that holds the current question; the next question gets a new one. */
  #restart(why: string): void {
    log.debug(`${this.id} worker terminated (${why}); the next question starts a new one`);
    this.#current = null;
    this.#worker?.terminate();
    this.#worker = null;
    this.#root = null;
    this.#cancel = null;
    this.#dispatch();
  }

  #ensure(ws: Workspace): Worker {
    if (this.#worker !== null && this.#root === ws.root) return this.#worker;
    if (this.#worker !== null) this.#end("The workspace changed");
    const worker = startWorker(this.#spec.worker, `${this.id} worker`, this.#spec.needs);
    const buffer = new SharedArrayBuffer(4);
    this.#cancel = new Int32Array(buffer);
    worker.onmessage = (event: MessageEvent<FromEngine>) => this.#receive(event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      log.warn(`The ${this.id} worker failed (${event.message}); it restarts on the next call`);
      this.#end(`The ${this.id} worker failed: ${event.message}`);
      this.#dispatch();
    };
    this.#post(worker, {
      t: "open",
      settings: {
        ws: ws.options,
        maxBytes: this.#maxBytes,
        budgetMs: this.#budgetMs,
        maxMib: this.#maxMib,
      },
      cancel: buffer,
    });
    this.#worker = worker;
    this.#root = ws.root;
    this.#started++;
    return worker;
  }

  #receive(message: FromEngine): void {
    if (message.t === "ready") return;
    if (message.t === "log") {
      log[message.level](message.message);
      return;
    }
    const asked = this.#current;
    if (asked === null || asked.id !== message.id) return;
    if (message.t === "progress") {
      if (!asked.cancelled) asked.progress?.(message.done, message.message);
      return;
    }
    if (message.t === "begun") {
      this.#begun(asked);
      return;
    }
    if (message.t === "scope") {
      asked.total = message.total;
      asked.leftOut = message.leftOut;
      return;
    }
    if (message.t === "checked") {
      asked.checked.push(...message.diagnostics);
      asked.files++;
      return;
    }
    this.#current = null;
    if (message.t === "answer") asked.resolve(this.#named(message.answer));
    else if (message.t === "refused") asked.reject(new SemanticRefusal(message.message));
    else if (message.t === "cancelled") asked.reject(new Error("The request was cancelled"));
    else asked.reject(new Error(`The ${this.id} worker failed: ${message.message}`));
    this.#dispatch();
  }

  /** The worker's answer with this engine named on it (and its words for files left out). */
  #named(answer: WorkerAnswer): Answer {
    const named = { ...answer, engine: this.id } as Answer;
    if (named.kind === "diagnostics" && named.leftOut > 0) {
      named.leftOutNote = this.#spec.words.leftOut(named.leftOut);
    }
    return named;
  }

  #post(worker: Worker, message: ToEngine): void {
    worker.postMessage(message);
  }

  #armIdle(): void {
    if (this.#current !== null || this.#waiting.length > 0 || this.#worker === null) return;
    this.#clearIdle();
    const timer = setTimeout(() => {
      this.#idleTimer = null;
      if (this.#current === null && this.#waiting.length === 0) this.#end("idle");
    }, this.#idleMs);
    Deno.unrefTimer(timer);
    this.#idleTimer = timer as unknown as number;
  }

  #clearIdle(): void {
    if (this.#idleTimer !== null) clearTimeout(this.#idleTimer);
    this.#idleTimer = null;
  }

  /** Ends the worker; its current question fails with `reason`. */
  #end(reason: string): void {
    this.#worker?.terminate();
    this.#worker = null;
    this.#root = null;
    this.#cancel = null;
    const current = this.#current;
    this.#current = null;
    current?.reject(new Error(reason));
  }
}
