/**
 * Syntax tree (ast.ts) -> JavaScript regex source, compiled with no flags at all: classes are
 * written out as ranges (case folding, set operations and Unicode classes were resolved by the
 * parser), so neither `u`, `v` nor `i` is needed, and V8 can fall back to its linear-time engine
 * on excessive backtracking (it refuses regexes with those flags, measured on Deno 2.9.6).
 *
 * Two subjects (docs/tools.md "Regex dialect"):
 * - "line": the subject is one line without its LF (grep's default). `^ $ \A \z` all anchor at
 *   the line's ends; "\n" is removed from every class, and a pattern that can only match "\n"
 *   there is an error, as in ripgrep.
 * - "file": the subject is the whole file (multiline). Line anchors are lookbehind/lookahead on
 *   "\n" (JavaScript's `m` flag would also stop at "\r" and U+2028).
 * Outside the Basic Multilingual Plane, a class holding every astral character is written as
 * code units (so `.` and `[^a]` match half of an emoji, as `rg --no-unicode` matches one byte of
 * it); a class holding only some is written as surrogate pairs, exactly.
 */

import type { LookKind, RegexNode } from "./ast.ts";
import { RegexSyntaxError } from "./ast.ts";
import { type CharSet, intersect, single, singleton, size, subtract } from "./char_set.ts";

export type Subject = "line" | "file";

/** Longest translated source accepted. */
export const MAX_SOURCE_CHARS = 4_000_000;

interface Emitted {
  src: string;
  /** Can take a quantifier as is. */
  atom: boolean;
  /** One code unit wide (a BMP literal or a plain class): cheap to write out n times. */
  unit: boolean;
}

const NEWLINE = single(0x0a);

/** The JavaScript source for `ast` on the given subject; throws RegexSyntaxError. */
export function toJsSource(ast: RegexNode, subject: Subject): string {
  const out = emit(ast, subject).src;
  if (out.length > MAX_SOURCE_CHARS) {
    throw new RegexSyntaxError(
      `the pattern is too large once its classes are written out (${out.length} characters); use fewer or smaller Unicode classes`,
      0,
    );
  }
  return out;
}

function emit(node: RegexNode, subject: Subject): Emitted {
  switch (node.kind) {
    case "empty":
      return { src: "", atom: false, unit: false };
    case "literal":
      if (node.cp === 0x0a && subject === "line") throw newlineError();
      return emitChar(node.cp);
    case "class": {
      let set = node.set;
      if (subject === "line") {
        if (singleton(set) === 0x0a) throw newlineError();
        set = subtract(set, NEWLINE);
      }
      return emitSet(set);
    }
    case "look":
      return { src: lookSource(node.look, node.crlf, subject), atom: false, unit: false };
    case "not_after":
    case "not_before": {
      const set = subject === "line" ? subtract(node.set, NEWLINE) : node.set;
      return { src: neighbourTest(set, node.kind === "not_after"), atom: false, unit: false };
    }
    case "group": {
      const sub = emit(node.sub, subject);
      return { src: `(?:${sub.src})`, atom: true, unit: false };
    }
    case "concat": {
      let src = "";
      for (const s of node.subs) {
        const e = emit(s, subject);
        src += s.kind === "alternate" ? `(?:${e.src})` : e.src;
      }
      return { src, atom: false, unit: false };
    }
    case "alternate":
      return {
        src: node.subs.map((s) => emit(s, subject).src).join("|"),
        atom: false,
        unit: false,
      };
    case "repeat": {
      const sub = emit(node.sub, subject);
      const atom = sub.atom ? sub.src : `(?:${sub.src})`;
      const { min, max, greedy } = node;
      // Irregexp runs \w{5} about four times slower than \w\w\w\w\w: small counted
      // repetitions of one code unit are written out (same language, same greediness).
      if (
        sub.unit && greedy && min >= 1 && min <= 16 && atom.length <= 64 &&
        !(min === 1 && max === null)
      ) {
        let text = atom.repeat(min);
        if (max === null) text += `${atom}*`;
        else if (max > min) text += `${atom}{0,${max - min}}`;
        return { src: text, atom: false, unit: false };
      }
      let q: string;
      if (min === 0 && max === null) q = "*";
      else if (min === 1 && max === null) q = "+";
      else if (min === 0 && max === 1) q = "?";
      else if (max === null) q = `{${min},}`;
      else if (max === min) q = `{${min}}`;
      else q = `{${min},${max}}`;
      return { src: atom + q + (greedy ? "" : "?"), atom: false, unit: false };
    }
  }
}

/**
 * `(?<!set)` (`before`: the character before is not in the set) or `(?!set)`. Characters outside
 * the Basic Multilingual Plane are tested only behind a surrogate: a large class such as Unicode's
 * word characters has hundreds of astral ranges, which would otherwise each be tried in turn at
 * every position of plain ASCII text.
 */
function neighbourTest(set: CharSet, before: boolean): string {
  const bmp = intersect(set, [[0, 0xffff]]);
  const astral = intersect(set, [[0x10000, 0x10ffff]]);
  const parts: string[] = [];
  if (bmp.length > 0) parts.push(emitSet(bmp).src);
  if (astral.length > 0) {
    const pairs = emitSet(astral).src;
    parts.push(before ? `${pairs}(?<=[\\udc00-\\udfff])` : `(?=[\\ud800-\\udbff])${pairs}`);
  }
  if (parts.length === 0) return "";
  return before ? `(?<!${parts.join("|")})` : `(?!${parts.join("|")})`;
}

function newlineError(): RegexSyntaxError {
  return new RegexSyntaxError(
    `the pattern can match a line break ("\\n"), but grep matches one line at a time; set multiline: true to match across lines`,
    0,
  );
}

function lookSource(look: LookKind, crlf: boolean, subject: Subject): string {
  const w = "[0-9A-Za-z_]";
  switch (look) {
    case "word":
      return "\\b";
    case "not_word":
      return "\\B";
    // Lookbehinds only: V8's linear-time fallback refuses lookaheads.
    case "word_start":
      return `\\b(?<!${w})`;
    case "word_end":
      return `\\b(?<=${w})`;
    case "word_start_half":
      return `(?<!${w})`;
    case "word_end_half":
      return `(?:\\b(?<=${w})|\\B(?<!${w}))`;
  }
  if (subject === "line") return look === "start_line" || look === "start_text" ? "^" : "$";
  const nl = crlf ? "[^\\n\\r]" : "[^\\n]";
  switch (look) {
    case "start_line":
      return `(?<!${nl})`;
    case "end_line":
      return `(?!${nl})`;
    case "start_text":
      return "(?<![\\s\\S])";
    case "end_text":
      return "(?![\\s\\S])";
  }
}

function hex(cp: number): string {
  return cp < 0x100
    ? `\\x${cp.toString(16).padStart(2, "0")}`
    : `\\u${cp.toString(16).padStart(4, "0")}`;
}

/** One BMP code unit, as written inside or outside a class. */
function unitSource(cp: number): string {
  return (cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a) ||
      cp === 0x5f
    ? String.fromCharCode(cp)
    : hex(cp);
}

function emitChar(cp: number): Emitted {
  if (cp <= 0xffff) return { src: unitSource(cp), atom: true, unit: true };
  const s = String.fromCodePoint(cp);
  return { src: hex(s.charCodeAt(0)) + hex(s.charCodeAt(1)), atom: false, unit: false };
}

/** Merges code-unit ranges (surrogates allowed). */
function mergeUnits(ranges: [number, number][]): [number, number][] {
  ranges.sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [from, to] of ranges) {
    const last = out[out.length - 1];
    if (last !== undefined && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else out.push([from, to]);
  }
  return out;
}

function rangesSource(ranges: [number, number][]): string {
  let s = "";
  for (const [from, to] of ranges) {
    if (from === to) s += unitSource(from);
    else if (to === from + 1) s += unitSource(from) + unitSource(to);
    else s += `${unitSource(from)}-${unitSource(to)}`;
  }
  return s;
}

/** A class over code units: `[...]` or `[^...]`, whichever is shorter. */
function unitClass(units: [number, number][]): Emitted {
  if (units.length === 1 && units[0][0] === units[0][1]) {
    return { src: unitSource(units[0][0]), atom: true, unit: true };
  }
  if (units.length === 0) return { src: "[]", atom: true, unit: true };
  const holes: [number, number][] = [];
  let next = 0;
  for (const [from, to] of units) {
    if (from > next) holes.push([next, from - 1]);
    next = to + 1;
  }
  if (next <= 0xffff) holes.push([next, 0xffff]);
  if (holes.length === 0) return { src: "[\\s\\S]", atom: true, unit: true };
  const positive = `[${rangesSource(units)}]`;
  const negative = `[^${rangesSource(holes)}]`;
  return { src: negative.length < positive.length ? negative : positive, atom: true, unit: true };
}

function emitSet(set: CharSet): Emitted {
  const astral = intersect(set, [[0x10000, 0x10ffff]]);
  const bmp: [number, number][] = intersect(set, [[0, 0xffff]]).map((r) => [r[0], r[1]]);
  if (astral.length === 0) return unitClass(mergeUnits(bmp));
  if (size(astral) === 0x100000) {
    // Every astral character: written as code units, both surrogate halves included.
    return unitClass(mergeUnits([...bmp, [0xd800, 0xdfff]]));
  }
  const alternatives: string[] = [];
  if (bmp.length > 0) alternatives.push(unitClass(mergeUnits(bmp)).src);
  for (const [a, b] of astral) {
    const hiA = 0xd800 + ((a - 0x10000) >> 10);
    const loA = 0xdc00 + ((a - 0x10000) & 0x3ff);
    const hiB = 0xd800 + ((b - 0x10000) >> 10);
    const loB = 0xdc00 + ((b - 0x10000) & 0x3ff);
    if (hiA === hiB) {
      alternatives.push(hex(hiA) + unitClass([[loA, loB]]).src);
      continue;
    }
    alternatives.push(hex(hiA) + unitClass([[loA, 0xdfff]]).src);
    if (hiB - hiA > 1) {
      alternatives.push(unitClass([[hiA + 1, hiB - 1]]).src + "[\\udc00-\\udfff]");
    }
    alternatives.push(hex(hiB) + unitClass([[0xdc00, loB]]).src);
  }
  return { src: `(?:${alternatives.join("|")})`, atom: true, unit: false };
}
