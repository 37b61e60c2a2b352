/**
 * One session in the daemon: one relay's connection. The handshake fixes the session's own
 * flags (never the key's); then each call runs in the session's turn (fair_turns.ts) against
 * the session's own method table, over the daemon's shared services, and is answered by number.
 * When the relay goes, everything the session still runs is cancelled.
 */

import { asOwner } from "../call_owner.ts";
import type { Config } from "../config.ts";
import { parseArgs } from "../cli/args.ts";
import { TOOL_GROUPS } from "../cli/tool_selection.ts";
import { sessionFeatures, type SharedFeatures } from "../features/load.ts";
import { INTERNAL_ERROR, INVALID_PARAMS, METHOD_NOT_FOUND, RpcError } from "../jsonrpc/errors.ts";
import { log } from "../log.ts";
import type { MethodTable } from "../server/method.ts";
import type { ToolAvailability } from "../tools/index.ts";
import type { FairTurns } from "./fair_turns.ts";
import {
  decodeRelayFrame,
  errorFrame,
  type Hello,
  progressFrame,
  refusedFrame,
  resultFrame,
  welcomeFrame,
  WIRE_VERSION,
} from "./frames.ts";
import { FrameStream } from "./frame_stream.ts";
import { SESSION_FLAGS } from "./key.ts";

/** What every session of a daemon shares, fixed when the daemon started. */
export interface DaemonHost {
  version: string;
  build: string;
  /** The whole workspace key: a hello with another is refused. */
  key: string;
  config: Config;
  shared: SharedFeatures;
  /** What the key allows; a session's --tools can only narrow it. */
  available: ToolAvailability;
  turns: FairTurns;
}

const INTERNAL = new RpcError(INTERNAL_ERROR, "Internal error");

export class DaemonSession {
  readonly #host: DaemonHost;
  readonly #stream: FrameStream;
  #table: MethodTable | null = null;
  #close: () => void = () => {};
  readonly #calls = new Map<number, AbortController>();

  constructor(conn: Deno.Conn, host: DaemonHost) {
    this.#host = host;
    this.#stream = new FrameStream(conn);
  }

  /** Serves the connection until the relay hangs up; then cancels what is left. */
  async serve(): Promise<void> {
    await this.#stream.read((line) => this.#receive(line));
    for (const controller of this.#calls.values()) controller.abort(new Error("relay gone"));
    this.#calls.clear();
    this.#host.turns.leave(this);
    this.#close();
  }

  #receive(line: string): void {
    const frame = decodeRelayFrame(line);
    if (frame.kind === "invalid") return this.#hangUp(`a malformed frame (${frame.why})`);
    if (frame.kind === "hello") {
      if (this.#table !== null) return this.#hangUp("a second hello");
      return this.#hello(frame.hello);
    }
    if (this.#table === null) return this.#hangUp("a call before the hello");
    if (frame.kind === "cancel") {
      const controller = this.#calls.get(frame.n);
      this.#calls.delete(frame.n);
      controller?.abort(new Error("cancelled by the client"));
      this.#stream.retract(String(frame.n));
      return;
    }
    this.#call(frame.n, frame.method, frame.params, frame.progress);
  }

  #hangUp(why: string): void {
    log.warn(`a relay sent ${why}: its connection is closed`);
    this.#stream.close();
  }

  #hello(hello: Hello): void {
    const host = this.#host;
    let refused: string | null = null;
    if (hello.wire !== WIRE_VERSION) {
      refused = `wire ${hello.wire}, this daemon speaks ${WIRE_VERSION}`;
    } else if (hello.version !== host.version || hello.build !== host.build) {
      refused = "another version or build";
    } else if (hello.key !== host.key) refused = "another workspace key";
    const config = refused === null ? this.#sessionConfig(hello.session) : null;
    if (refused === null && config === null) refused = "session flags that are not allowed";
    if (refused !== null || config === null) {
      this.#stream.send(refusedFrame(refused ?? "refused"));
      this.#stream.flush().finally(() => this.#stream.close());
      return;
    }
    const features = sessionFeatures(host.shared, config, this.#available(config), {
      walkAhead: false,
    });
    this.#table = features.table;
    this.#close = () => features.close();
    features.warm();
    this.#stream.send(welcomeFrame(host.version, host.build, host.key));
  }

  /** The daemon's config with the session's own flags; null when the hello carries others. */
  #sessionConfig(words: readonly string[]): Config | null {
    for (let i = 0; i < words.length; i += 2) {
      if (!SESSION_FLAGS.has(words[i]) || i + 1 >= words.length) return null;
    }
    const parsed = parseArgs(words);
    if (parsed.kind !== "run") return null;
    const own = parsed.config;
    return {
      ...this.#host.config,
      maxMessageBytes: own.maxMessageBytes,
      maxOutputChars: own.maxOutputChars,
      maxReadChars: own.maxReadChars,
      logLevel: own.logLevel,
      tools: own.tools,
    };
  }

  /** The key's tools, narrowed by the session's --tools (as main.ts does for one process). */
  #available(config: Config): ToolAvailability {
    const all = this.#host.available;
    const chosen = config.tools;
    const wants = (names: readonly string[]) => chosen === null || names.some((n) => chosen.has(n));
    return {
      write: all.write && wants([...TOOL_GROUPS.edit, "rename_symbol"]),
      git: all.git && wants(TOOL_GROUPS.git),
      gitTarget: all.git && wants(TOOL_GROUPS.git) ? all.gitTarget : null,
      selected: chosen,
    };
  }

  #call(n: number, method: string, params: unknown, progress: boolean): void {
    const spec = this.#table!.get(method);
    if (spec === undefined) {
      return this.#stream.send(errorFrame(n, new RpcError(METHOD_NOT_FOUND, "Method not found")));
    }
    if (
      params !== undefined &&
      (typeof params !== "object" || params === null || Array.isArray(params))
    ) {
      return this.#stream.send(
        errorFrame(n, new RpcError(INVALID_PARAMS, "Invalid params: params must be an object")),
      );
    }
    if (this.#calls.has(n)) return this.#hangUp("a call number twice");
    const controller = new AbortController();
    this.#calls.set(n, controller);
    const signal = controller.signal;
    let last = -Infinity;
    const report = (value: number, total?: number, message?: string) => {
      if (!progress || signal.aborted || !(value > last)) return;
      last = value;
      this.#stream.send(progressFrame(n, value, total, message));
    };
    this.#host.turns.enter(this, signal).then(async (release) => {
      try {
        // The session owns everything the call starts: the heavy queue serves sessions in turn.
        const answer = await asOwner(
          this,
          () =>
            spec.handle(params as Record<string, unknown> | undefined, {
              signal,
              progress: report,
            }),
        );
        if (!signal.aborted) this.#stream.send(resultFrame(n, answer), String(n));
      } catch (error) {
        if (!signal.aborted) this.#stream.send(errorFrame(n, this.#wireError(error, method)));
      } finally {
        release();
        if (this.#calls.get(n) === controller) this.#calls.delete(n);
      }
    }, () => {});
  }

  #wireError(error: unknown, method: string): RpcError {
    if (error instanceof RpcError) return error;
    log.error(`${method} failed: ${error instanceof Error ? error.stack : String(error)}`);
    return INTERNAL;
  }
}
