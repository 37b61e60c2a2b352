/** Encodes outgoing JSON-RPC messages as compact JSON lines, keys in the spec's order. */

import type { RpcError } from "./errors.ts";
import { JsonBytes } from "./json_bytes.ts";
import { encodeId, type Id } from "./message.ts";

const encoder = new TextEncoder();
const RESULT_END = encoder.encode("}\n");

/** `{"jsonrpc":"2.0","id":…,"result":…}`; `resultJson` is already-encoded JSON. */
export function encodeResult(id: Id, resultJson: string): string {
  return `{"jsonrpc":"2.0","id":${encodeId(id)},"result":${resultJson}}\n`;
}

/** The same line for a result given as UTF-8 bytes: its pieces are passed on untouched. */
export function encodeResultBytes(id: Id, result: JsonBytes): JsonBytes {
  const head = encoder.encode(`{"jsonrpc":"2.0","id":${encodeId(id)},"result":`);
  return new JsonBytes([head, ...result.parts, RESULT_END]);
}

/** `{"jsonrpc":"2.0","id":…,"error":{"code","message","data"?}}`. */
export function encodeError(id: Id | null, error: RpcError): string {
  return `{"jsonrpc":"2.0","id":${encodeId(id)},"error":${JSON.stringify(error.toJSON())}}\n`;
}

/** `{"jsonrpc":"2.0","method":…,"params":…}`; `paramsJson` is already-encoded JSON. */
export function encodeNotification(method: string, paramsJson: string): string {
  return `{"jsonrpc":"2.0","method":${JSON.stringify(method)},"params":${paramsJson}}\n`;
}
