/**
 * Decodes one line into a JSON-RPC message, following docs/protocol.md's order of checks (steps 1-5).
 * Never throws: every line becomes exactly one Incoming value.
 */

/** A request id as parsed: a string or an integer. */
export type Id = string | number;

export type Incoming =
  | { kind: "request"; id: Id; method: string; params: unknown }
  | { kind: "notification"; method: unknown; params: unknown }
  | { kind: "response" }
  | {
    kind: "invalid";
    id: Id | null;
    message: "Parse error" | "Invalid Request" | "Request too large";
  };

function isId(value: unknown): value is Id {
  return typeof value === "string" || (typeof value === "number" && Number.isInteger(value));
}

/**
 * Lines longer than this are scanned before parsing: JSON.parse needs seconds for a million keys
 * (2.6 s measured) or ten million nested arrays (10 s), all on the main thread (docs/limits.md); 250,000 levels parse in about 0.25 s.
 */
const SCAN_FROM_CHARS = 64 * 1024;
export const MAX_MESSAGE_KEYS = 100_000;
export const MAX_MESSAGE_DEPTH = 250_000;

/** True when `text` holds more object keys or deeper nesting than a message may. */
function overComplex(text: string): boolean {
  let depth = 0;
  let keys = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      i = stringEnd(text, i + 1);
    } else if (c === 123 || c === 91) {
      if (++depth > MAX_MESSAGE_DEPTH) return true;
    } else if (c === 125 || c === 93) {
      depth--;
    } else if (c === 58) {
      if (++keys > MAX_MESSAGE_KEYS) return true;
    }
  }
  return false;
}

/**
 * The index of the quote that closes the string starting at `from` (or the end of `text`). Jumps
 * from quote to quote (large messages are mostly one long string, such as a file's content); a
 * quote after an odd run of backslashes is escaped. Each backslash is counted once: linear time.
 */
function stringEnd(text: string, from: number): number {
  let at = from;
  for (;;) {
    const quote = text.indexOf('"', at);
    if (quote === -1) return text.length;
    let slashes = 0;
    while (quote - slashes - 1 >= at && text.charCodeAt(quote - slashes - 1) === 92) slashes++;
    if (slashes % 2 === 0) return quote;
    at = quote + 1;
  }
}

/** The id of a request written in the usual order (`{"jsonrpc":"2.0","id":...`), else null. */
function leadingId(text: string): Id | null {
  const m =
    /^\s*\{\s*"jsonrpc"\s*:\s*"2\.0"\s*,\s*"id"\s*:\s*(-?\d{1,16}|"(?:[^"\\]|\\.){0,200}")\s*,/
      .exec(text.slice(0, 512));
  if (m === null) return null;
  try {
    const id = JSON.parse(m[1]);
    return isId(id) ? id : null;
  } catch {
    return null;
  }
}

export function decodeMessage(text: string): Incoming {
  if (text.length > SCAN_FROM_CHARS && overComplex(text)) {
    return { kind: "invalid", id: leadingId(text), message: "Request too large" };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: "invalid", id: null, message: "Parse error" };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { kind: "invalid", id: null, message: "Invalid Request" };
  }
  const message = value as Record<string, unknown>;
  const hasId = Object.hasOwn(message, "id");
  const hasMethod = Object.hasOwn(message, "method");
  if (hasMethod && !hasId) {
    return { kind: "notification", method: message.method, params: message.params };
  }
  if (!hasMethod) {
    if (hasId && (Object.hasOwn(message, "result") || Object.hasOwn(message, "error"))) {
      return { kind: "response" };
    }
    return {
      kind: "invalid",
      id: hasId && isId(message.id) ? message.id : null,
      message: "Invalid Request",
    };
  }
  const id = message.id;
  if (!isId(id)) return { kind: "invalid", id: null, message: "Invalid Request" };
  if (message.jsonrpc !== "2.0" || typeof message.method !== "string") {
    return { kind: "invalid", id, message: "Invalid Request" };
  }
  return { kind: "request", id, method: message.method, params: message.params };
}

/** A key for the in-flight map that keeps the string "1" and the number 1 apart. */
export function idKey(id: Id): string {
  return typeof id === "string" ? `s${id}` : `n${encodeId(id)}`;
}

/** An id or progress token as JSON: integers in plain decimal, never exponent notation. */
export function encodeId(id: Id | null): string {
  if (id === null) return "null";
  if (typeof id === "string") return JSON.stringify(id);
  return Number.isSafeInteger(id) ? String(id) : BigInt(id).toString();
}
