/**
 * The MCP session over one pair of byte streams: framing, envelope checks, the lifecycle gate,
 * the in-flight map, cancellation and progress. Knows nothing of Deno.stdin/stdout.
 */

import { encodeError, encodeResult, encodeResultBytes } from "../jsonrpc/encode.ts";
import { JsonBytes } from "../jsonrpc/json_bytes.ts";
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
import { type ByteSink, type OutLine, Output } from "./output.ts";
import { noProgress, ProgressReporter, progressTokenOf } from "./progress.ts";
import { WaitLine } from "./wait_line.ts";

/** Where requests come from: Deno.stdin, or an in-memory source in tests. */
export interface ByteSource {
  /** Reads into `buffer`; resolves to the byte count, or null at the end of input. */
  read(buffer: Uint8Array): Promise<number | null>;
}

/** Bytes read from the input at a time. */
const READ_SIZE = 256 * 1024;
/**
 * Back-pressure (docs/protocol.md, "Requests in flight"): at most MAX_IN_FLIGHT requests run at
 * once; requests past that are held, in arrival order. While more than OUTPUT_HIGH_CHARS of
 * output waits for a client that does not read, nothing new starts: held requests stay held,
 * and every line read that would be answered (requests, and lines answered with an error) is
 * deferred, in arrival order, until the output is back under the mark. Notifications are still
 * read and acted on at once, so a cancellation reaches a request wherever it waits. Reading
 * itself stops only while the held and deferred lines together reach MAX_HELD lines or
 * MAX_HELD_CHARS of text, and goes on as soon as they are under both again.
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
  /** Lines wait while a request that needs the rest of the table waits for it to load. */
  #waitingForLoad = false;
  #initialized = false;
  #inFlight = new Map<string, InFlight>();
  /** Requests past the in-flight limit, in arrival order. */
  #held = new WaitLine<Held>();
  /** Lines read but not yet handled (the output is backed up, or the table loads), in order. */
  #deferred = new WaitLine<LineEvent>();
  /** A drain of the output is awaited before waiting work goes on (see #pump). */
  #drainAwaited = false;
  /** #pump is running (it is not re-entered). */
  #pumping = false;
  /** The reader, waiting for room among the held and deferred lines. */
  #roomWaiters: Array<() => void> = [];
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
        if (this.#full()) await this.#room();
        this.#handle(event);
      }
    }
    if (this.#end === undefined) {
      for (const event of splitter.end()) {
        if (this.#full()) await this.#room();
        this.#handle(event);
      }
    }
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
    await this.#output.flush();
    return this.#end ?? "eof";
  }

  /** The held and deferred lines reach their bounds: reading waits. */
  #full(): boolean {
    return this.#held.size + this.#deferred.size >= MAX_HELD ||
      this.#held.chars + this.#deferred.chars >= MAX_HELD_CHARS;
  }

  /** Waits until the held and deferred lines have room (or serving ends). */
  async #room(): Promise<void> {
    while (this.#end === undefined && this.#full()) {
      await new Promise<void>((resolve) => this.#roomWaiters.push(resolve));
    }
  }

  #wakeReader(): void {
    if (this.#roomWaiters.length === 0 || (this.#end === undefined && this.#full())) return;
    for (const wake of this.#roomWaiters.splice(0)) wake();
  }

  /** More output waits for the client than its mark: nothing new starts. */
  #backedUp(): boolean {
    return this.#output!.pendingChars > OUTPUT_HIGH_CHARS;
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
    this.#held.clear();
    this.#deferred.clear();
    this.#wake();
    this.#wakeReader();
  }

  /**
   * A line just read: handled now, or deferred behind the lines that already wait (in order)
   * while the output is backed up or the table loads. A deferred line that is a notification is
   * acted on at once (it is never answered, so it needs no room in the output): a cancellation
   * must not wait behind the very answers it is meant to stop.
   */
  #handle(event: LineEvent): void {
    if (this.#end !== undefined) return;
    if (this.#deferred.size === 0 && !this.#waitingForLoad && !this.#backedUp()) {
      this.#handleNow(event);
      return;
    }
    if (event.kind === "line") {
      const message = decodeMessage(event.text);
      if (message.kind === "notification") {
        this.#notify(message.method, message.params);
        return;
      }
      if (message.kind === "response") return;
      const key = message.kind === "request" ? idKey(message.id) : undefined;
      this.#deferred.push(event, key, event.text.length);
    } else {
      this.#deferred.push(event, undefined, 0);
    }
    this.#pump();
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

  /** Defers `text` (a request) ahead of every line after it until the rest of the table is loaded. */
  #hold(text: string, key: string): void {
    this.#deferred.unshift({ kind: "line", text }, key, text.length);
    if (this.#waitingForLoad) return;
    this.#waitingForLoad = true;
    const released = this.#loadRest().then(() => {
      this.#waitingForLoad = false;
      this.#pending.delete(released);
      this.#pump();
    });
    this.#pending.add(released);
  }

  /**
   * Goes on with waiting work, oldest first, while the output is under its mark: held requests
   * while in-flight slots are free, then deferred lines (a deferred request past the limit joins
   * the held ones, behind them). While the output is over its mark, a drain of it is awaited as
   * pending work (EOF still answers everything that waits) and the pump runs again after it.
   */
  #pump(): void {
    if (this.#pumping || this.#end !== undefined) return;
    this.#pumping = true;
    try {
      while (this.#end === undefined && (this.#held.size > 0 || this.#deferred.size > 0)) {
        if (this.#backedUp()) {
          this.#awaitDrain();
          break;
        }
        if (this.#held.size > 0 && this.#inFlight.size < MAX_IN_FLIGHT) {
          const held = this.#held.shift()!;
          this.#start(held.id, held.key, held.method, held.spec, held.params);
          continue;
        }
        if (this.#waitingForLoad) break;
        const event = this.#deferred.shift();
        if (event === undefined) break;
        this.#handleNow(event);
        // A request past the in-flight limit is now held; nothing further can start until a
        // slot frees, but instant lines behind it still can.
      }
    } finally {
      this.#pumping = false;
    }
    this.#wakeReader();
  }

  #awaitDrain(): void {
    if (this.#drainAwaited) return;
    this.#drainAwaited = true;
    const drained: Promise<void> = this.#output!.below(OUTPUT_HIGH_CHARS).then(() => {
      this.#drainAwaited = false;
      this.#pending.delete(drained);
      this.#pump();
    });
    this.#pending.add(drained);
  }

  #send(line: OutLine, tag?: string): void {
    this.#output?.send(line, tag);
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
    const entry = this.#inFlight.get(key);
    if (entry !== undefined) {
      this.#inFlight.delete(key);
      entry.controller.abort(new Error("cancelled by the client"));
    } else if (!this.#held.drop(key) && !this.#deferred.drop(key)) {
      // Finished, but its answer may still wait for a client that does not read: it is dropped
      // (the client said it no longer wants it), freeing that memory at once.
      if (!this.#output!.retract(key)) return;
    }
    // Held and deferred requests never started: they leave the line and are never answered.
    this.#pump();
  }

  #request(id: Id, method: string, params: unknown, text: string): void {
    const key = idKey(id);
    if (this.#load !== undefined && this.#later.has(method)) return this.#hold(text, key);
    if (this.#inFlight.has(key) || this.#held.has(key)) {
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
      spec.instant !== true && (this.#inFlight.size >= MAX_IN_FLIGHT || this.#held.size > 0)
    ) {
      this.#held.push({ id, key, method, spec, params }, key, text.length);
      return;
    }
    this.#start(id, key, method, spec, params);
  }

  #start(id: Id, key: string, method: string, spec: MethodSpec, params: unknown): void {
    const token = progressTokenOf(params);
    const reporter = token === undefined
      ? undefined
      : new ProgressReporter(token, (line) => this.#send(line));
    const controller = new AbortController();
    let answer: string | Promise<string | JsonBytes>;
    try {
      const ctx = { signal: controller.signal, progress: reporter?.report ?? noProgress };
      answer = spec.forward !== undefined
        ? spec.forward(params as Params, ctx)
        : spec.handle(params as Params, ctx);
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
      (result) =>
        this.#settle(
          key,
          entry,
          result instanceof JsonBytes ? encodeResultBytes(id, result) : encodeResult(id, result),
        ),
      (error) => {
        if (!controller.signal.aborted) {
          this.#settle(key, entry, encodeError(id, this.#wireError(error, method)));
        } else entry.reporter?.finish();
      },
    ).finally(() => {
      this.#pending.delete(done);
      this.#pump();
    });
    this.#pending.add(done);
  }

  #opened(): void {
    if (this.#initialized) return;
    this.#initialized = true;
    const warm = this.#onInitialized;
    // Only once the initialize answer is written: loading compiles modules on this thread. No
    // timer (lib/light_timer.ts): a relay starts connecting as soon as the answer is out.
    queueMicrotask(() => {
      this.#output?.flush().then(() => this.#loadRest().then(() => warm?.()));
    });
  }

  #settle(key: string, entry: InFlight, line: OutLine): void {
    entry.reporter?.finish();
    if (entry.controller.signal.aborted) return;
    if (this.#inFlight.get(key) === entry) this.#inFlight.delete(key);
    this.#send(line, key);
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
