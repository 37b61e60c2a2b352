/**
 * Evaluates a trigram query over one posting source (the in-memory postings of trigram_index.ts
 * or a stored shard's lists read on demand): the ascending ids of the documents (or, at file
 * level, the files) that may satisfy it; null when the query cannot narrow (ALL).
 *
 * An AND evaluates its cheapest part first and every later part within what is left, so that
 * a long list is only ever intersected with a short one, never kept or united whole: the OR of a
 * case-insensitive pattern (eight case variants of every trigram) is taken variant by variant
 * within the running result. Every list after the first is decoded into one buffer the
 * evaluation reuses (docsInto); a query then allocates about the size of its answers, not of the
 * lists it reads.
 */
import type { Query } from "./query.ts";

export interface PostingSource {
  /** The ascending document ids holding `tri`. */
  docs(tri: number): Int32Array;
  /** How many documents hold `tri` (cheap: orders an AND). */
  count(tri: number): number;
  /** Document ids -> ascending, distinct file indexes. */
  toFiles(docs: Int32Array): Int32Array;
  /**
   * Writes the ascending documents holding `tri` into `out` from `at` (room for count(tri)
   * more); returns how many were written.
   */
  docsInto(tri: number, out: Int32Array, at: number): number;
}

export function evaluate(q: Query, source: PostingSource, fileLevel: boolean): Int32Array | null {
  return new Evaluation(source, fileLevel).run(q, null);
}

/** One query's evaluation over one source, with its reused decoding buffer. */
class Evaluation {
  readonly #source: PostingSource;
  readonly #fileLevel: boolean;
  #scratch = new Int32Array(0);

  constructor(source: PostingSource, fileLevel: boolean) {
    this.#source = source;
    this.#fileLevel = fileLevel;
  }

  /**
   * What satisfies `q`, within `within` when it is given (a subset of it, ascending); null when
   * `q` cannot narrow (the caller keeps `within`, or everything).
   */
  run(q: Query, within: Int32Array | null): Int32Array | null {
    switch (q.op) {
      case "all":
        return null;
      case "none":
        return new Int32Array(0);
      case "tri":
        return this.#list(q.tri, within);
      case "and": {
        const subs = q.subs.map((s) => ({ s, cost: this.#cost(s) }))
          .sort((a, b) => a.cost - b.cost);
        let acc = within;
        let narrowed = false;
        for (const { s } of subs) {
          const r = this.run(s, acc);
          if (r === null) continue;
          acc = r;
          narrowed = true;
          if (acc.length === 0) break;
        }
        return narrowed ? acc : null;
      }
      case "or": {
        let acc: Int32Array = new Int32Array(0);
        for (const s of q.subs) {
          const r = this.run(s, within);
          if (r === null) return null;
          acc = unite(acc, r);
        }
        return acc;
      }
    }
  }

  /** The list of `tri` (as files at file level), within `within` when given. */
  #list(tri: number, within: Int32Array | null): Int32Array {
    const source = this.#source;
    if (within === null) {
      // The first list is the running result: it gets an array of its own.
      const docs = source.docs(tri);
      return this.#fileLevel ? source.toFiles(docs) : docs;
    }
    if (within.length === 0) return within;
    const count = source.count(tri);
    if (this.#scratch.length < count) {
      this.#scratch = new Int32Array(Math.max(count, this.#scratch.length * 2));
    }
    const docs = this.#scratch.subarray(0, source.docsInto(tri, this.#scratch, 0));
    return intersect(within, this.#fileLevel ? source.toFiles(docs) : docs);
  }

  /** About how many entries evaluating `q` reads: an AND's cheapest part, an OR's every part. */
  #cost(q: Query): number {
    switch (q.op) {
      case "all":
        return Infinity;
      case "none":
        return 0;
      case "tri":
        return this.#source.count(q.tri);
      case "and": {
        let least = Infinity;
        for (const s of q.subs) least = Math.min(least, this.#cost(s));
        return least;
      }
      case "or": {
        let sum = 0;
        for (const s of q.subs) sum += this.#cost(s);
        return sum;
      }
    }
  }
}

export function intersect(a: Int32Array, b: Int32Array): Int32Array {
  const out = new Int32Array(Math.min(a.length, b.length));
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) {
    const x = a[i];
    const y = b[j];
    if (x === y) {
      out[n++] = x;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return out.subarray(0, n);
}

export function unite(a: Int32Array, b: Int32Array): Int32Array {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const out = new Int32Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i] < b[j])) out[n++] = a[i++];
    else if (i >= a.length || b[j] < a[i]) out[n++] = b[j++];
    else {
      out[n++] = a[i++];
      j++;
    }
  }
  return out.subarray(0, n);
}
