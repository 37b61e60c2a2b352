/**
 * The worker's side of a worker-backed engine (worker_engine.ts is the main thread's): the
 * message loop of protocol.ts, registered before any await (a message sent while the runtime
 * loads must not be lost). Questions run one at a time; the engine is loaded on the first one;
 * a SemanticRefusal becomes a refusal for the model, the engine's cancellation a cancelled
 * answer, anything else a failure.
 */
/// <reference lib="deno.worker" />
import {
  isNavigation,
  NAVIGATION_WORDS,
  type NavigationQuery,
  type Query,
  SemanticRefusal,
} from "./engine.ts";
import type { FromEngine, ToEngine, WorkerAnswer, WorkerSettings } from "./protocol.ts";

/** An engine's state once opened over a workspace. */
export interface EngineWorld {
  /** Answers question `id` (the cancellation flag holds `id` once it is cancelled). */
  answer(id: number, query: Query): WorkerAnswer | Promise<WorkerAnswer>;
  /** Answers a navigation question (absent: the engine answers none, each is refused). */
  navigate?(id: number, query: NavigationQuery): WorkerAnswer | Promise<WorkerAnswer>;
  /** The server wrote these root-relative files (`created`: new names). */
  touch(paths: readonly string[], created: boolean): void;
}

/** What an engine folder's worker gives the loop. */
export interface EngineHost {
  /** Progress words while the engine loads ("loading TypeScript"). */
  loading: string;
  /** Loads the engine and opens its state (on the first question). */
  open(settings: WorkerSettings, cancel: SharedArrayBuffer): Promise<EngineWorld>;
  /** True for the error the engine throws when the question was cancelled. */
  isCancellation(error: unknown): boolean;
}

/** Posts to the main thread. */
export function postToMain(message: FromEngine): void {
  self.postMessage(message);
}

/** The loop of one worker: one opening, then questions in arrival order. */
class HostLoop {
  readonly #host: EngineHost;
  #world: EngineWorld | null = null;
  #opening: { settings: WorkerSettings; cancel: SharedArrayBuffer } | null = null;
  #queue: Promise<void> = Promise.resolve();

  constructor(host: EngineHost) {
    this.#host = host;
  }

  receive(message: ToEngine): void {
    this.#queue = this.#queue.then(() => this.#handle(message));
  }

  #ask(
    world: EngineWorld,
    id: number,
    query: Query | NavigationQuery,
  ): WorkerAnswer | Promise<WorkerAnswer> {
    if (!isNavigation(query)) return world.answer(id, query);
    if (world.navigate === undefined) {
      throw new SemanticRefusal(`This engine does not answer ${NAVIGATION_WORDS[query.kind]}`);
    }
    return world.navigate(id, query);
  }

  async #handle(message: ToEngine): Promise<void> {
    if (message.t === "open") {
      this.#opening = { settings: message.settings, cancel: message.cancel };
      return;
    }
    if (message.t === "touch") {
      this.#world?.touch(message.paths, message.created);
      return;
    }
    const id = message.id;
    try {
      if (this.#world === null) {
        if (this.#opening === null) throw new Error("A question came before the engine opened");
        postToMain({ t: "progress", id, done: 0, message: this.#host.loading });
        this.#world = await this.#host.open(this.#opening.settings, this.#opening.cancel);
      }
      // Let events already queued (a watcher's) arrive first.
      await new Promise((resolve) => setTimeout(resolve, 0));
      postToMain({ t: "begun", id });
      postToMain({ t: "answer", id, answer: await this.#ask(this.#world, id, message.query) });
    } catch (error) {
      if (error instanceof SemanticRefusal) {
        postToMain({ t: "refused", id, message: error.message });
      } else if (this.#host.isCancellation(error)) postToMain({ t: "cancelled", id });
      else {
        const text = error instanceof Error ? error.message : String(error);
        postToMain({ t: "failed", id, message: text });
      }
    }
  }
}

/** Runs this worker's engine: call at the top of the worker module, before any await. */
export function hostEngine(host: EngineHost): void {
  const loop = new HostLoop(host);
  self.onmessage = (event: MessageEvent<ToEngine>) => loop.receive(event.data);
  postToMain({ t: "ready" });
}
