/**
 * One gitignore-format file (.gitignore, .ignore, .rgignore, .git/info/exclude) compiled to
 * linear-time automata (glob_set.ts), with ripgrep's reading of the format. Patterns and paths are compared
 * ASCII case-insensitively (docs/workspace.md): callers pass paths through asciiLower.
 */
import {
  ANY,
  type CharClass,
  CLASS,
  GlobSet,
  LIT,
  ONE,
  SEGS,
  STAR,
  type Token,
} from "./glob_set.ts";
import { asciiLower } from "./names.ts";

interface Rule {
  negate: boolean;
  dirOnly: boolean;
}

/** Result of a match: 1 ignored, -1 re-included by a `!` rule, 0 no rule matched. */
export type IgnoreMatch = 1 | -1 | 0;

/**
 * One file's rules as two linear-time automata (glob_set.ts): rules without a `/` match the
 * last segment, the others the whole relative path; the last matching rule decides.
 */
export class IgnoreFile {
  readonly #rules: Rule[] = [];
  readonly #base: GlobSet;
  readonly #path: GlobSet;
  readonly #closed: boolean;
  readonly #fileAllowed = (id: number) => !this.#rules[id].dirOnly;

  /** A file that could not be read within its bounds: it ignores everything it governs. */
  static closed(): IgnoreFile {
    return new IgnoreFile("", { closed: true });
  }

  /**
   * Throws a RangeError when the file holds more than `maxRules` rules or its wildcard rules
   * more than `maxStates` automaton states (matching costs up to that many steps a character).
   */
  constructor(
    text: string,
    bounds: { maxRules?: number; maxStates?: number; closed?: boolean } = {},
  ) {
    this.#closed = bounds.closed === true;
    const maxRules = bounds.maxRules ?? Infinity;
    const maxStates = bounds.maxStates ?? Infinity;
    let states = 0;
    const base: (Token[] | string)[] = [];
    const baseIds: number[] = [];
    const path: (Token[] | string)[] = [];
    const pathIds: number[] = [];
    let from = 0;
    while (from <= text.length) {
      let nl = text.indexOf("\n", from);
      if (nl < 0) nl = text.length;
      const compiled = compileLine(text.slice(from, nl));
      from = nl + 1;
      if (compiled === null) continue;
      const id = this.#rules.length;
      if (id >= maxRules) throw new RangeError(`it holds more than ${maxRules} rules`);
      if (typeof compiled.tokens !== "string") {
        states += compiled.tokens.length + 1;
        if (states > maxStates) {
          throw new RangeError(`its wildcard rules are longer than ${maxStates} steps in all`);
        }
      }
      this.#rules.push({ negate: compiled.negate, dirOnly: compiled.dirOnly });
      if (compiled.anchored) {
        path.push(compiled.tokens);
        pathIds.push(id);
      } else {
        base.push(compiled.tokens);
        baseIds.push(id);
      }
    }
    this.#base = new GlobSet(base, baseIds);
    this.#path = new GlobSet(path, pathIds);
  }

  get empty(): boolean {
    return this.#rules.length === 0 && !this.#closed;
  }

  /** How many rules the file holds. */
  get size(): number {
    return this.#rules.length;
  }

  /** Matches `lowerRel` (relative to this file's folder, already ASCII-lowercased). */
  match(lowerRel: string, isDir: boolean): IgnoreMatch {
    if (this.#closed) return 1;
    const allowed = isDir ? undefined : this.#fileAllowed;
    const slash = lowerRel.lastIndexOf("/");
    const best = Math.max(
      this.#base.best(slash < 0 ? lowerRel : lowerRel.slice(slash + 1), allowed),
      this.#path.best(lowerRel, allowed),
    );
    if (best < 0) return 0;
    return this.#rules[best].negate ? -1 : 1;
  }
}

const WILD = /[*?[\\]/;

function compileLine(
  raw: string,
): { tokens: Token[] | string; negate: boolean; dirOnly: boolean; anchored: boolean } | null {
  let line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
  if (line === "" || line.startsWith("#")) return null;
  while (line.endsWith(" ") && !line.endsWith("\\ ")) line = line.slice(0, -1);
  if (line === "") return null;
  let negate = false;
  if (line.startsWith("!")) {
    negate = true;
    line = line.slice(1);
  } else if (line.startsWith("\\!") || line.startsWith("\\#")) {
    line = line.slice(1);
  }
  let dirOnly = false;
  if (line.endsWith("/")) {
    dirOnly = true;
    line = line.slice(0, -1);
    if (line.endsWith("\\")) line = line.slice(0, -1);
  }
  let anchored = false;
  if (line.startsWith("/")) {
    anchored = true;
    line = line.slice(1);
  } else if (line.includes("/")) {
    anchored = true;
  }
  if (line === "") return null;
  const lower = asciiLower(line);
  // Most lines are plain names or paths: no automaton needed.
  const tokens = WILD.test(lower) ? globTokens(lower) : lower;
  return { tokens, negate, dirOnly, anchored };
}

/** Translates one glob (gitignore dialect, `/` separated) to automaton tokens. */
export function globTokens(glob: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const n = glob.length;
  while (i < n) {
    const c = glob[i];
    if (c === "*") {
      let j = i;
      while (j < n && glob[j] === "*") j++;
      const atStart = i === 0 || glob[i - 1] === "/";
      const atEnd = j === n || glob[j] === "/";
      if (j - i >= 2 && atStart && atEnd) {
        if (j === n) {
          out.push({ k: ANY });
        } else {
          out.push({ k: SEGS });
          j++;
        }
      } else {
        out.push({ k: STAR });
      }
      i = j;
    } else if (c === "?") {
      out.push({ k: ONE });
      i++;
    } else if (c === "[") {
      const parsed = parseClass(glob, i);
      if (parsed === null) {
        out.push({ k: LIT, c: 91 });
        i++;
      } else {
        out.push({ k: CLASS, cls: parsed.cls });
        i = parsed.end;
      }
    } else if (c === "\\") {
      out.push({ k: LIT, c: glob.charCodeAt(i + 1 < n ? i + 1 : i) });
      i += 2;
    } else {
      out.push({ k: LIT, c: glob.charCodeAt(i) });
      i++;
    }
  }
  return out;
}

function parseClass(glob: string, start: number): { cls: CharClass; end: number } | null {
  let j = start + 1;
  let negate = false;
  if (glob[j] === "!" || glob[j] === "^") {
    negate = true;
    j++;
  }
  const ranges: number[] = [];
  let first = true;
  while (j < glob.length) {
    const c = glob[j];
    if (c === "]" && !first) {
      if (ranges.length === 0) return null;
      return { cls: { negate, ranges }, end: j + 1 };
    }
    first = false;
    let code = glob.charCodeAt(j);
    if (c === "\\" && j + 1 < glob.length) {
      code = glob.charCodeAt(j + 1);
      j++;
    }
    j++;
    if (glob[j] === "-" && j + 1 < glob.length && glob[j + 1] !== "]") {
      let hi = glob.charCodeAt(j + 1);
      j += 2;
      if (glob.charCodeAt(j - 1) === 92 && j < glob.length) {
        hi = glob.charCodeAt(j);
        j++;
      }
      if (hi >= code) ranges.push(code, hi);
    } else {
      ranges.push(code, code);
    }
  }
  return null;
}
