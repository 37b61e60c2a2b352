/**
 * The language client of the Python worker: JSON-RPC messages to and from pyright's language
 * server running in the same worker. pyright started with `--node-ipc` reads messages from
 * `process` "message" events and writes them with `process.send` (a child process's IPC
 * channel); the worker gives its `process` both, so messages pass as objects, unframed, with no
 * pipe, port or child process. Server requests (configuration, capability registration,
 * progress tokens) are answered here; log messages and notifications go to `onNotification`.
 */
import process from "node:process";

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

interface Message {
  jsonrpc?: string;
  id?: number | string;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code: number; message: string };
}

/** An LSP error answer (e.g. a rename pyright refuses): its message is pyright's. */
export class LspError extends Error {
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.name = "LspError";
    this.code = code;
  }
}

/** LSP's RequestCancelled code. */
export const REQUEST_CANCELLED = -32800;

export class LspClient {
  #next = 1;
  readonly #pending = new Map<number, Pending>();
  readonly #backlog: Message[] = [];
  #flushing = false;
  /** Notifications from the server (`window/logMessage`, `$/progress`...). */
  onNotification: (method: string, params: unknown) => void = () => {};
  /** Answers the server's requests (`workspace/configuration`...); null by default. */
  onRequest: (method: string, params: unknown) => unknown = () => null;

  /** Gives the worker's `process` the IPC channel pyright's `--node-ipc` mode expects. */
  install(): void {
    const send = (message: Message, ...rest: unknown[]) => {
      queueMicrotask(() => this.#receive(message));
      const done = rest.find((r) => typeof r === "function") as ((e: null) => void) | undefined;
      if (done !== undefined) queueMicrotask(() => done(null));
      return true;
    };
    Object.defineProperty(process, "send", { value: send, configurable: true, writable: true });
    Object.defineProperty(process, "connected", { value: true, configurable: true });
  }

  /** Sends a request; `signal` cancels it (`$/cancelRequest`, then a rejection). */
  request<T>(method: string, params: unknown, signal?: AbortSignal): Promise<T> {
    const id = this.#next++;
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        this.notify("$/cancelRequest", { id });
        this.#pending.delete(id);
        reject(new LspError(REQUEST_CANCELLED, "The request was cancelled"));
      };
      this.#pending.set(id, {
        resolve: (value) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(value as T);
        },
        reject: (error) => {
          signal?.removeEventListener("abort", onAbort);
          reject(error);
        },
      });
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#deliver({ jsonrpc: "2.0", id, method, params });
    });
  }

  notify(method: string, params: unknown): void {
    this.#deliver({ jsonrpc: "2.0", method, params });
  }

  /** Every pending request fails (the server is gone). */
  failAll(error: Error): void {
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }

  /**
   * Hands a message to pyright. Until its connection listens (it starts listening a few turns
   * after it loads), messages wait in order.
   */
  #deliver(message: Message): void {
    this.#backlog.push(message);
    this.#flush();
  }

  #flush(): void {
    if (this.#flushing) return;
    this.#flushing = true;
    const emit = process.emit as unknown as (event: string, value: unknown) => boolean;
    const step = () => {
      if (process.listenerCount("message") === 0) {
        setTimeout(step, 5);
        return;
      }
      const next = this.#backlog.shift();
      if (next === undefined) {
        this.#flushing = false;
        return;
      }
      emit.call(process, "message", next);
      queueMicrotask(step);
    };
    queueMicrotask(step);
  }

  #receive(message: Message): void {
    if (message.method !== undefined && message.id !== undefined) {
      let result: unknown = null;
      try {
        result = this.onRequest(message.method, message.params);
      } catch {
        result = null;
      }
      this.#deliver({ jsonrpc: "2.0", id: message.id, result });
      return;
    }
    if (message.method !== undefined) {
      this.onNotification(message.method, message.params);
      return;
    }
    if (typeof message.id !== "number") return;
    const pending = this.#pending.get(message.id);
    if (pending === undefined) return;
    this.#pending.delete(message.id);
    if (message.error !== undefined) {
      pending.reject(new LspError(message.error.code, message.error.message));
    } else pending.resolve(message.result);
  }
}
