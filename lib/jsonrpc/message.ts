/**
 * Decodes one line into a JSON-RPC message, following WIRE.md's order of checks (steps 1-5).
 * Never throws: every line becomes exactly one Incoming value.
 */

/** A request id as parsed: a string or an integer. */
export type Id = string | number;

export type Incoming =
  | { kind: "request"; id: Id; method: string; params: unknown }
  | { kind: "notification"; method: unknown; params: unknown }
  | { kind: "response" }
  | { kind: "invalid"; id: Id | null; message: "Parse error" | "Invalid Request" };

function isId(value: unknown): value is Id {
  return typeof value === "string" || (typeof value === "number" && Number.isInteger(value));
}

export function decodeMessage(text: string): Incoming {
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
