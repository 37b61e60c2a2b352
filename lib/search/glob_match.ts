/**
 * ripgrep `-g` glob semantics: a glob without `/` matches a basename at any depth; with `/` it
 * matches the path relative to the search folder (a leading `/` only anchors); `*` and `?` never
 * cross `/`; `**` as a whole segment spans folders; `{a,b}` alternates; `[...]`/`[!...]` classes;
 * `\` escapes; dotfiles match; case-sensitive. A leading `!` excludes (folders included), and a
 * trailing `/` matches folders only.
 */

export interface FileFilter {
  /** True when the file at `rel` (relative to the search folder, `/`-separated) is kept. */
  (rel: string): boolean;
}

interface CompiledGlob {
  negated: boolean;
  dirOnly: boolean;
  anchored: boolean;
  regex: RegExp;
}

/** Throws a RangeError with a sentence for the model when the glob cannot be parsed. */
export function compileGlob(glob: string): CompiledGlob {
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
  const source = translate(text, glob);
  return { negated, dirOnly, anchored, regex: new RegExp(`^(?:${source})$`) };
}

const REGEX_SPECIAL = new Set([..."\\^$.|?*+()[]{}/"]);

function escapeChar(c: string): string {
  return REGEX_SPECIAL.has(c) ? "\\" + c : c;
}

function translate(text: string, original: string): string {
  let out = "";
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    if (c === "*") {
      if (text[i + 1] === "*") {
        const atSegmentStart = i === 0 || text[i - 1] === "/";
        const next = text[i + 2];
        if (atSegmentStart && next === "/") {
          out += "(?:[^/]*/)*";
          i += 3;
          continue;
        }
        if (atSegmentStart && next === undefined) {
          out += ".*";
          i += 2;
          continue;
        }
        out += "[^/]*";
        i += 2;
        continue;
      }
      out += "[^/]*";
      i++;
    } else if (c === "?") {
      out += "[^/]";
      i++;
    } else if (c === "\\") {
      if (i + 1 >= n) throw new RangeError(`Invalid glob "${original}": it ends with a lone "\\"`);
      out += escapeChar(text[i + 1]);
      i += 2;
    } else if (c === "[") {
      const end = classEnd(text, i);
      if (end < 0) throw new RangeError(`Invalid glob "${original}": unclosed "["`);
      let body = text.slice(i + 1, end);
      let negate = false;
      if (body.startsWith("!") || body.startsWith("^")) {
        negate = true;
        body = body.slice(1);
      }
      let cls = "";
      for (let j = 0; j < body.length; j++) {
        const b = body[j];
        if (b === "\\" && j + 1 < body.length) {
          cls += "\\" + body[j + 1];
          j++;
        } else if (b === "-") {
          cls += "-";
        } else {
          cls += /[\]\\^[]/.test(b) ? "\\" + b : b;
        }
      }
      out += negate ? `(?!/)[^${cls}]` : `(?!/)[${cls}]`;
      i = end + 1;
    } else if (c === "{") {
      const end = braceEnd(text, i);
      if (end < 0) throw new RangeError(`Invalid glob "${original}": unclosed "{"`);
      const alternatives = splitTopLevel(text.slice(i + 1, end));
      out += "(?:" + alternatives.map((a) => translate(a, original)).join("|") + ")";
      i = end + 1;
    } else {
      out += escapeChar(c);
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
  if (glob.anchored) return glob.regex.test(rel);
  const slash = rel.lastIndexOf("/");
  return glob.regex.test(slash < 0 ? rel : rel.slice(slash + 1));
}

/**
 * A filter from ripgrep-style globs (later globs win, like repeated `-g`): with any non-negated
 * glob, a file must match one; a negated glob that matches the file or one of its folders drops it.
 */
export function globFilter(globs: readonly string[]): FileFilter {
  const compiled = globs.map(compileGlob);
  const hasWhitelist = compiled.some((g) => !g.negated);
  const hasNegated = compiled.some((g) => g.negated);
  return (rel: string): boolean => {
    // Folders first (a negated glob on a folder prunes it, as rg does), then the file itself.
    let from = 0;
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
