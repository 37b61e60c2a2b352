/**
 * Gives a buffer's memory back now rather than when the collector runs: the buffer is detached
 * (transferred to a zero-length one), so every view of it reads as empty from then on. Only a
 * view of the whole buffer is freed; a part of a larger one is left to the collector.
 */
export function freeNow(bytes: Uint8Array | Uint32Array): void {
  const buffer = bytes.buffer as ArrayBuffer & { transfer?: (length: number) => ArrayBuffer };
  if (bytes.byteOffset !== 0 || buffer.byteLength !== bytes.byteLength) return;
  try {
    buffer.transfer?.(0);
  } catch {
    // not transferable (shared, or already detached): the collector frees it
  }
}
