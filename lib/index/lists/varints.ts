/**
 * The posting lists' encoding, in memory (frozen_lists.ts) and on disk (shard_format.ts): each
 * ascending document id as a varint of its distance from the one before (the first from
 * `before`), seven bits a byte, low bits first.
 */

/** Writes `docs[0..count)` into `out` from `at`; returns the end. `out` must have room. */
export function writeDeltas(
  docs: Int32Array,
  count: number,
  before: number,
  out: Uint8Array,
  at: number,
): number {
  let last = before;
  for (let i = 0; i < count; i++) {
    let delta = docs[i] - last;
    last = docs[i];
    while (delta >= 128) {
      out[at++] = (delta & 127) | 128;
      delta >>>= 7;
    }
    out[at++] = delta;
  }
  return at;
}
