/** Encodes outgoing JSON-RPC messages as compact JSON lines, keys in the spec's order. */

import type { RpcError } from "./errors.ts";
import { encodeId, type Id } from "./message.ts";

/** `{"jsonrpc":"2.0","id":…,"result":…}`; `resultJson` is already-encoded JSON. */
export function encodeResult(id: Id, resultJson: string): string {
  return `{"jsonrpc":"2.0","id":${encodeId(id)},"result":${resultJson}}\n`;
}

/** `{"jsonrpc":"2.0","id":…,"error":{"code","message","data"?}}`. */
export function encodeError(id: Id | null, error: RpcError): string {
  return `{"jsonrpc":"2.0","id":${encodeId(id)},"error":${JSON.stringify(error.toJSON())}}\n`;
}

/** `{"jsonrpc":"2.0","method":…,"params":…}`; `paramsJson` is already-encoded JSON. */
export function encodeNotification(method: string, paramsJson: string): string {
  return `{"jsonrpc":"2.0","method":${JSON.stringify(method)},"params":${paramsJson}}\n`;
}
