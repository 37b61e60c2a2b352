/** Dispatch is data: what the server needs to know about each method it implements. */

import type { JsonBytes } from "../jsonrpc/json_bytes.ts";
import type { ProgressFn } from "./progress.ts";

export interface RequestContext {
  /** Aborted when the client cancels the request, or the server shuts down. */
  signal: AbortSignal;
  /** Progress for this request: a no-op unless the request carried `_meta.progressToken`. */
  progress: ProgressFn;
}

/** Params as received: an object, or undefined when absent (anything else is -32602 first). */
export type Params = Record<string, unknown> | undefined;

export interface MethodSpec {
  /** Allowed before `initialize` has been handled (only initialize and ping). */
  beforeInit: boolean;
  /** May params be something other than an object? Only initialize, which never fails on them. */
  anyParams?: boolean;
  /** Answering it opens the session (the lifecycle gate): initialize. */
  opensSession?: boolean;
  /**
   * Answered synchronously without I/O (initialize, ping, the one-page lists): never waits
   * behind the in-flight limit, so it is answered at once even while the server is full.
   */
  instant?: boolean;
  /**
   * Checks params synchronously (throwing RpcError), then answers with the result as JSON text,
   * at once or later. Answers given synchronously leave in arrival order.
   */
  handle(params: Params, ctx: RequestContext): string | Promise<string>;
  /**
   * Answers with the result as UTF-8 bytes, written as they are; used instead of `handle` when
   * present (a relay passes its daemon's answer on without decoding it).
   */
  forward?(params: Params, ctx: RequestContext): Promise<JsonBytes>;
}

export type MethodTable = ReadonlyMap<string, MethodSpec>;
