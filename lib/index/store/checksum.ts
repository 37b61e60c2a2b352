/**
 * The checksum of the stored index's sections and posting lists: 32-bit FNV-1a over the bytes,
 * four lanes at a time. It catches torn, truncated and foreign bytes, not an attacker who can
 * write the cache folder (who could write any answer they like: the folder is the user's own).
 */
export function checksum(bytes: Uint8Array, seed = 0): number {
  let a = (0x811c9dc5 ^ seed) | 0;
  let b = 0x01000193 ^ bytes.length;
  let c = 0x2545f491;
  let d = 0x9e3779b9;
  const n = bytes.length & ~3;
  let i = 0;
  for (; i < n; i += 4) {
    a = Math.imul(a ^ bytes[i], 0x01000193);
    b = Math.imul(b ^ bytes[i + 1], 0x01000193);
    c = Math.imul(c ^ bytes[i + 2], 0x01000193);
    d = Math.imul(d ^ bytes[i + 3], 0x01000193);
  }
  for (; i < bytes.length; i++) a = Math.imul(a ^ bytes[i], 0x01000193);
  let h = Math.imul(a ^ (b >>> 15), 0x85ebca6b) ^ Math.imul(c ^ (d >>> 13), 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * The checksum of a whole section (megabytes): the same lanes over 32-bit words (a multiply and
 * a rotation each), about four times as fast as a byte at a time; the last bytes one by one.
 */
export function sectionChecksum(bytes: Uint8Array): number {
  const whole = bytes.length >>> 2;
  const words = bytes.byteOffset % 4 === 0
    ? new Uint32Array(bytes.buffer, bytes.byteOffset, whole)
    : new Uint32Array(bytes.slice(0, whole * 4).buffer);
  let a = 0x811c9dc5 | 0;
  let b = 0x01000193 ^ bytes.length;
  let c = 0x2545f491;
  let d = 0x9e3779b9;
  const n = whole & ~3;
  let i = 0;
  for (; i < n; i += 4) {
    a = Math.imul(a ^ words[i], 0xcc9e2d51);
    a = (a << 15) | (a >>> 17);
    b = Math.imul(b ^ words[i + 1], 0xcc9e2d51);
    b = (b << 15) | (b >>> 17);
    c = Math.imul(c ^ words[i + 2], 0xcc9e2d51);
    c = (c << 15) | (c >>> 17);
    d = Math.imul(d ^ words[i + 3], 0xcc9e2d51);
    d = (d << 15) | (d >>> 17);
  }
  for (; i < whole; i++) {
    a = Math.imul(a ^ words[i], 0xcc9e2d51);
    a = (a << 15) | (a >>> 17);
  }
  for (let k = whole * 4; k < bytes.length; k++) a = Math.imul(a ^ bytes[k], 0x01000193);
  let h = Math.imul(a ^ (b >>> 15), 0x85ebca6b) ^ Math.imul(c ^ (d >>> 13), 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * sectionChecksum of a section of `byteLength` bytes (a multiple of 4) fed a run of 32-bit words
 * at a time, in order: the same number as over the whole section, without the section in memory.
 */
export class SectionChecksum {
  readonly #whole: number;
  /** The words before this index are spread over four lanes; the rest go to the first. */
  readonly #laned: number;
  #i = 0;
  #a = 0x811c9dc5 | 0;
  #b: number;
  #c = 0x2545f491;
  #d = 0x9e3779b9;

  constructor(byteLength: number) {
    if (byteLength % 4 !== 0) throw new RangeError("a section of whole words only");
    this.#whole = byteLength >>> 2;
    this.#laned = this.#whole & ~3;
    this.#b = 0x01000193 ^ byteLength;
  }

  /** Feeds the next words of the section. */
  words(words: Uint32Array): void {
    if (this.#i + words.length > this.#whole) throw new RangeError("more words than the section");
    let a = this.#a, b = this.#b, c = this.#c, d = this.#d;
    for (let k = 0; k < words.length; k++, this.#i++) {
      const w = words[k];
      const lane = this.#i < this.#laned ? this.#i & 3 : 0;
      if (lane === 0) {
        a = Math.imul(a ^ w, 0xcc9e2d51);
        a = (a << 15) | (a >>> 17);
      } else if (lane === 1) {
        b = Math.imul(b ^ w, 0xcc9e2d51);
        b = (b << 15) | (b >>> 17);
      } else if (lane === 2) {
        c = Math.imul(c ^ w, 0xcc9e2d51);
        c = (c << 15) | (c >>> 17);
      } else {
        d = Math.imul(d ^ w, 0xcc9e2d51);
        d = (d << 15) | (d >>> 17);
      }
    }
    this.#a = a;
    this.#b = b;
    this.#c = c;
    this.#d = d;
  }

  /** The checksum, once every word of the section has been fed. */
  digest(): number {
    if (this.#i !== this.#whole) throw new RangeError("fewer words than the section");
    let h = Math.imul(this.#a ^ (this.#b >>> 15), 0x85ebca6b) ^
      Math.imul(this.#c ^ (this.#d >>> 13), 0xc2b2ae35);
    h ^= h >>> 16;
    return h >>> 0;
  }
}
