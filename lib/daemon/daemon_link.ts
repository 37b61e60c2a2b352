/**
 * The relay's one connection to its daemon: the handshake, then calls by number, each answered
 * by a result, an error or nothing (cancelled). When the connection ends under calls still in
 * flight (the daemon died), each is answered RESTARTED: the next call opens a new connection.
 */

import { RpcError } from "../jsonrpc/errors.ts";
import type { JsonBytes } from "../jsonrpc/json_bytes.ts";
import type { ProgressFn } from "../server/progress.ts";
import {
  callFrame,
  cancelFrame,
  type DaemonFrame,
  decodeDaemonFrame,
  type Hello,
  helloFrame,
  WIRE_VERSION,
} from "./frames.ts";
import { FrameStream } from "./frame_stream.ts";
import { after } from "../light_timer.ts";

/** The answer to a call lost with its daemon (every method): the call can be made again. */
export const RESTARTED = new RpcError(-32000, "The server restarted; repeat the call.");

interface Pending {
  resolve: (json: JsonBytes) => void;
  reject: (error: RpcError) => void;
  progress: ProgressFn;
}

export class DaemonLink {
  readonly #stream: FrameStream;
  readonly #pending = new Map<number, Pending>();
  #next = 0;
  #onClose: () => void;
  readonly ended: Promise<void>;

  private constructor(conn: Deno.Conn, onClose: () => void) {
    this.#stream = new FrameStream(conn);
    this.#onClose = onClose;
    let welcomed: ((frame: DaemonFrame | null) => void) | undefined;
    this.#welcome = new Promise((resolve) => welcomed = resolve);
    this.ended = this.#stream.readBytes((line) => {
      const frame = decodeDaemonFrame(line);
      if (welcomed !== undefined) {
        const answer = welcomed;
        welcomed = undefined;
        answer(frame);
      } else this.#receive(frame);
    }).then(() => {
      welcomed?.(null);
      this.#fail();
    });
  }

  #welcome: Promise<DaemonFrame | null>;

  /**
   * Connects to `socket` and shakes hands; resolves to the link, or to why the daemon there is
   * not used (refused, another version, build or key), or throws what connecting threw, or
   * TimedOut when no welcome came within `welcomeMs`.
   */
  static async open(
    socket: string,
    hello: Hello,
    onClose: () => void,
    welcomeMs: number,
  ): Promise<DaemonLink | { refused: string }> {
    const conn = await Deno.connect({ transport: "unix", path: socket });
    const link = new DaemonLink(conn, onClose);
    link.#stream.send(helloFrame(hello));
    const late = after(welcomeMs, link.#welcome).then(() => "late" as const);
    const frame = await Promise.race([link.#welcome, late]);
    if (frame === "late") {
      // A daemon that accepts and never answers the hello (stuck, or stopped) is not waited on.
      link.close();
      throw new Deno.errors.TimedOut(
        `the daemon did not answer the handshake within ${welcomeMs} ms`,
      );
    }
    if (frame === null) {
      link.close();
      throw new Deno.errors.ConnectionReset("the daemon closed the connection before its welcome");
    }
    let refused: string | null = null;
    if (frame.kind === "refused") refused = frame.reason;
    else if (frame.kind !== "welcome") refused = "it answered the handshake with something else";
    else if (
      frame.wire !== WIRE_VERSION || frame.version !== hello.version ||
      frame.build !== hello.build || frame.key !== hello.key
    ) refused = "it is another version, build or workspace";
    if (refused === null) return link;
    link.close();
    return { refused };
  }

  get open(): boolean {
    return !this.#stream.closed;
  }

  /** Sends one call; resolves to its result's JSON as bytes, rejects with its RpcError. */
  call(method: string, params: unknown, signal: AbortSignal, progress: ProgressFn | null) {
    if (!this.open) return Promise.reject(RESTARTED);
    const n = this.#next++;
    return new Promise<JsonBytes>((resolve, reject) => {
      const onAbort = () => {
        if (!this.#pending.delete(n)) return;
        this.#stream.send(cancelFrame(n));
        reject(signal.reason);
      };
      this.#pending.set(n, {
        resolve: (json) => {
          signal.removeEventListener("abort", onAbort);
          resolve(json);
        },
        reject: (error) => {
          signal.removeEventListener("abort", onAbort);
          reject(error);
        },
        progress: progress ?? (() => {}),
      });
      signal.addEventListener("abort", onAbort, { once: true });
      this.#stream.send(callFrame(n, method, params, progress !== null));
    });
  }

  #receive(frame: DaemonFrame): void {
    if (frame.kind === "progress") {
      this.#pending.get(frame.n)?.progress(frame.progress, frame.total, frame.message);
      return;
    }
    if (frame.kind !== "result" && frame.kind !== "error") return;
    const entry = this.#pending.get(frame.n);
    if (entry === undefined) return;
    this.#pending.delete(frame.n);
    if (frame.kind === "result") entry.resolve(frame.json);
    else entry.reject(frame.error);
  }

  /** Every call still in flight is answered RESTARTED. */
  #fail(): void {
    const lost = [...this.#pending.values()];
    this.#pending.clear();
    for (const entry of lost) entry.reject(RESTARTED);
    this.#onClose();
  }

  /** Waits (at most `ms`) for the frames queued to be written. */
  async flush(ms: number): Promise<void> {
    const flushed = this.#stream.flush();
    await Promise.race([flushed, after(ms, flushed)]);
  }

  close(): void {
    this.#stream.close();
  }
}
