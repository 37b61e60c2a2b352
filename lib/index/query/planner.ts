/**
 * The query planner: the JavaScript regex the matcher runs (source + flags, as compiled by
 * lib/search/matcher.ts) -> a trigram query that every file holding a match satisfies. It follows
 * Russ Cox's codesearch analysis (exact / prefix / suffix string sets per node, simplified into
 * trigram ANDs and ORs as they grow).
 *
 * Soundness rules (the planner may widen, never narrow):
 * - What a character class or a case-insensitive character matches is asked of V8 itself: the
 *   class is run over every UTF-16 code unit (BMP code points with `u`), so the set is exactly the
 *   engine's. Classes of more than 100 characters, negated classes and `u`/`v` classes are "any
 *   character".
 * - Characters that the file bytes may not hold verbatim in the decoded text are "any character":
 *   LF and CR (multiline mode rewrites CRLF; lines drop a CR), U+FEFF (a leading BOM is dropped),
 *   U+FFFD (invalid bytes decode to it) and UTF-16 surrogates (a lone one is not a UTF-8 sequence).
 * - Lookarounds and word boundaries match the empty string; backreferences, octal and unknown
 *   escapes match any string. Syntax the parser does not know makes the whole query ALL.
 */
import { ALL, and, MAX_QUERY_NODES, or, type Query, size, trigramsOf } from "./query.ts";

type Node =
  | { t: "empty" }
  /** One character: the byte strings (UTF-8, one char per byte) it may be; null = any. */
  | { t: "char"; set: string[] | null }
  /** Any string, including the empty one. */
  | { t: "anystr" }
  | { t: "cat"; subs: Node[] }
  | { t: "alt"; subs: Node[] }
  | { t: "rep"; sub: Node; min: number; max: number };

class Unsupported extends Error {}

const EMPTY: Node = { t: "empty" };
const ANY_CHAR: Node = { t: "char", set: null };
const ANY_STRING: Node = { t: "anystr" };
const MAX_CLASS = 100;

/** Plans `source` compiled with `flags` (i, u, v; g, m, s, y do not change what can match). */
export function planQuery(source: string, flags: string): Query {
  let node: Node;
  try {
    const parser = new Parser(source, flags);
    node = parser.disjunction();
    if (parser.pos !== source.length) return ALL;
  } catch (error) {
    if (error instanceof Unsupported) return ALL;
    throw error;
  }
  const info = analyze(node);
  simplify(info, true);
  addExact(info);
  return size(info.match) > MAX_QUERY_NODES ? ALL : info.match;
}

// ---------------------------------------------------------------------------------------------
// Character sets, asked of V8.

let codeUnits: string | null = null;
let bmpPoints: string | null = null;

/** Every UTF-16 code unit (non-unicode mode) or every BMP code point without surrogates (u/v). */
function universe(unicode: boolean): string {
  if (unicode) {
    if (bmpPoints === null) {
      const parts: string[] = [];
      for (let c = 0; c < 0x10000; c++) {
        if (c < 0xd800 || c > 0xdfff) parts.push(String.fromCharCode(c));
      }
      bmpPoints = parts.join("");
    }
    return bmpPoints;
  }
  if (codeUnits === null) {
    const parts: string[] = [];
    for (let c = 0; c < 0x10000; c++) parts.push(String.fromCharCode(c));
    codeUnits = parts.join("");
  }
  return codeUnits;
}

const setCache = new Map<string, string[] | null>();
const encoder = new TextEncoder();

/** The characters `atom` (one-character regex source) matches under `flags`, or null if many. */
function enumerate(atom: string, flags: string): string[] | null {
  const key = `${flags}/${atom}`;
  const hit = setCache.get(key);
  if (hit !== undefined) return hit;
  const unicode = /[uv]/.test(flags);
  let found: string[] | null = null;
  try {
    const matches = universe(unicode).match(new RegExp(atom, flags + "g"));
    found = matches === null ? [] : matches.length > MAX_CLASS ? null : [...new Set(matches)];
  } catch {
    found = null;
  }
  const set = found === null ? null : toBytes(found);
  if (setCache.size > 4096) setCache.clear();
  setCache.set(key, set);
  return set;
}

/** Characters -> their UTF-8 byte strings; null when one may not appear verbatim in the bytes. */
function toBytes(chars: string[]): string[] | null {
  const out: string[] = [];
  for (const ch of chars) {
    const c = ch.charCodeAt(0);
    if (c === 10 || c === 13 || c === 0xfeff || c === 0xfffd) return null;
    if (ch.length === 1 && c >= 0xd800 && c <= 0xdfff) return null;
    if (ch.length === 2 && !(c >= 0xd800 && c <= 0xdbff)) return null;
    let bytes = "";
    for (const b of encoder.encode(ch)) bytes += String.fromCharCode(b);
    out.push(bytes);
  }
  return out;
}

function escapeChar(ch: string): string {
  return /^[\\^$.*+?()[\]{}|\/-]$/.test(ch) ? `\\${ch}` : ch;
}

// ---------------------------------------------------------------------------------------------
// The parser: JavaScript regex syntax (with Annex B in non-unicode mode) to a small AST.

class Parser {
  pos = 0;
  readonly #src: string;
  readonly #unicode: boolean;
  readonly #vmode: boolean;
  /** Flags for asking V8 about one character (i toggled by modifier groups). */
  #ignoreCase: boolean;

  constructor(src: string, flags: string) {
    this.#src = src;
    this.#unicode = /[uv]/.test(flags);
    this.#vmode = flags.includes("v");
    this.#ignoreCase = flags.includes("i");
  }

  get #flags(): string {
    return (this.#ignoreCase ? "i" : "") + (this.#vmode ? "v" : this.#unicode ? "u" : "");
  }

  disjunction(): Node {
    const alts = [this.#alternative()];
    while (this.#src[this.pos] === "|") {
      this.pos++;
      alts.push(this.#alternative());
    }
    return alts.length === 1 ? alts[0] : { t: "alt", subs: alts };
  }

  #alternative(): Node {
    const subs: Node[] = [];
    const src = this.#src;
    while (this.pos < src.length && src[this.pos] !== "|" && src[this.pos] !== ")") {
      subs.push(this.#term());
    }
    return { t: "cat", subs };
  }

  #term(): Node {
    const src = this.#src;
    const c = src[this.pos];
    if (c === "^" || c === "$") {
      this.pos++;
      this.#noQuantifier();
      return EMPTY;
    }
    if (c === "\\" && (src[this.pos + 1] === "b" || src[this.pos + 1] === "B")) {
      this.pos += 2;
      this.#noQuantifier();
      return EMPTY;
    }
    if (src.startsWith("(?=", this.pos) || src.startsWith("(?!", this.pos)) {
      this.pos += 3;
      this.#groupBody();
      // Annex B: a lookahead may be quantified; it stays zero-width.
      if (!this.#unicode) this.#quantifier();
      return EMPTY;
    }
    if (src.startsWith("(?<=", this.pos) || src.startsWith("(?<!", this.pos)) {
      this.pos += 4;
      this.#groupBody();
      this.#noQuantifier();
      return EMPTY;
    }
    const atom = this.#atom();
    const q = this.#quantifier();
    return q === null ? atom : { t: "rep", sub: atom, min: q.min, max: q.max };
  }

  #noQuantifier(): void {
    const c = this.#src[this.pos];
    if (c === "*" || c === "+" || c === "?") throw new Unsupported();
    if (c === "{" && /^\{\d+(,\d*)?\}/.test(this.#src.slice(this.pos, this.pos + 40))) {
      throw new Unsupported();
    }
  }

  #quantifier(): { min: number; max: number } | null {
    const src = this.#src;
    const c = src[this.pos];
    let min: number;
    let max: number;
    if (c === "*" || c === "+" || c === "?") {
      min = c === "+" ? 1 : 0;
      max = c === "?" ? 1 : Infinity;
      this.pos++;
    } else if (c === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(src.slice(this.pos, this.pos + 64));
      if (m === null) {
        if (this.#unicode) throw new Unsupported();
        return null; // Annex B: a literal "{", read as the next atom
      }
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === "" ? Infinity : Number(m[3]);
      this.pos += m[0].length;
    } else return null;
    if (src[this.pos] === "?") this.pos++;
    return { min, max };
  }

  #groupBody(): Node {
    const inner = this.disjunction();
    if (this.#src[this.pos] !== ")") throw new Unsupported();
    this.pos++;
    return inner;
  }

  #atom(): Node {
    const src = this.#src;
    const c = src[this.pos];
    if (c === ".") {
      this.pos++;
      return ANY_CHAR;
    }
    if (c === "(") return this.#group();
    if (c === "[") return this.#class();
    if (c === "\\") return this.#escape();
    if (c === "*" || c === "+" || c === "?" || c === ")" || c === "|") throw new Unsupported();
    if (c === "{" || c === "}" || c === "]") {
      if (this.#unicode) throw new Unsupported();
      if (c === "{" && /^\{\d+(,\d*)?\}/.test(src.slice(this.pos, this.pos + 64))) {
        throw new Unsupported();
      }
    }
    const ch = this.#unicode ? String.fromCodePoint(src.codePointAt(this.pos)!) : c;
    this.pos += ch.length;
    return this.#literal(ch);
  }

  #literal(ch: string): Node {
    if (!this.#ignoreCase) {
      return { t: "char", set: toBytes([ch]) };
    }
    if (ch.length > 1) return ANY_CHAR; // astral under case folding: not asked of V8
    return { t: "char", set: enumerate(escapeChar(ch), this.#flags) };
  }

  #group(): Node {
    const src = this.#src;
    if (src.startsWith("(?:", this.pos)) {
      this.pos += 3;
      return this.#groupBody();
    }
    if (src.startsWith("(?<", this.pos)) {
      const m = /^\(\?<[^>=!][^>]*>/.exec(src.slice(this.pos, this.pos + 300));
      if (m === null) throw new Unsupported();
      this.pos += m[0].length;
      return this.#groupBody();
    }
    if (src.startsWith("(?", this.pos)) {
      // Modifier group (?ims-ims:...): only `i` changes what can match.
      const m = /^\(\?([ims]*)(?:-([ims]*))?:/.exec(src.slice(this.pos, this.pos + 16));
      if (m === null) throw new Unsupported();
      this.pos += m[0].length;
      const saved = this.#ignoreCase;
      if (m[1].includes("i")) this.#ignoreCase = true;
      if ((m[2] ?? "").includes("i")) this.#ignoreCase = false;
      try {
        return this.#groupBody();
      } finally {
        this.#ignoreCase = saved;
      }
    }
    this.pos++;
    return this.#groupBody();
  }

  #class(): Node {
    const src = this.#src;
    const start = this.pos;
    let j = start + 1;
    const negated = src[j] === "^";
    if (negated) j++;
    let depth = 1;
    for (; j < src.length; j++) {
      const c = src[j];
      if (c === "\\") j++;
      else if (c === "[" && this.#vmode) depth++;
      else if (c === "]" && --depth === 0) break;
    }
    if (j >= src.length) throw new Unsupported();
    this.pos = j + 1;
    if (negated || this.#unicode) return ANY_CHAR;
    return { t: "char", set: enumerate(src.slice(start, j + 1), this.#flags) };
  }

  #escape(): Node {
    const src = this.#src;
    const d = src[this.pos + 1];
    if (d === undefined) throw new Unsupported();
    const take = (n: number, node: Node): Node => {
      this.pos += n;
      return node;
    };
    if ("dDwWsS".includes(d)) {
      return take(
        2,
        this.#unicode ? ANY_CHAR : { t: "char", set: enumerate(`\\${d}`, this.#flags) },
      );
    }
    if (d === "n" || d === "r") return take(2, ANY_CHAR);
    if (d === "t") return take(2, this.#literal("\t"));
    if (d === "v") return take(2, this.#literal("\v"));
    if (d === "f") return take(2, this.#literal("\f"));
    if (d === "c") {
      const letter = src[this.pos + 2];
      if (letter === undefined || !/[A-Za-z]/.test(letter)) throw new Unsupported();
      return take(3, this.#literal(String.fromCharCode(letter.charCodeAt(0) & 31)));
    }
    if (d === "0" && !/[0-9]/.test(src[this.pos + 2] ?? "")) return take(2, this.#literal("\0"));
    if (/[0-9]/.test(d)) {
      // A backreference or (Annex B) an octal escape: any string either way.
      let n = 1;
      while (/[0-9]/.test(src[this.pos + n] ?? "")) n++;
      return take(n, ANY_STRING);
    }
    if (d === "k") {
      const m = /^\\k<[^>]*>/.exec(src.slice(this.pos, this.pos + 300));
      return take(m === null ? 2 : m[0].length, ANY_STRING);
    }
    if (d === "x") {
      const m = /^\\x([0-9a-fA-F]{2})/.exec(src.slice(this.pos, this.pos + 4));
      if (m === null) {
        if (this.#unicode) throw new Unsupported();
        return take(2, ANY_STRING);
      }
      return take(4, this.#literal(String.fromCharCode(parseInt(m[1], 16))));
    }
    if (d === "u") return this.#unicodeEscape();
    if (d === "p" || d === "P") {
      if (!this.#unicode) return take(2, ANY_STRING);
      const m = /^\\[pP]\{[^}]*\}/.exec(src.slice(this.pos, this.pos + 80));
      if (m === null) throw new Unsupported();
      return take(m[0].length, ANY_CHAR);
    }
    if (/[A-Za-z]/.test(d)) {
      if (this.#unicode) throw new Unsupported();
      return take(2, ANY_STRING); // Annex B identity escape of a letter
    }
    const ch = this.#unicode ? String.fromCodePoint(src.codePointAt(this.pos + 1)!) : d;
    return take(1 + ch.length, this.#literal(ch));
  }

  #unicodeEscape(): Node {
    const src = this.#src;
    const four = /^\\u([0-9a-fA-F]{4})/.exec(src.slice(this.pos, this.pos + 6));
    if (four !== null) {
      const hi = parseInt(four[1], 16);
      this.pos += 6;
      if (this.#unicode && hi >= 0xd800 && hi <= 0xdbff) {
        const low = /^\\u(d[c-f][0-9a-f]{2})/i.exec(src.slice(this.pos, this.pos + 6));
        if (low !== null) {
          this.pos += 6;
          const cp = 0x10000 + ((hi - 0xd800) << 10) + (parseInt(low[1], 16) - 0xdc00);
          return this.#literal(String.fromCodePoint(cp));
        }
      }
      return this.#literal(String.fromCharCode(hi));
    }
    if (this.#unicode) {
      const braced = /^\\u\{([0-9a-fA-F]{1,8})\}/.exec(src.slice(this.pos, this.pos + 12));
      if (braced === null) throw new Unsupported();
      const cp = parseInt(braced[1], 16);
      if (cp > 0x10ffff) throw new Unsupported();
      this.pos += braced[0].length;
      return this.#literal(String.fromCodePoint(cp));
    }
    this.pos += 2;
    return ANY_STRING; // Annex B: "\u" without four hex digits is "u"
  }
}

// ---------------------------------------------------------------------------------------------
// The analysis (codesearch's regexpInfo). Strings are byte strings.

interface Info {
  /** Every match is one of these, or null when unknown. */
  exact: Set<string> | null;
  /** Every match starts with one of these (when exact is null). */
  prefix: Set<string>;
  /** Every match ends with one of these (when exact is null). */
  suffix: Set<string>;
  canEmpty: boolean;
  /** Every file with a match satisfies this. */
  match: Query;
}

const MAX_EXACT = 7;
const MAX_SET = 20;
const MIN_LONG_EXACT = 4;
const MAX_LONG_EXACT = 5;

function emptyString(): Info {
  return { exact: new Set([""]), prefix: new Set(), suffix: new Set(), canEmpty: true, match: ALL };
}

function anyChar(): Info {
  return {
    exact: null,
    prefix: new Set([""]),
    suffix: new Set([""]),
    canEmpty: false,
    match: ALL,
  };
}

function anyMatch(): Info {
  return { ...anyChar(), canEmpty: true };
}

function analyze(node: Node): Info {
  switch (node.t) {
    case "empty":
      return emptyString();
    case "anystr":
      return anyMatch();
    case "char":
      if (node.set === null || node.set.length === 0) return anyChar();
      return {
        exact: new Set(node.set),
        prefix: new Set(),
        suffix: new Set(),
        canEmpty: false,
        match: ALL,
      };
    case "cat": {
      let info = emptyString();
      for (const sub of node.subs) info = concat(info, analyze(sub));
      return info;
    }
    case "alt": {
      let info = analyze(node.subs[0]);
      for (let k = 1; k < node.subs.length; k++) info = alternate(info, analyze(node.subs[k]));
      return info;
    }
    case "rep": {
      const { min, max } = node;
      if (max === 0) return emptyString();
      if (min === 0 && max === 1) return alternate(analyze(node.sub), emptyString());
      if (min === 0) return anyMatch();
      if (min === max && min <= 3) {
        let info = emptyString();
        for (let k = 0; k < min; k++) info = concat(info, analyze(node.sub));
        return info;
      }
      // At least one: prefixes and suffixes stay; an exact set does not.
      const info = analyze(node.sub);
      if (info.exact !== null) {
        info.prefix = info.exact;
        info.suffix = new Set(info.exact);
        info.exact = null;
      }
      simplify(info, false);
      return info;
    }
  }
}

function minLen(set: Set<string>): number {
  let n = Infinity;
  for (const s of set) if (s.length < n) n = s.length;
  return n === Infinity ? 0 : n;
}

function cross(a: Set<string>, b: Set<string>): Set<string> {
  const out = new Set<string>();
  for (const x of a) for (const y of b) out.add(x + y);
  return out;
}

function union(a: Set<string>, b: Set<string>): Set<string> {
  return new Set([...a, ...b]);
}

/** The OR of the trigram ANDs of the strings; nothing when one string has no trigram. */
function andTrigrams(q: Query, set: Set<string>): Query {
  if (set.size === 0 || minLen(set) < 3) return q;
  let alternatives: Query | null = null;
  for (const s of set) {
    const t = trigramsOf(s);
    alternatives = alternatives === null ? t : or(alternatives, t);
  }
  return and(q, alternatives!);
}

function addExact(info: Info): void {
  if (info.exact !== null) info.match = andTrigrams(info.match, info.exact);
}

function concat(x: Info, y: Info): Info {
  const xy: Info = {
    exact: null,
    prefix: new Set(),
    suffix: new Set(),
    canEmpty: x.canEmpty && y.canEmpty,
    match: and(x.match, y.match),
  };
  if (x.exact !== null && y.exact !== null) {
    xy.exact = cross(x.exact, y.exact);
  } else {
    if (x.exact !== null) xy.prefix = cross(x.exact, y.prefix);
    else {
      xy.prefix = x.prefix;
      if (x.canEmpty) xy.prefix = union(xy.prefix, y.prefix);
    }
    if (y.exact !== null) xy.suffix = cross(x.suffix, y.exact);
    else {
      xy.suffix = y.suffix;
      if (y.canEmpty) xy.suffix = union(xy.suffix, x.suffix);
    }
  }
  // Strings that span the boundary: one of them is in every match.
  if (
    x.exact === null && y.exact === null && x.suffix.size <= MAX_SET &&
    y.prefix.size <= MAX_SET && minLen(x.suffix) + minLen(y.prefix) >= 3
  ) {
    xy.match = andTrigrams(xy.match, cross(x.suffix, y.prefix));
  }
  simplify(xy, false);
  return xy;
}

function alternate(x: Info, y: Info): Info {
  const xy: Info = {
    exact: null,
    prefix: new Set(),
    suffix: new Set(),
    canEmpty: x.canEmpty || y.canEmpty,
    match: ALL,
  };
  if (x.exact !== null && y.exact !== null) {
    xy.exact = union(x.exact, y.exact);
  } else if (x.exact !== null) {
    xy.prefix = union(x.exact, y.prefix);
    xy.suffix = union(x.exact, y.suffix);
    addExact(x);
  } else if (y.exact !== null) {
    xy.prefix = union(x.prefix, y.exact);
    xy.suffix = union(x.suffix, y.exact);
    addExact(y);
  } else {
    xy.prefix = union(x.prefix, y.prefix);
    xy.suffix = union(x.suffix, y.suffix);
  }
  xy.match = or(x.match, y.match);
  simplify(xy, false);
  return xy;
}

function simplify(info: Info, force: boolean): void {
  const exact = info.exact;
  if (exact !== null) {
    const n = minLen(exact);
    if (exact.size > MAX_EXACT || (n >= MIN_LONG_EXACT && !force) || n >= MAX_LONG_EXACT) {
      addExact(info);
      for (const s of exact) {
        if (s.length < 3) {
          info.prefix.add(s);
          info.suffix.add(s);
        } else {
          info.prefix.add(s.slice(0, 2));
          info.suffix.add(s.slice(-2));
        }
      }
      info.exact = null;
    }
  }
  if (info.exact === null) {
    info.prefix = simplifySet(info, info.prefix, false);
    info.suffix = simplifySet(info, info.suffix, true);
  }
}

/** Moves a prefix or suffix set's trigrams into the query and cuts the set down to size. */
function simplifySet(info: Info, set: Set<string>, isSuffix: boolean): Set<string> {
  info.match = andTrigrams(info.match, set);
  let t = set;
  for (let n = 3; n >= 1 && (n === 3 || t.size > MAX_SET); n--) {
    const next = new Set<string>();
    for (const s of t) {
      next.add(s.length >= n ? (isSuffix ? s.slice(s.length - n + 1) : s.slice(0, n - 1)) : s);
    }
    t = next;
  }
  // Drop strings made redundant by a shorter one ("ab" makes "abc" useless as a prefix).
  const sorted = [...t].sort((a, b) => a.length - b.length);
  const kept: string[] = [];
  for (const s of sorted) {
    if (!kept.some((k) => (isSuffix ? s.endsWith(k) : s.startsWith(k)))) kept.push(s);
  }
  return new Set(kept);
}
