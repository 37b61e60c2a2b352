/**
 * Bytes to text for searching: null for binary files (a NUL byte anywhere, as `rg -c` skips
 * them); ASCII through a latin1 copy (fast), anything else as UTF-8 with replacement characters
 * and the BOM dropped (as ripgrep does).
 */
import { Buffer, isAscii } from "node:buffer";

const utf8 = new TextDecoder("utf-8");

export function decodeForSearch(bytes: Uint8Array): string | null {
  const text = isAscii(bytes)
    ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1")
    : utf8.decode(bytes);
  return text.indexOf("\0") >= 0 ? null : text;
}
