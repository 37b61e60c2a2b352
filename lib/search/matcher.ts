/**
 * The per-file matcher. Lines are split on LF and a CR before the LF is dropped, so a match
 * never spans lines (ripgrep's rule). Counts are matching lines (`rg -c`), except in multiline
 * mode with a pattern that can match a newline, where rg counts matches.
 *
 * Speed: the file is decoded once (UTF-8, see decode.ts), required
 * literals are found with String#indexOf, other patterns by one whole-text regex scan whose
 * candidates are verified line by line with the per-line regex. Restarting after a candidate's
 * own line keeps the scan exact: no matching line is ever skipped.
 */
import type { RegexAnalysis } from "./regex_analysis.ts";
import type { PatternSpec } from "./pattern.ts";

export interface ScanOptions {
  /** Also return the matched line indexes (0-based), sorted. */
  wantLines: boolean;
}

export interface ScanResult {
  /** Matching lines (rg -c), or matches in multiline mode when the pattern can span lines. */
  count: number;
  /** 0-based indexes of the lines to show as matches (when asked and count > 0). */
  lines?: number[];
}

export interface Matcher {
  readonly spec: PatternSpec;
  readonly analysis: RegexAnalysis;
  /** Scans decoded text; `text` must not contain NUL (binary files are skipped before). */
  scanText(text: string, options: ScanOptions): ScanResult;
  /** Where the first match in one line (CR dropped) starts, or -1. */
  locate(line: string): number;
}

function stripCr(line: string): string {
  return line.endsWith("\r") ? line.slice(0, -1) : line;
}

/** Start of the line holding `pos`. */
function lineStart(text: string, pos: number): number {
  return pos === 0 ? 0 : text.lastIndexOf("\n", pos - 1) + 1;
}

function lineEnd(text: string, pos: number): number {
  const end = text.indexOf("\n", pos);
  return end < 0 ? text.length : end;
}

/** Counts LFs in text[from, to). */
function countNewlines(text: string, from: number, to: number): number {
  let n = 0;
  let p = text.indexOf("\n", from);
  while (p >= 0 && p < to) {
    n++;
    p = text.indexOf("\n", p + 1);
  }
  return n;
}

/** True when `pos` is the end of the text after a final LF (or of an empty text): no line there. */
function pastLastLine(text: string, pos: number): boolean {
  return pos >= text.length && (text.length === 0 || text.charCodeAt(text.length - 1) === 10);
}

/** Characters one whole-text regex exec looks at, at most (then the window ends at a line end). */
export const WINDOW_CHARS = 8 * 1024;

export function createMatcher(spec: PatternSpec): Matcher {
  return new PatternMatcher(spec);
}

/**
 * One compiled pattern and the scan strategies it allows, cheapest first: literal indexOf, one
 * regex pass over windows of lines, a line-by-line regex, or the whole-file multiline regex.
 */
class PatternMatcher implements Matcher {
  readonly spec: PatternSpec;
  readonly analysis: RegexAnalysis;
  /** The pattern as it tests one line (CR dropped). */
  readonly #lineRegex: RegExp;
  /** `multiline` and the pattern can span lines: the whole file is matched at once. */
  readonly #multiline: boolean;

  constructor(spec: PatternSpec) {
    this.spec = spec;
    this.analysis = spec.analysis;
    this.#lineRegex = new RegExp(spec.source, spec.flags);
    this.#multiline = spec.multiline && spec.analysis.wholeFile;
  }

  #verify(text: string, start: number, end: number): boolean {
    this.#lineRegex.lastIndex = 0;
    return this.#lineRegex.test(stripCr(text.slice(start, end)));
  }

  /** Walks candidate line starts in order; `next(from)` gives the next candidate position. */
  #collect(
    text: string,
    next: (from: number) => number,
    options: ScanOptions,
  ): ScanResult {
    let count = 0;
    const lines: number[] | undefined = options.wantLines ? [] : undefined;
    let lineNo = 0;
    let counted = 0;
    let from = 0;
    while (from <= text.length) {
      const pos = next(from);
      if (pos < 0 || pastLastLine(text, pos)) break;
      const start = lineStart(text, pos);
      const end = lineEnd(text, pos);
      if (this.#verify(text, start, end)) {
        count++;
        if (lines !== undefined) {
          lineNo += countNewlines(text, counted, start);
          counted = start;
          lines.push(lineNo);
        }
      }
      from = end + 1;
    }
    return lines === undefined ? { count } : { count, lines };
  }

  #scanLiterals(text: string, literals: string[], options: ScanOptions): ScanResult {
    if (literals.length === 1) {
      const literal = literals[0];
      if (literal === "") return this.#scanLines(text, options);
      return this.#collect(text, (from) => text.indexOf(literal, from), options);
    }
    // Several literals: the nearest next occurrence of any of them.
    const nextAt = literals.map(() => -2);
    return this.#collect(text, (from) => {
      let best = -1;
      for (let k = 0; k < literals.length; k++) {
        if (nextAt[k] !== -1 && nextAt[k] < from) nextAt[k] = text.indexOf(literals[k], from);
        const at = nextAt[k];
        if (at >= 0 && (best < 0 || at < best)) best = at;
      }
      return best;
    }, options);
  }

  /**
   * One regex pass over windows of whole lines (the source never matches across a line end, so
   * cutting at line ends is exact). A window bounds the backtracking of one exec: V8 counts it
   * per exec and, past its limit, reruns that exec in the slow linear-time engine, which on a
   * 7 MB file made `\w{5}\s+\w{5}...` 60x slower (docs/BENCHMARKS.md "Regex translation").
   */
  #scanWhole(text: string, options: ScanOptions): ScanResult {
    const regex = new RegExp(this.analysis.lineSource, this.spec.flags + "gm");
    if (text.length <= WINDOW_CHARS) {
      return this.#collect(text, (from) => {
        regex.lastIndex = from;
        const m = regex.exec(text);
        return m === null ? -1 : m.index;
      }, options);
    }
    return this.#collect(text, (start) => {
      // `start` is always a line start (0, or just after the LF ending a candidate's line).
      let from = start;
      while (from < text.length) {
        let end = from + WINDOW_CHARS;
        if (end >= text.length) end = text.length;
        else {
          const nl = text.indexOf("\n", end);
          end = nl < 0 ? text.length : nl;
        }
        regex.lastIndex = 0;
        const m = regex.exec(text.slice(from, end));
        if (m !== null) return from + m.index;
        from = end + 1;
      }
      return -1;
    }, options);
  }

  #scanLines(text: string, options: ScanOptions): ScanResult {
    let count = 0;
    const lines: number[] | undefined = options.wantLines ? [] : undefined;
    let start = 0;
    let lineNo = 0;
    while (!pastLastLine(text, start)) {
      const end = lineEnd(text, start);
      if (this.#verify(text, start, end)) {
        count++;
        lines?.push(lineNo);
      }
      lineNo++;
      start = end + 1;
    }
    return lines === undefined ? { count } : { count, lines };
  }

  #scanMultiline(raw: string, options: ScanOptions): ScanResult {
    const text = raw.includes("\r\n") ? raw.replaceAll("\r\n", "\n") : raw;
    const regex = new RegExp(this.spec.source, this.spec.flags + "g");
    let count = 0;
    const shown = new Set<number>();
    let lineNo = 0;
    let counted = 0;
    /**
     * Where the last match ended. ripgrep does not count an empty match there as another match
     * (its match iterator skips it), but its searcher still shows that line.
     */
    let lastEnd = -1;
    for (;;) {
      const m = regex.exec(text);
      if (m === null) break;
      const start = m.index;
      const stop = m[0].length === 0 ? start : start + m[0].length - 1;
      if (m[0].length === 0) regex.lastIndex++;
      // Nor does it find the empty match at the very end of the text (after a last line with
      // or without its LF).
      if (start >= text.length) break;
      if (m[0].length > 0 || start !== lastEnd) count++;
      lastEnd = start + m[0].length;
      if (options.wantLines) {
        lineNo += countNewlines(text, counted, start);
        counted = start;
        const span = countNewlines(text, start, Math.min(stop, text.length));
        for (let k = 0; k <= span; k++) {
          if (pastLastLine(text, lineEndPos(text, start, k))) break;
          shown.add(lineNo + k);
        }
      }
    }
    if (!options.wantLines) return { count };
    return { count, lines: [...shown].sort((a, b) => a - b) };
  }

  scanText(text: string, options: ScanOptions): ScanResult {
    if (this.#multiline) return this.#scanMultiline(text, options);
    const literals = this.analysis.literals;
    // One literal: String#indexOf. Several: one regex pass beats one indexOf pass per literal.
    if (literals !== null && (literals.length === 1 || this.analysis.lookaround)) {
      return this.#scanLiterals(text, literals, options);
    }
    if (!this.analysis.lookaround) return this.#scanWhole(text, options);
    return this.#scanLines(text, options);
  }

  /** Where the first match in one line starts, or -1 (a bound function: it is passed on). */
  readonly locate = (line: string): number => {
    this.#lineRegex.lastIndex = 0;
    const m = this.#lineRegex.exec(line);
    return m === null ? -1 : m.index;
  };
}

/** Position of the start of the k-th line after the line holding `pos`. */
function lineEndPos(text: string, pos: number, k: number): number {
  let p = lineStart(text, pos);
  for (let i = 0; i < k; i++) {
    const nl = text.indexOf("\n", p);
    if (nl < 0) return text.length;
    p = nl + 1;
  }
  return p;
}
