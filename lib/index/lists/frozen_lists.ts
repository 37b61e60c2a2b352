/**
 * Posting lists of one range of documents in their compact, final form: the growing lists of
 * postings.ts carry a link per 28 bytes, half-empty last blocks and a hash table; these carry
 * only each trigram's list, packed end to end, found by binary search. A list is held as varint
 * deltas counted from the range's first document or, when that is smaller (a trigram in most of
 * the range's documents), as a bitmap of the range: on the kernel the lists denser than one
 * document in eight hold 46% of all entries, which a bitmap holds in a bit per document instead of
 * a byte per entry.
 */
import { freeNow } from "../../free_buffer.ts";
import type { Postings } from "./postings.ts";
import { sortedFind } from "./sorted_find.ts";
import { writeDeltas } from "./varints.ts";

/** The count's top bit: the list is a bitmap of the range. */
const BITMAP = 0x80000000;

function varintBytes(n: number): number {
  let bytes = 1;
  while (n >= 128) {
    bytes++;
    n = Math.floor(n / 128);
  }
  return bytes;
}

export class FrozenLists {
  /** The range's documents: [firstDoc, endDoc). */
  readonly firstDoc: number;
  readonly endDoc: number;
  /** The trigrams held, ascending. */
  #tris: Int32Array;
  /** Where each list starts in #bytes, and one more: the end of the last. */
  readonly #offs: Uint32Array;
  /** Each list's count, with BITMAP set when it is a bitmap. */
  readonly #counts: Uint32Array;
  #bytes: Uint8Array;

  private constructor(
    firstDoc: number,
    endDoc: number,
    tris: Int32Array,
    offs: Uint32Array,
    counts: Uint32Array,
    bytes: Uint8Array,
  ) {
    this.firstDoc = firstDoc;
    this.endDoc = endDoc;
    this.#tris = tris;
    this.#offs = offs;
    this.#counts = counts;
    this.#bytes = bytes;
  }

  /**
   * The lists of `source`, which hold only documents of [firstDoc, endDoc), in compact form.
   * Sizes are worked out first, so that the one buffer is allocated at its final length.
   */
  static seal(source: Postings, firstDoc: number, endDoc: number): FrozenLists {
    const tris = source.trigramList();
    const n = tris.length;
    const offs = new Uint32Array(n + 1);
    const counts = new Uint32Array(n);
    const bitmapBytes = Math.ceil((endDoc - firstDoc) / 8);
    let total = 0;
    let longest = 0;
    for (let i = 0; i < n; i++) {
      const shape = source.shape(tris[i])!;
      if (shape.first < firstDoc || shape.count > endDoc - firstDoc) {
        throw new RangeError("a list holds documents outside the range being sealed");
      }
      // The first delta is counted from firstDoc - 1 here, from -1 in the growing list.
      const varints = shape.bytes - varintBytes(shape.first + 1) +
        varintBytes(shape.first - firstDoc + 1);
      const bitmap = bitmapBytes < varints;
      offs[i] = total;
      counts[i] = bitmap ? (shape.count | BITMAP) >>> 0 : shape.count;
      total += bitmap ? bitmapBytes : varints;
      if (shape.count > longest) longest = shape.count;
    }
    offs[n] = total;
    const bytes = new Uint8Array(total);
    const docs = new Int32Array(longest);
    for (let i = 0; i < n; i++) {
      const count = source.docsInto(tris[i], docs, 0);
      const at = offs[i];
      if ((counts[i] & BITMAP) !== 0) {
        for (let k = 0; k < count; k++) {
          const bit = docs[k] - firstDoc;
          bytes[at + (bit >>> 3)] |= 1 << (bit & 7);
        }
        continue;
      }
      if (writeDeltas(docs, count, firstDoc - 1, bytes, at) !== offs[i + 1]) {
        throw new RangeError("a sealed list is not the size worked out");
      }
    }
    return new FrozenLists(firstDoc, endDoc, tris, offs, counts, bytes);
  }

  #find(tri: number): number {
    return sortedFind(this.#tris, this.#tris.length, tri);
  }

  /** How many documents of the range hold `tri`. */
  count(tri: number): number {
    const i = this.#find(tri);
    return i < 0 ? 0 : (this.#counts[i] & ~BITMAP) >>> 0;
  }

  /**
   * Writes the ascending documents holding `tri` into `out` from `at` (room for count(tri)
   * more); returns how many were written.
   */
  docsInto(tri: number, out: Int32Array, at: number): number {
    const i = this.#find(tri);
    if (i < 0) return 0;
    const bytes = this.#bytes;
    const end = this.#offs[i + 1];
    let k = at;
    if ((this.#counts[i] & BITMAP) !== 0) {
      for (let p = this.#offs[i]; p < end; p++) {
        let byte = bytes[p];
        const base = this.firstDoc + (p - this.#offs[i]) * 8;
        while (byte !== 0) {
          const low = byte & -byte;
          out[k++] = base + 31 - Math.clz32(low);
          byte ^= low;
        }
      }
      return k - at;
    }
    let doc = this.firstDoc - 1;
    let value = 0;
    let shift = 0;
    for (let p = this.#offs[i]; p < end; p++) {
      const b = bytes[p];
      value |= (b & 127) << shift;
      if (b < 128) {
        doc += value;
        out[k++] = doc;
        value = 0;
        shift = 0;
      } else shift += 7;
    }
    return k - at;
  }

  /** Gives the lists' buffer back now (the store that held them is done with them): empty after. */
  release(): void {
    freeNow(this.#bytes);
    this.#bytes = new Uint8Array(0);
    this.#tris = new Int32Array(0);
  }

  /** The trigrams held, ascending (a view: not to be written). */
  get trigrams(): Int32Array {
    return this.#tris;
  }

  /** Bytes held: the lists and their table. */
  get bytes(): number {
    return this.#bytes.byteLength + this.#tris.byteLength + this.#offs.byteLength +
      this.#counts.byteLength;
  }
}
