/**
 * Trigram queries (Russ Cox, "Regular Expression Matching with a Trigram Index"): a boolean
 * formula over byte trigrams that every file holding a match satisfies. ALL matches every file
 * (the index cannot narrow), NONE no file. A trigram is three bytes packed as b0 << 16 | b1 << 8 | b2.
 */

export type Query =
  | { op: "all" }
  | { op: "none" }
  | { op: "tri"; tri: number }
  | { op: "and"; subs: Query[] }
  | { op: "or"; subs: Query[] };

export const ALL: Query = { op: "all" };
export const NONE: Query = { op: "none" };

/** Queries bigger than this are given up (ALL): planning must stay cheap. */
export const MAX_QUERY_NODES = 4096;

export function trigram(tri: number): Query {
  return { op: "tri", tri };
}

function key(q: Query): string {
  switch (q.op) {
    case "all":
    case "none":
      return q.op;
    case "tri":
      return String(q.tri);
    default:
      return `${q.op}(${q.subs.map(key).join(",")})`;
  }
}

function combine(op: "and" | "or", a: Query, b: Query): Query {
  const absorbing = op === "and" ? "none" : "all";
  const neutral = op === "and" ? "all" : "none";
  if (a.op === absorbing || b.op === absorbing) return op === "and" ? NONE : ALL;
  if (a.op === neutral) return b;
  if (b.op === neutral) return a;
  const subs: Query[] = [];
  const seen = new Set<string>();
  for (const q of [a, b]) {
    for (const s of q.op === op ? q.subs : [q]) {
      const k = key(s);
      if (!seen.has(k)) {
        seen.add(k);
        subs.push(s);
      }
    }
  }
  return subs.length === 1 ? subs[0] : { op, subs };
}

export function and(a: Query, b: Query): Query {
  return combine("and", a, b);
}

export function or(a: Query, b: Query): Query {
  return combine("or", a, b);
}

/** Number of nodes (to bound planning). */
export function size(q: Query): number {
  if (q.op === "and" || q.op === "or") {
    let n = 1;
    for (const s of q.subs) n += size(s);
    return n;
  }
  return 1;
}

/** The trigrams of a byte string (characters 0-255), ANDed: ALL when it is shorter than 3. */
export function trigramsOf(bytes: string): Query {
  let q: Query = ALL;
  for (let i = 0; i + 3 <= bytes.length; i++) {
    q = and(
      q,
      trigram(
        (bytes.charCodeAt(i) << 16) | (bytes.charCodeAt(i + 1) << 8) | bytes.charCodeAt(i + 2),
      ),
    );
  }
  return q;
}

/** Readable form for tests and logs: trigrams as quoted text, e.g. `"abc" "bcd" | "xyz"`. */
export function format(q: Query): string {
  switch (q.op) {
    case "all":
      return "+";
    case "none":
      return "-";
    case "tri": {
      const text = String.fromCharCode(q.tri >> 16, (q.tri >> 8) & 255, q.tri & 255);
      return JSON.stringify(text);
    }
    case "and":
      return q.subs.map((s) => (s.op === "or" ? `(${format(s)})` : format(s))).join(" ");
    case "or":
      return q.subs.map(format).join(" | ");
  }
}
