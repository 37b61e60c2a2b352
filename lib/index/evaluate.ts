/**
 * Evaluates a trigram query over one posting source (the in-memory postings of trigram_index.ts
 * or a stored shard's lists read on demand): the ascending ids of the documents (or, at file
 * level, the files) that may satisfy it; null when the query cannot narrow (ALL).
 */
import type { Query } from "./query.ts";

export interface PostingSource {
  /** The ascending document ids holding `tri`. */
  docs(tri: number): Int32Array;
  /** How many documents hold `tri` (cheap: orders an AND). */
  count(tri: number): number;
  /** Document ids -> ascending, distinct file indexes. */
  toFiles(docs: Int32Array): Int32Array;
}

export function evaluate(q: Query, source: PostingSource, fileLevel: boolean): Int32Array | null {
  switch (q.op) {
    case "all":
      return null;
    case "none":
      return new Int32Array(0);
    case "tri": {
      const docs = source.docs(q.tri);
      return fileLevel ? source.toFiles(docs) : docs;
    }
    case "and": {
      const cost = (s: Query) =>
        s.op === "tri" ? source.count(s.tri) : s.op === "none" ? 0 : Infinity;
      const subs = [...q.subs].sort((a, b) => cost(a) - cost(b));
      let acc: Int32Array | null = null;
      for (const s of subs) {
        const r = evaluate(s, source, fileLevel);
        if (r === null) continue;
        acc = acc === null ? r : intersect(acc, r);
        if (acc.length === 0) break;
      }
      return acc;
    }
    case "or": {
      let acc: Int32Array = new Int32Array(0);
      for (const s of q.subs) {
        const r = evaluate(s, source, fileLevel);
        if (r === null) return null;
        acc = unite(acc, r);
      }
      return acc;
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
