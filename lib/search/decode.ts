/**
 * Bytes to text for searching: UTF-8 with replacement characters and the BOM dropped (as
 * ripgrep does); null for binary files (a NUL byte anywhere, as `rg -c` skips them). Measured:
 * TextDecoder is as fast as a latin1 copy for ASCII, so there is one path. The NUL byte is
 * looked for in the bytes before any decoding (only a 0x00 byte decodes to U+0000): decoding a
 * binary file is slow (mostly replacement characters), and on fastapi/fastapi the 187 images
 * took 180 ms to decode against 8 ms for the byte search over every file.
 */

import type { Matcher } from "./matcher.ts";

const utf8 = new TextDecoder("utf-8");

export function decodeForSearch(bytes: Uint8Array): string | null {
  return bytes.indexOf(0) >= 0 ? null : utf8.decode(bytes);
}

export const CHUNK_BYTES = 256 * 1024;
const firstChunkDecoder = new TextDecoder("utf-8");
const laterChunkDecoder = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * Where the chunk of about `chunkBytes` starting at `start` ends: just after its last line feed
 * (or after the first one past it, for a longer line), so no line is ever cut in two.
 */
export function chunkEnd(bytes: Uint8Array, start: number, chunkBytes: number): number {
  const end = Math.min(bytes.length, start + chunkBytes);
  if (end === bytes.length) return end;
  const nl = bytes.lastIndexOf(10, end - 1);
  if (nl >= start) return nl + 1;
  const next = bytes.indexOf(10, end);
  return next < 0 ? bytes.length : next + 1;
}

/** Matching lines of a large file scanned in chunks cut after an LF; 0 when it is binary. */
export function countInChunks(bytes: Uint8Array, m: Matcher, chunkBytes = CHUNK_BYTES): number {
  if (bytes.indexOf(0) >= 0) return 0; // binary: skipped, like rg -c
  let count = 0;
  let start = 0;
  while (start < bytes.length) {
    const end = chunkEnd(bytes, start, chunkBytes);
    const decoder = start === 0 ? firstChunkDecoder : laterChunkDecoder;
    const text = decoder.decode(bytes.subarray(start, end));
    count += m.scanText(text, { wantLines: false }).count;
    start = end;
  }
  return count;
}
