/**
 * The relay-daemon wire (docs/protocol.md, "The relay and the daemon"): one frame a line over
 * the Unix socket. The relay sends JSON objects: first `{"hello":{...}}`, then
 * `{"call":N,"method":M,"params":P,"progress":true?}` and `{"cancel":N}`. The daemon answers
 * with a letter, a space and the rest: `W {welcome}` or `X {"reason":...}` to the hello, then
 * `R N <result JSON>`, `E N <error JSON>` and `P N [progress,total,message]`. A result is
 * relayed as the bytes it is, never decoded or parsed again on the way.
 */

import { RpcError } from "../jsonrpc/errors.ts";
import { JsonBytes } from "../jsonrpc/json_bytes.ts";

/** The version of this wire; a daemon that speaks another refuses the hello. */
export const WIRE_VERSION = 1;

export interface Hello {
  wire: number;
  version: string;
  build: string;
  /** The whole workspace key (lib/daemon/key.ts). */
  key: string;
  /** The session's own flags (key.ts SESSION_FLAGS), as on a command line. */
  session: string[];
}

export type RelayFrame =
  | { kind: "hello"; hello: Hello }
  | { kind: "call"; n: number; method: string; params: unknown; progress: boolean }
  | { kind: "cancel"; n: number }
  | { kind: "invalid"; why: string };

export type DaemonFrame =
  | { kind: "welcome"; wire: unknown; version: unknown; build: unknown; key: unknown }
  | { kind: "refused"; reason: string }
  | { kind: "result"; n: number; json: JsonBytes }
  | { kind: "error"; n: number; error: RpcError }
  | { kind: "progress"; n: number; progress: number; total?: number; message?: string }
  | { kind: "invalid"; why: string };

export function helloFrame(hello: Hello): string {
  return `${JSON.stringify({ hello })}\n`;
}

export function callFrame(n: number, method: string, params: unknown, progress: boolean): string {
  return `${JSON.stringify({ call: n, method, params, progress })}\n`;
}

export function cancelFrame(n: number): string {
  return `{"cancel":${n}}\n`;
}

export function welcomeFrame(version: string, build: string, key: string): string {
  return `W ${JSON.stringify({ wire: WIRE_VERSION, version, build, key })}\n`;
}

export function refusedFrame(reason: string): string {
  return `X ${JSON.stringify({ reason })}\n`;
}

export function resultFrame(n: number, json: string): string {
  return `R ${n} ${json}\n`;
}

export function errorFrame(n: number, error: RpcError): string {
  return `E ${n} ${JSON.stringify(error.toJSON())}\n`;
}

export function progressFrame(n: number, progress: number, total?: number, message?: string) {
  return `P ${n} ${JSON.stringify([progress, total ?? null, message ?? null])}\n`;
}

function callNumber(value: unknown): number | null {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : null;
}

/** A line from the relay, checked: anything malformed is `invalid` (the daemon hangs up). */
export function decodeRelayFrame(line: string): RelayFrame {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { kind: "invalid", why: "not JSON" };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { kind: "invalid", why: "not an object" };
  }
  const frame = value as Record<string, unknown>;
  if ("hello" in frame) {
    const h = frame.hello as Record<string, unknown> | null;
    if (
      typeof h !== "object" || h === null || typeof h.wire !== "number" ||
      typeof h.version !== "string" || typeof h.build !== "string" ||
      typeof h.key !== "string" || !Array.isArray(h.session) ||
      !h.session.every((word) => typeof word === "string")
    ) return { kind: "invalid", why: "malformed hello" };
    return { kind: "hello", hello: h as unknown as Hello };
  }
  if ("cancel" in frame) {
    const n = callNumber(frame.cancel);
    return n === null ? { kind: "invalid", why: "malformed cancel" } : { kind: "cancel", n };
  }
  const n = callNumber(frame.call);
  if (n === null || typeof frame.method !== "string") {
    return { kind: "invalid", why: "malformed call" };
  }
  return {
    kind: "call",
    n,
    method: frame.method,
    params: frame.params,
    progress: frame.progress === true,
  };
}

const R = 0x52;
const SPACE = 0x20;
const ZERO = 0x30;
/** A call number has at most this many digits (Number.MAX_SAFE_INTEGER has 16). */
const MAX_DIGITS = 15;

/**
 * A result frame's call number and its JSON as the bytes they came in (the first piece may be
 * joined with the next ones when a read ended inside the frame's head), or null when `line` is
 * not a well-formed result frame.
 */
function resultOf(line: JsonBytes): { kind: "result"; n: number; json: JsonBytes } | null {
  const parts = line.parts;
  let first = parts[0];
  let next = 1;
  if (first[0] !== R) return null;
  let space = first.indexOf(SPACE, 2);
  while (space === -1 && next < parts.length && first.length <= MAX_DIGITS + 2) {
    const joined = new Uint8Array(first.length + parts[next].length);
    joined.set(first);
    joined.set(parts[next++], first.length);
    first = joined;
    space = first.indexOf(SPACE, 2);
  }
  if (first[1] !== SPACE || space < 3 || space > MAX_DIGITS + 2) return null;
  let n = 0;
  for (let i = 2; i < space; i++) {
    const digit = first[i] - ZERO;
    if (digit < 0 || digit > 9) return null;
    n = n * 10 + digit;
  }
  return {
    kind: "result",
    n,
    json: new JsonBytes([first.subarray(space + 1), ...parts.slice(next)]),
  };
}

/** A line from the daemon: a result's JSON is kept as the bytes it came in. */
export function decodeDaemonFrame(bytes: JsonBytes): DaemonFrame {
  const result = resultOf(bytes);
  if (result !== null) return result;
  const line = bytes.text();
  const tag = line.slice(0, 2);
  try {
    if (tag === "W ") {
      const w = JSON.parse(line.slice(2));
      return { kind: "welcome", wire: w?.wire, version: w?.version, build: w?.build, key: w?.key };
    }
    if (tag === "X ") return { kind: "refused", reason: String(JSON.parse(line.slice(2)).reason) };
    const space = line.indexOf(" ", 2);
    const n = callNumber(Number(line.slice(2, space)));
    if (space === -1 || n === null) return { kind: "invalid", why: "no call number" };
    const rest = line.slice(space + 1);
    if (tag === "E ") {
      const e = JSON.parse(rest);
      if (typeof e?.code !== "number" || typeof e.message !== "string") {
        return { kind: "invalid", why: "malformed error" };
      }
      const data = typeof e.data === "object" && e.data !== null ? e.data : undefined;
      return { kind: "error", n, error: new RpcError(e.code, e.message, data) };
    }
    if (tag === "P ") {
      const [progress, total, message] = JSON.parse(rest);
      if (typeof progress !== "number") return { kind: "invalid", why: "malformed progress" };
      return {
        kind: "progress",
        n,
        progress,
        total: typeof total === "number" ? total : undefined,
        message: typeof message === "string" ? message : undefined,
      };
    }
  } catch {
    return { kind: "invalid", why: "not JSON" };
  }
  return { kind: "invalid", why: `unknown frame ${JSON.stringify(tag)}` };
}
