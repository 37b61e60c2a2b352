/**
 * ripgrep `-g` glob semantics: a glob without `/` matches a basename at any depth; with `/` it
 * matches the path from the workspace root, whatever folder is searched, as `rg -g GLOB PATH`
 * run at the root does (a leading `/` only anchors); `*` and `?` never
 * cross `/`; `**` as a whole segment spans folders; `{a,b}` alternates; `[...]`/`[!...]` classes;
 * `\` escapes; dotfiles match; case-sensitive. A leading `!` excludes (folders included), and a
 * trailing `/` matches folders only. Matching is linear-time (glob_set.ts); braces expand to at
 * most MAX_BRACE_EXPANSION patterns.
 */
import { ANY, CLASS, GlobSet, LIT, ONE, SEGS, STAR, type Token } from "../workspace/glob_set.ts";

export interface FileFilter {
  /** True when the file at `rel` (root-relative, `/`-separated) is kept. */
  (rel: string): boolean;
}

interface CompiledGlob {
  negated: boolean;
  dirOnly: boolean;
  anchored: boolean;
  set: GlobSet;
  /** Each brace alternative's leading plain text (what every path it matches starts with). */
  prefixes: string[];
}

/** Longest glob accepted, and the most patterns its braces may expand to (docs/limits.md). */
export const MAX_GLOB_LENGTH = 4096;
export const MAX_BRACE_EXPANSION = 256;

/** Throws a RangeError with a sentence for the model when the glob cannot be parsed. */
export function compileGlob(glob: string): CompiledGlob {
  if (glob.length > MAX_GLOB_LENGTH) {
    throw new RangeError(
      `Invalid glob "${glob.slice(0, 60)}...": it is longer than ${MAX_GLOB_LENGTH} characters`,
    );
  }
  let text = glob;
  let negated = false;
  if (text.startsWith("!")) {
    negated = true;
    text = text.slice(1);
  } else if (text.startsWith("\\!")) {
    text = text.slice(1);
  }
  let dirOnly = false;
  if (text.length > 1 && text.endsWith("/") && !text.endsWith("\\/")) {
    dirOnly = true;
    text = text.slice(0, -1);
  }
  const anchored = text.includes("/");
  if (text.startsWith("/")) text = text.slice(1);
  if (text === "") throw new RangeError(`Invalid glob "${glob}": it matches nothing`);
  const alternatives = expandBraces(text, glob);
  const patterns = alternatives.map((a) => tokenize(a, glob));
  const prefixes = patterns.map(literalPrefix);
  const set = new GlobSet(patterns, patterns.map((_, i) => i));
  return { negated, dirOnly, anchored, set, prefixes };
}

function literalPrefix(tokens: readonly Token[]): string {
  let out = "";
  for (const t of tokens) {
    if (t.k !== LIT) break;
    out += String.fromCharCode(t.c);
  }
  return out;
}

/**
 * False when the glob is sure to match no file below the root-relative folder `base`: it has a
 * `/` (so it matches root-relative paths) and every alternative starts with plain text that
 * leaves `base` (`test_tutorial/**` below `tests`). True when it may match, or `base` is the root.
 */
export function globCanMatchUnder(glob: string, base: string): boolean {
  if (base === "") return true;
  const compiled = compileGlob(glob);
  if (compiled.negated || !compiled.anchored) return true;
  const folder = `${base}/`;
  return compiled.prefixes.some((p) => p.startsWith(folder) || folder.startsWith(p));
}

/**
 * The brace-free globs that `{a,b}` groups (nested too) stand for, at most MAX_BRACE_EXPANSION:
 * `{,}` thirty times would be a billion patterns.
 */
function expandBraces(text: string, original: string): string[] {
  const out: string[] = [];
  const pending = [text];
  while (pending.length > 0) {
    const item = pending.pop()!;
    const open = firstBrace(item);
    if (open < 0) {
      out.push(item);
      continue;
    }
    const end = braceEnd(item, open);
    if (end < 0) throw new RangeError(`Invalid glob "${clip(original)}": unclosed "{"`);
    const prefix = item.slice(0, open);
    const suffix = item.slice(end + 1);
    const alternatives = splitTopLevel(item.slice(open + 1, end));
    for (let k = alternatives.length - 1; k >= 0; k--) {
      pending.push(prefix + alternatives[k] + suffix);
    }
    if (out.length + pending.length > MAX_BRACE_EXPANSION) {
      throw new RangeError(
        `Invalid glob "${clip(original)}": its braces expand to more than ${MAX_BRACE_EXPANSION} ` +
          "patterns; use fewer alternatives",
      );
    }
  }
  return out;
}

function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}...` : text;
}

/** Index of the first `{` outside escapes and classes, or -1. */
function firstBrace(text: string): number {
  for (let j = 0; j < text.length; j++) {
    const c = text[j];
    if (c === "\\") j++;
    else if (c === "[") {
      const end = classEnd(text, j);
      if (end > 0) j = end;
    } else if (c === "{") return j;
  }
  return -1;
}

/** One brace-free glob as automaton tokens. */
function tokenize(text: string, original: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    if (c === "*") {
      if (text[i + 1] === "*") {
        const atSegmentStart = i === 0 || text[i - 1] === "/";
        const next = text[i + 2];
        if (atSegmentStart && next === "/") {
          out.push({ k: SEGS });
          i += 3;
          continue;
        }
        if (atSegmentStart && next === undefined) {
          out.push({ k: ANY });
          i += 2;
          continue;
        }
        while (text[i] === "*") i++;
        out.push({ k: STAR });
        continue;
      }
      out.push({ k: STAR });
      i++;
    } else if (c === "?") {
      out.push({ k: ONE });
      i++;
    } else if (c === "\\") {
      if (i + 1 >= n) {
        throw new RangeError(`Invalid glob "${clip(original)}": it ends with a lone "\\"`);
      }
      out.push({ k: LIT, c: text.charCodeAt(i + 1) });
      i += 2;
    } else if (c === "[") {
      const end = classEnd(text, i);
      if (end < 0) throw new RangeError(`Invalid glob "${clip(original)}": unclosed "["`);
      let j = i + 1;
      let negate = false;
      if (text[j] === "!" || text[j] === "^") {
        negate = true;
        j++;
      }
      const chars: number[] = [];
      const ranges: number[] = [];
      while (j < end) {
        let code: number;
        if (text[j] === "\\" && j + 1 < end) {
          code = text.charCodeAt(j + 1);
          j += 2;
        } else {
          code = text.charCodeAt(j);
          j++;
        }
        if (text[j] === "-" && j + 1 < end) {
          let hi: number;
          if (text[j + 1] === "\\" && j + 2 < end) {
            hi = text.charCodeAt(j + 2);
            j += 3;
          } else {
            hi = text.charCodeAt(j + 1);
            j += 2;
          }
          if (hi < code) {
            throw new RangeError(`Invalid glob "${clip(original)}": invalid range in a class`);
          }
          ranges.push(code, hi);
        } else {
          chars.push(code);
        }
      }
      for (const code of chars) ranges.push(code, code);
      out.push({ k: CLASS, cls: { negate, ranges } });
      i = end + 1;
    } else {
      out.push({ k: LIT, c: text.charCodeAt(i) });
      i++;
    }
  }
  return out;
}

/** Index of the `]` closing the class opened at `start`, or -1. A `]` first in the class is literal. */
function classEnd(text: string, start: number): number {
  let j = start + 1;
  if (text[j] === "!" || text[j] === "^") j++;
  if (text[j] === "]") j++;
  for (; j < text.length; j++) {
    if (text[j] === "\\") j++;
    else if (text[j] === "]") return j;
  }
  return -1;
}

function braceEnd(text: string, start: number): number {
  let depth = 0;
  for (let j = start; j < text.length; j++) {
    const c = text[j];
    if (c === "\\") j++;
    else if (c === "[") {
      const end = classEnd(text, j);
      if (end > 0) j = end;
    } else if (c === "{") depth++;
    else if (c === "}") {
      depth--;
      if (depth === 0) return j;
    }
  }
  return -1;
}

function splitTopLevel(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  for (let j = 0; j < body.length; j++) {
    const c = body[j];
    if (c === "\\") j++;
    else if (c === "[") {
      const end = classEnd(body, j);
      if (end > 0) j = end;
    } else if (c === "{") depth++;
    else if (c === "}") depth--;
    else if (c === "," && depth === 0) {
      parts.push(body.slice(from, j));
      from = j + 1;
    }
  }
  parts.push(body.slice(from));
  return parts;
}

function globMatches(glob: CompiledGlob, rel: string, isDir: boolean): boolean {
  if (glob.dirOnly && !isDir) return false;
  if (glob.anchored) return glob.set.matches(rel);
  const slash = rel.lastIndexOf("/");
  return glob.set.matches(slash < 0 ? rel : rel.slice(slash + 1));
}

/**
 * A filter from ripgrep-style globs (later globs win, like repeated `-g`): with any non-negated
 * glob, a file must match one; a negated glob that matches the file or one of its folders below
 * `base` drops it (`base` itself and the folders above it are where the search starts: rg never
 * matches them, so `!tests/` searching `tests` drops nothing).
 */
export function globFilter(globs: readonly string[], base = ""): FileFilter {
  const compiled = globs.map(compileGlob);
  const hasWhitelist = compiled.some((g) => !g.negated);
  const hasNegated = compiled.some((g) => g.negated);
  const start = base === "" ? 0 : base.length + 1;
  return (rel: string): boolean => {
    // Folders first (a negated glob on a folder prunes it, as rg does), then the file itself.
    let from = start;
    while (hasNegated) {
      const slash = rel.indexOf("/", from);
      if (slash < 0) break;
      const dir = rel.slice(0, slash);
      for (let k = compiled.length - 1; k >= 0; k--) {
        const g = compiled[k];
        if (g.negated && globMatches(g, dir, true)) return false;
      }
      from = slash + 1;
    }
    for (let k = compiled.length - 1; k >= 0; k--) {
      const g = compiled[k];
      if (globMatches(g, rel, false)) return !g.negated;
    }
    return !hasWhitelist;
  };
}

/**
 * A glob as the model meant it: a leading `./` (after an optional `!`) names the folder searched,
 * which ripgrep's globs never spell, so it is dropped (`./src/*.ts` is `src/*.ts`).
 */
export function normalizeGlob(glob: string): string {
  const negated = glob.startsWith("!") ? "!" : "";
  let body = glob.slice(negated.length);
  while (body.startsWith("./")) body = body.slice(2);
  if (body === "" || body === ".") body = "**";
  return negated + body;
}
