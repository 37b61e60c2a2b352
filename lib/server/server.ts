/**
 * The MCP session over one pair of byte streams: framing, envelope checks, the lifecycle gate,
 * the in-flight map, cancellation and progress. Knows nothing of Deno.stdin/stdout.
 */

import { encodeError, encodeResult } from "../jsonrpc/encode.ts";
import {
  INTERNAL_ERROR,
  INVALID_PARAMS,
  INVALID_REQUEST,
  METHOD_NOT_FOUND,
  PARSE_ERROR,
  RpcError,
} from "../jsonrpc/errors.ts";
import { type LineEvent, LineSplitter } from "../jsonrpc/line_reader.ts";
import { decodeMessage, type Id, idKey } from "../jsonrpc/message.ts";
import { log } from "../log.ts";
import type { MethodSpec, MethodTable, Params } from "./method.ts";
import { type ByteSink, Output } from "./output.ts";
import { noProgress, ProgressReporter, progressTokenOf } from "./progress.ts";

/** Where requests come from: Deno.stdin, or an in-memory source in tests. */
export interface ByteSource {
  /** Reads into `buffer`; resolves to the byte count, or null at the end of input. */
  read(buffer: Uint8Array): Promise<number | null>;
}

/** Bytes read from the input at a time. */
const READ_SIZE = 256 * 1024;
/**
 * Back-pressure (docs/protocol.md, "Requests in flight"): at most MAX_IN_FLIGHT requests run at
 * once; requests past that wait, in arrival order, among the held ones (still cancellable, and
 * notifications are still read and acted on). Reading stops while this much output waits for a
 * client that does not read, or while the held requests reach their bounds; it resumes once the
 * output is down to a quarter and the held requests are below their bounds.
 */
const OUTPUT_HIGH_CHARS = 8 * 1024 * 1024;
const MAX_IN_FLIGHT = 16;
const MAX_HELD = 1024;
const MAX_HELD_CHARS = 32 * 1024 * 1024;

export interface ServeOptions {
  /** The line cap: longer lines are answered `Request too large` and skipped. */
  maxMessageBytes: number;
  /** Runs once, right after the first `initialize` answer is queued (warm-up of lazy parts). */
  onInitialized?: () => void;
}

/** How serving ended: stdin reached its end, stdout closed under us, or shutdown() was called. */
export type ServeEnd = "eof" | "output-closed" | "shutdown";

interface InFlight {
  controller: AbortController;
  reporter: ProgressReporter | undefined;
}

/** A request waiting for a free in-flight slot (its envelope already checked). */
interface Held {
  id: Id;
  key: string;
  method: string;
  spec: MethodSpec;
  params: unknown;
  chars: number;
  /** Cancelled while waiting: skipped, never started, never answered. */
  dropped: boolean;
}

const NOT_INITIALIZED = new RpcError(INVALID_REQUEST, "Server not initialized");
const DUPLICATE_ID = new RpcError(INVALID_REQUEST, "Duplicate request id");
const TOO_LARGE = new RpcError(INVALID_REQUEST, "Request too large");
const METHOD_MISSING = new RpcError(METHOD_NOT_FOUND, "Method not found");
const INTERNAL = new RpcError(INTERNAL_ERROR, "Internal error");
const PARAMS_NOT_OBJECT = new RpcError(INVALID_PARAMS, "Invalid params: params must be an object");

export interface ServerOptions {
  /**
   * The rest of the method table (the features), loaded on first need: when a request names one
   * of `methods`, or right after the initialize answer. Lines that arrive meanwhile wait, in
   * arrival order, behind the first request that needed it.
   */
  later?: { methods: readonly string[]; load: () => Promise<MethodTable> };
}

export class Server {
  #methods: MethodTable;
  #load: (() => Promise<MethodTable>) | undefined;
  #later: ReadonlySet<string>;
  #loadFailed = false;
  #loading: Promise<void> | undefined;
  /** Lines held, in order, while the rest of the table loads. */
  #backlog: LineEvent[] | null = null;
  #initialized = false;
  #inFlight = new Map<string, InFlight>();
  #held: Held[] = [];
  #heldByKey = new Map<string, Held>();
  #heldChars = 0;
  /** A drain of the output is awaited before held requests start (see #startHeld). */
  #drainAwaited = false;
  #pending = new Set<Promise<void>>();
  #output: Output | undefined;
  #wake: () => void = () => {};
  #end: ServeEnd | undefined;
  #onInitialized: (() => void) | undefined;

  constructor(methods: MethodTable, options: ServerOptions = {}) {
    this.#methods = methods;
    this.#load = options.later?.load;
    this.#later = new Set(options.later?.methods ?? []);
  }

  /** Serves until input ends (then waits for in-flight answers), output closes, or shutdown. */
  async serve(input: ByteSource, output: ByteSink, options: ServeOptions): Promise<ServeEnd> {
    this.#onInitialized = options.onInitialized;
    this.#output = new Output(output, () => this.#stop("output-closed"));
    const splitter = new LineSplitter(options.maxMessageBytes);
    const stopped = new Promise<null>((resolve) => this.#wake = () => resolve(null));
    const buffer = new Uint8Array(READ_SIZE);
    while (this.#end === undefined) {
      let n: number | null;
      try {
        n = await Promise.race([input.read(buffer), stopped]);
      } catch (error) {
        log.debug(`input ended: ${String(error)}`);
        break;
      }
      if (n === null || this.#end !== undefined) break;
      // Every line of a chunk is dispatched before anything is written: instant answers to one
      // chunk leave together, in arrival order (unless the client stopped reading meanwhile).
      for (const event of splitter.push(buffer.subarray(0, n))) {
        if (this.#busy()) await this.#room();
        this.#handle(event);
      }
    }
    if (this.#end === undefined) {
      for (const event of splitter.end()) {
        if (this.#busy()) await this.#room();
        this.#handle(event);
      }
    }
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
    await this.#output.flush();
    return this.#end ?? "eof";
  }

  #busy(): boolean {
    return this.#output!.pendingChars > OUTPUT_HIGH_CHARS || this.#heldFull();
  }

  #heldFull(): boolean {
    return this.#heldByKey.size >= MAX_HELD || this.#heldChars >= MAX_HELD_CHARS;
  }

  /** Waits until the client has read most of what waits for it and the held requests have room. */
  async #room(): Promise<void> {
    while (this.#end === undefined && this.#busy()) {
      await this.#output!.below(OUTPUT_HIGH_CHARS / 4);
      if (this.#heldFull()) {
        await Promise.race([...this.#pending, new Promise((r) => setTimeout(r, 50))]);
      }
    }
  }

  /** Cancels in-flight work (its answers are dropped), stops reading, flushes what was queued. */
  async shutdown(): Promise<void> {
    this.#stop("shutdown");
    await this.#output?.flush();
  }

  #stop(end: ServeEnd): void {
    if (this.#end !== undefined) return;
    this.#end = end;
    for (const entry of this.#inFlight.values()) entry.controller.abort(new Error(end));
    this.#inFlight.clear();
    for (const held of this.#held) held.dropped = true;
    this.#held = [];
    this.#heldByKey.clear();
    this.#heldChars = 0;
    this.#wake();
  }

  #handle(event: LineEvent): void {
    if (this.#end !== undefined) return;
    if (this.#backlog !== null) {
      this.#backlog.push(event);
      return;
    }
    this.#handleNow(event);
  }

  #handleNow(event: LineEvent): void {
    if (this.#end !== undefined) return;
    if (event.kind === "too-long") this.#send(encodeError(null, TOO_LARGE));
    else this.#receive(event.text);
  }

  /** Starts loading the rest of the table (once); resolves when it is in place. */
  #loadRest(): Promise<void> {
    const load = this.#load;
    if (load === undefined) return Promise.resolve();
    this.#loading ??= load().then(
      (table) => {
        for (const name of this.#later) {
          if (!table.has(name)) throw new TypeError(`The loaded table lacks "${name}"`);
        }
        this.#methods = new Map([...this.#methods, ...table]);
      },
      (error) => {
        this.#loadFailed = true;
        log.error(
          `loading the server's features failed: ${error instanceof Error ? error.stack : error}`,
        );
      },
    ).finally(() => {
      this.#load = undefined;
    });
    return this.#loading;
  }

  /** Holds `event` and all lines after it until the rest of the table is loaded. */
  #hold(event: LineEvent): void {
    this.#backlog = [event];
    const released = this.#loadRest().then(async () => {
      const held = this.#backlog ?? [];
      // Lines that arrive while the held ones are released wait behind them, in order.
      for (let k = 0; k < held.length; k++) {
        if (this.#busy()) await this.#room();
        const line = held[k];
        if (k === held.length - 1) this.#backlog = null;
        this.#handleNow(line);
      }
    }).finally(() => this.#pending.delete(released));
    this.#pending.add(released);
  }

  #send(line: string): void {
    this.#output?.send(line);
  }

  #receive(text: string): void {
    const message = decodeMessage(text);
    switch (message.kind) {
      case "invalid":
        this.#send(encodeError(
          message.id,
          new RpcError(
            message.message === "Parse error" ? PARSE_ERROR : INVALID_REQUEST,
            message.message,
          ),
        ));
        return;
      case "response":
        return;
      case "notification":
        this.#notify(message.method, message.params);
        return;
      case "request":
        this.#request(message.id, message.method, message.params, text);
    }
  }

  #notify(method: unknown, params: unknown): void {
    if (method !== "notifications/cancelled") return;
    if (typeof params !== "object" || params === null) return;
    const id = (params as Record<string, unknown>).requestId;
    if (typeof id !== "string" && !(typeof id === "number" && Number.isInteger(id))) return;
    const key = idKey(id);
    const held = this.#heldByKey.get(key);
    if (held !== undefined) {
      // Never started: it leaves the line at once and is never answered.
      held.dropped = true;
      this.#heldByKey.delete(key);
      this.#heldChars -= held.chars;
      return;
    }
    const entry = this.#inFlight.get(key);
    if (entry === undefined) return;
    this.#inFlight.delete(key);
    entry.controller.abort(new Error("cancelled by the client"));
    this.#startHeld();
  }

  #request(id: Id, method: string, params: unknown, text: string): void {
    if (this.#load !== undefined && this.#later.has(method)) {
      return this.#hold({ kind: "line", text });
    }
    const key = idKey(id);
    if (this.#inFlight.has(key) || this.#heldByKey.has(key)) {
      return this.#send(encodeError(id, DUPLICATE_ID));
    }
    const spec = this.#methods.get(method);
    if (spec === undefined) {
      return this.#send(
        encodeError(id, this.#loadFailed && this.#later.has(method) ? INTERNAL : METHOD_MISSING),
      );
    }
    if (!this.#initialized && !spec.beforeInit) return this.#send(encodeError(id, NOT_INITIALIZED));
    if (
      !spec.anyParams && params !== undefined &&
      (typeof params !== "object" || params === null || Array.isArray(params))
    ) {
      return this.#send(encodeError(id, PARAMS_NOT_OBJECT));
    }
    if (
      spec.instant !== true && (this.#inFlight.size >= MAX_IN_FLIGHT || this.#heldByKey.size > 0)
    ) {
      const held: Held = { id, key, method, spec, params, chars: text.length, dropped: false };
      this.#held.push(held);
      this.#heldByKey.set(key, held);
      this.#heldChars += held.chars;
      return;
    }
    this.#start(id, key, method, spec, params);
  }

  /**
   * Starts held requests, in arrival order, while in-flight slots are free and the output is not
   * backed up: a client that does not read must not get more answers queued for it (each may be
   * megabytes), so while the output is over its mark the held requests wait for it to drain.
   */
  #startHeld(): void {
    if (this.#held.length > 0 && this.#output!.pendingChars > OUTPUT_HIGH_CHARS) {
      if (!this.#drainAwaited) {
        this.#drainAwaited = true;
        // Pending work like a request: EOF waits for the held requests to be answered.
        const drained: Promise<void> = this.#output!.below(OUTPUT_HIGH_CHARS / 4).then(() => {
          this.#drainAwaited = false;
          this.#pending.delete(drained);
          if (this.#end === undefined) this.#startHeld();
        });
        this.#pending.add(drained);
      }
      return;
    }
    while (this.#held.length > 0 && this.#inFlight.size < MAX_IN_FLIGHT) {
      const held = this.#held.shift()!;
      if (held.dropped) continue;
      this.#heldByKey.delete(held.key);
      this.#heldChars -= held.chars;
      this.#start(held.id, held.key, held.method, held.spec, held.params);
    }
    if (this.#held.length > 0 && this.#heldByKey.size === 0) this.#held = [];
  }

  #start(id: Id, key: string, method: string, spec: MethodSpec, params: unknown): void {
    const token = progressTokenOf(params);
    const reporter = token === undefined
      ? undefined
      : new ProgressReporter(token, (line) => this.#send(line));
    const controller = new AbortController();
    let answer: string | Promise<string>;
    try {
      answer = spec.handle(params as Params, {
        signal: controller.signal,
        progress: reporter?.report ?? noProgress,
      });
    } catch (error) {
      return this.#send(encodeError(id, this.#wireError(error, method)));
    }
    if (typeof answer === "string") {
      if (spec.opensSession === true) this.#opened();
      return this.#send(encodeResult(id, answer));
    }
    const entry: InFlight = { controller, reporter };
    this.#inFlight.set(key, entry);
    const done = answer.then(
      (result) => this.#settle(key, entry, encodeResult(id, result)),
      (error) => {
        if (!controller.signal.aborted) {
          this.#settle(key, entry, encodeError(id, this.#wireError(error, method)));
        } else entry.reporter?.finish();
      },
    ).finally(() => {
      this.#pending.delete(done);
      this.#startHeld();
    });
    this.#pending.add(done);
  }

  #opened(): void {
    if (this.#initialized) return;
    this.#initialized = true;
    const warm = this.#onInitialized;
    // Only once the initialize answer is written: loading compiles modules on this thread.
    queueMicrotask(() => {
      this.#output?.flush().then(() => setTimeout(() => this.#loadRest().then(() => warm?.()), 0));
    });
  }

  #settle(key: string, entry: InFlight, line: string): void {
    entry.reporter?.finish();
    if (entry.controller.signal.aborted) return;
    if (this.#inFlight.get(key) === entry) this.#inFlight.delete(key);
    this.#send(line);
  }

  #wireError(error: unknown, method: string): RpcError {
    if (error instanceof RpcError) return error;
    log.error(
      `${method} failed: ${
        error instanceof Error ? (error.stack ?? error.message) : String(error)
      }`,
    );
    return INTERNAL;
  }
}
