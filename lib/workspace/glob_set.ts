/**
 * A set of globs compiled to one automaton that cannot backtrack: matching a path costs its
 * length times the states alive at once, whatever the patterns (docs/limits.md). A
 * backtracking regex for `*a*a*a*a*a*a*a*a*a*a*a*c` against a name of 100 `a`s never ends.
 *
 * Patterns arrive as token lists from a dialect parser (ripgrep `-g` globs in
 * lib/search/glob_match.ts, gitignore lines in gitignore.ts); each has an id, and a match
 * reports the highest id that matches.
 */

/** One character equal to `c`. */
export const LIT = 0;
/** One character but `/`. */
export const ONE = 1;
/** One character of a class (never `/`). */
export const CLASS = 2;
/** Any run of characters but `/` (`*`). */
export const STAR = 3;
/** Any run of characters (a trailing `**`). */
export const ANY = 4;
/** Zero or more whole segments, each ending in `/` (`**` + `/`). */
export const SEGS = 5;
const END = 6;

export type Token =
  | { k: typeof LIT; c: number }
  | { k: typeof ONE }
  | { k: typeof CLASS; cls: CharClass }
  | { k: typeof STAR }
  | { k: typeof ANY }
  | { k: typeof SEGS };

/** Inclusive code-unit ranges [lo0, hi0, lo1, hi1, ...]; `negate` inverts (never `/`). */
export interface CharClass {
  negate: boolean;
  ranges: number[];
}

const SLASH = 47;

function inClass(cls: CharClass, c: number): boolean {
  if (c === SLASH) return false;
  const r = cls.ranges;
  let hit = false;
  for (let i = 0; i < r.length; i += 2) {
    if (c >= r[i] && c <= r[i + 1]) {
      hit = true;
      break;
    }
  }
  return hit !== cls.negate;
}

/** The text after a leading `*` when the rest is plain text without `/` (`*.log`), else null. */
function starSuffix(tokens: readonly Token[]): string | null {
  if (tokens.length < 2 || tokens[0].k !== STAR) return null;
  let out = "";
  for (let i = 1; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.k !== LIT || t.c === SLASH) return null;
    out += String.fromCharCode(t.c);
  }
  return out;
}

export class GlobSet {
  readonly #kinds: Uint8Array;
  readonly #chars: Int32Array;
  readonly #classes: (CharClass | null)[];
  /** The pattern id at each END state. */
  readonly #ids: Int32Array;
  /** Start states of patterns that begin with a literal, by that character. */
  readonly #byFirst = new Map<number, number[]>();
  /** Start states of patterns that begin with anything else. */
  readonly #wildStarts: number[] = [];
  /** Patterns that are plain text: text -> ids, highest first. */
  readonly #exact = new Map<string, number[]>();
  /** Patterns `*` + plain text without `/` (`*.log`): suffix -> ids, highest first. */
  readonly #suffixes = new Map<string, number[]>();
  readonly #suffixLengths: number[] = [];
  readonly #marks: Int32Array;
  #gen = 0;
  /** The text being matched (for SEGS: is the position at a segment start?). */
  #text = "";
  #cur: Int32Array;
  #next: Int32Array;

  /** `patterns`: token lists, or plain strings for patterns without wildcards (cheaper). */
  constructor(patterns: readonly (readonly Token[] | string)[], ids: readonly number[]) {
    let size = 0;
    const complex: number[] = [];
    for (let p = 0; p < patterns.length; p++) {
      const pattern = patterns[p];
      const text = typeof pattern === "string"
        ? pattern
        : pattern.every((t) => t.k === LIT)
        ? String.fromCharCode(...pattern.map((t) => (t as { c: number }).c))
        : null;
      const suffix = text === null ? starSuffix(pattern as readonly Token[]) : null;
      if (text !== null || suffix !== null) {
        const map = text !== null ? this.#exact : this.#suffixes;
        const key = (text ?? suffix)!;
        const list = map.get(key);
        if (list === undefined) map.set(key, [ids[p]]);
        else {
          list.push(ids[p]);
          list.sort((a, b) => b - a);
        }
        if (suffix !== null && !this.#suffixLengths.includes(suffix.length)) {
          this.#suffixLengths.push(suffix.length);
        }
      } else {
        complex.push(p);
        size += (pattern as readonly Token[]).length + 1;
      }
    }
    this.#kinds = new Uint8Array(size);
    this.#chars = new Int32Array(size);
    this.#classes = new Array(size).fill(null);
    this.#ids = new Int32Array(size).fill(-1);
    this.#marks = new Int32Array(size);
    this.#cur = new Int32Array(size);
    this.#next = new Int32Array(size);
    let s = 0;
    for (const p of complex) {
      const tokens = patterns[p] as readonly Token[];
      const start = s;
      for (const t of tokens) {
        this.#kinds[s] = t.k;
        if (t.k === LIT) this.#chars[s] = t.c;
        else if (t.k === CLASS) this.#classes[s] = t.cls;
        s++;
      }
      this.#kinds[s] = END;
      this.#ids[s] = ids[p];
      s++;
      const first = tokens[0];
      if (first !== undefined && first.k === LIT) {
        const list = this.#byFirst.get(first.c) ?? [];
        list.push(start);
        this.#byFirst.set(first.c, list);
      } else {
        this.#wildStarts.push(start);
      }
    }
  }

  /** True when some pattern matches `text` whole. */
  matches(text: string): boolean {
    return this.best(text) >= 0;
  }

  /** The highest id of a pattern matching `text` whole and passing `allowed`; -1 when none. */
  best(text: string, allowed?: (id: number) => boolean): number {
    let best = -1;
    const exact = this.#exact.get(text);
    if (exact !== undefined) {
      for (const id of exact) {
        if (allowed === undefined || allowed(id)) {
          best = id;
          break;
        }
      }
    }
    for (const length of this.#suffixLengths) {
      if (length > text.length) continue;
      const tail = text.slice(text.length - length);
      // `*` never crosses `/`: the part before the suffix must hold none.
      if (text.lastIndexOf("/", text.length - length - 1) >= 0) continue;
      const ids = this.#suffixes.get(tail);
      if (ids === undefined) continue;
      for (const id of ids) {
        if (id <= best) break;
        if (allowed === undefined || allowed(id)) {
          best = id;
          break;
        }
      }
    }
    if (this.#kinds.length === 0) return best;
    const kinds = this.#kinds;
    let cur = this.#cur;
    let next = this.#next;
    this.#gen = this.#nextGen();
    this.#text = text;
    let n = 0;
    if (text.length > 0) {
      const firsts = this.#byFirst.get(text.charCodeAt(0));
      if (firsts !== undefined) { for (const s of firsts) n = this.#add(cur, n, s, 0); }
    }
    for (const s of this.#wildStarts) n = this.#add(cur, n, s, 0);
    const chars = this.#chars;
    for (let i = 0; i < text.length && n > 0; i++) {
      const c = text.charCodeAt(i);
      this.#gen = this.#nextGen();
      let m = 0;
      for (let j = 0; j < n; j++) {
        const s = cur[j];
        switch (kinds[s]) {
          case LIT:
            if (chars[s] === c) m = this.#add(next, m, s + 1, i + 1);
            break;
          case ONE:
            if (c !== SLASH) m = this.#add(next, m, s + 1, i + 1);
            break;
          case CLASS:
            if (inClass(this.#classes[s]!, c)) m = this.#add(next, m, s + 1, i + 1);
            break;
          case STAR:
            if (c !== SLASH) m = this.#add(next, m, s, i + 1);
            break;
          case ANY:
          case SEGS:
            m = this.#add(next, m, s, i + 1);
            break;
        }
      }
      const swap = cur;
      cur = next;
      next = swap;
      n = m;
    }
    for (let j = 0; j < n; j++) {
      const s = cur[j];
      if (kinds[s] !== END) continue;
      const id = this.#ids[s];
      if (id > best && (allowed === undefined || allowed(id))) best = id;
    }
    return best;
  }

  /** Adds `state` and what it reaches without input at `pos` to `list`; returns the count. */
  #add(list: Int32Array, count: number, state: number, pos: number): number {
    const kinds = this.#kinds;
    const marks = this.#marks;
    const gen = this.#gen;
    let s = state;
    for (;;) {
      if (marks[s] === gen) return count;
      marks[s] = gen;
      list[count++] = s;
      const k = kinds[s];
      if (k === STAR || k === ANY) {
        s++;
      } else if (k === SEGS && (pos === 0 || this.#text.charCodeAt(pos - 1) === SLASH)) {
        s++;
      } else {
        return count;
      }
    }
  }

  #nextGen(): number {
    if (this.#gen >= 0x7ffffff0) {
      this.#marks.fill(0);
      this.#gen = 0;
    }
    return ++this.#gen;
  }
}
