/**
 * The posting lists of the in-memory index: frozen lists (frozen_lists.ts) for the documents up
 * to the last seal, growing lists (postings.ts) for the newer ones. Whenever the growing lists'
 * arena passes SEAL_BYTES at the end of a document, they are sealed into one more frozen range
 * and cleared for reuse, so the build holds its lists in compact form plus one arena of at most
 * about SEAL_BYTES, never all of them in growing form. Every range covers later documents than
 * the one before, so a trigram's list is its ranges' lists end to end.
 */
import { FrozenLists } from "./frozen_lists.ts";
import { Postings } from "./postings.ts";

/** The growing lists' arena is sealed once it passes this (on the kernel: eight ranges). */
export const SEAL_BYTES = 24 * 1024 * 1024;

export class PostingStore {
  readonly #sealBytes: number;
  readonly #frozen: FrozenLists[] = [];
  #live = new Postings();
  /** The first document the growing lists may hold (the end of the last frozen range). */
  #liveFirst = 0;
  #liveEnd = 0;

  constructor(sealBytes = SEAL_BYTES) {
    this.#sealBytes = sealBytes;
  }

  /** Records that document `doc` holds trigram `tri` (docs in ascending order). */
  add(tri: number, doc: number): void {
    this.#live.add(tri, doc);
  }

  /**
   * Document `doc` is complete: documents after it get higher ids. Seals the growing lists when
   * their arena has passed the seal size.
   */
  endDocument(doc: number): void {
    this.#liveEnd = doc + 1;
    if (this.#live.arenaUsed >= this.#sealBytes) this.#seal();
  }

  /**
   * Seals what the growing lists hold and gives their arena back: the index is built and
   * from now on grows by a file at a time (freshness), which a small arena holds.
   */
  compact(): void {
    this.#seal();
    this.#live.release();
  }

  #seal(): void {
    if (this.#live.empty) return;
    this.#frozen.push(FrozenLists.seal(this.#live, this.#liveFirst, this.#liveEnd));
    this.#live.clear();
    this.#liveFirst = this.#liveEnd;
  }

  /** Frozen ranges so far (tests and the build's log). */
  get ranges(): number {
    return this.#frozen.length;
  }

  /** Bytes held: the frozen lists, the growing lists' arena and tables. */
  get bytes(): number {
    let n = this.#live.bytes;
    for (const f of this.#frozen) n += f.bytes;
    return n;
  }

  /** How many documents hold `tri`. */
  count(tri: number): number {
    let n = this.#live.count(tri);
    for (const f of this.#frozen) n += f.count(tri);
    return n;
  }

  /** The ascending document ids holding `tri`. */
  docs(tri: number): Int32Array {
    if (this.#frozen.length === 0) return this.#live.docs(tri);
    const out = new Int32Array(this.count(tri));
    this.docsInto(tri, out, 0);
    return out;
  }

  /**
   * Writes the ascending documents holding `tri` into `out` from `at` (room for count(tri)
   * more); returns how many were written.
   */
  docsInto(tri: number, out: Int32Array, at: number): number {
    const start = at;
    for (const f of this.#frozen) at += f.docsInto(tri, out, at);
    return at - start + this.#live.docsInto(tri, out, at);
  }

  /**
   * Gives every buffer back now, not when the collector runs: the store is no longer used (its
   * lists were written to a shard that replaced it).
   */
  release(): void {
    for (const f of this.#frozen) f.release();
    this.#frozen.length = 0;
    this.#live.release();
  }

  /** Every trigram held, ascending. */
  trigramList(): Int32Array {
    const lists = this.#frozen.map((f) => f.trigrams);
    lists.push(this.#live.trigramList());
    return unionOfSorted(lists);
  }

  /** Distinct trigrams held. */
  get trigrams(): number {
    return this.#frozen.length === 0 ? this.#live.trigrams : this.trigramList().length;
  }
}

/** The union of ascending trigram lists, ascending, each trigram once. */
export function unionOfSorted(lists: Int32Array[]): Int32Array {
  if (lists.length === 1) return lists[0];
  let total = 0;
  for (const l of lists) total += l.length;
  const all = new Int32Array(total);
  let n = 0;
  for (const l of lists) {
    all.set(l, n);
    n += l.length;
  }
  all.sort();
  let k = 0;
  for (let i = 0; i < all.length; i++) if (k === 0 || all[k - 1] !== all[i]) all[k++] = all[i];
  return all.slice(0, k);
}
