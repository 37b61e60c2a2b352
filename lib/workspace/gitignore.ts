/**
 * One gitignore-format file (.gitignore, .ignore, .rgignore, .git/info/exclude) compiled to
 * regular expressions, with ripgrep's reading of the format. Patterns and paths are compared
 * ASCII case-insensitively (WORKSPACE.md): callers pass paths through asciiLower.
 */
import { asciiLower } from "./names.ts";

interface Rule {
  re: RegExp;
  negate: boolean;
  dirOnly: boolean;
}

/** Result of a match: 1 ignored, -1 re-included by a `!` rule, 0 no rule matched. */
export type IgnoreMatch = 1 | -1 | 0;

export class IgnoreFile {
  readonly #rules: Rule[];
  readonly #any: RegExp | null;

  constructor(text: string) {
    const rules: Rule[] = [];
    for (const line of text.split("\n")) {
      const rule = compileLine(line);
      if (rule !== null) rules.push(rule);
    }
    this.#rules = rules;
    this.#any = rules.length === 0 ? null : new RegExp(rules.map((r) => r.re.source).join("|"));
  }

  get empty(): boolean {
    return this.#rules.length === 0;
  }

  /** Matches `lowerRel` (relative to this file's folder, already ASCII-lowercased). */
  match(lowerRel: string, isDir: boolean): IgnoreMatch {
    if (this.#any === null || !this.#any.test(lowerRel)) return 0;
    const rules = this.#rules;
    for (let i = rules.length - 1; i >= 0; i--) {
      const rule = rules[i];
      if (rule.dirOnly && !isDir) continue;
      if (rule.re.test(lowerRel)) return rule.negate ? -1 : 1;
    }
    return 0;
  }
}

function compileLine(raw: string): Rule | null {
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
  const body = globToRegexSource(asciiLower(line));
  const source = anchored ? `^${body}$` : `^(?:.*/)?${body}$`;
  try {
    return { re: new RegExp(source), negate, dirOnly };
  } catch {
    return null; // a pattern git would not understand either: skipped
  }
}

const SPECIAL = new Set([..."\\^$.|?*+()[]{}/"]);

function escapeChar(c: string): string {
  return SPECIAL.has(c) ? `\\${c}` : c;
}

/** Translates one glob (gitignore dialect, `/` separated) to a regular expression source. */
export function globToRegexSource(glob: string): string {
  let out = "";
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
          out += ".*";
        } else {
          out += "(?:.*/)?";
          j++;
        }
      } else {
        out += "[^/]*";
      }
      i = j;
    } else if (c === "?") {
      out += "[^/]";
      i++;
    } else if (c === "[") {
      const parsed = parseClass(glob, i);
      if (parsed === null) {
        out += "\\[";
        i++;
      } else {
        out += parsed.source;
        i = parsed.end;
      }
    } else if (c === "\\") {
      if (i + 1 < n) {
        out += escapeChar(glob[i + 1]);
        i += 2;
      } else {
        out += "\\\\";
        i++;
      }
    } else {
      out += escapeChar(c);
      i++;
    }
  }
  return out;
}

function parseClass(glob: string, start: number): { source: string; end: number } | null {
  let j = start + 1;
  let negate = false;
  if (glob[j] === "!" || glob[j] === "^") {
    negate = true;
    j++;
  }
  let body = "";
  let first = true;
  while (j < glob.length) {
    const c = glob[j];
    if (c === "]" && !first) {
      if (body === "") return null;
      return { source: negate ? `[^/${body}]` : `[${body}]`, end: j + 1 };
    }
    first = false;
    if (c === "\\" && j + 1 < glob.length) {
      const next = glob[j + 1];
      body += /[A-Za-z0-9]/.test(next) ? next : `\\${next}`;
      j += 2;
      continue;
    }
    if (c === "-" && body !== "" && glob[j + 1] !== "]") {
      body += "-";
    } else {
      body += c === "[" || c === "]" || c === "^" || c === "-" ? `\\${c}` : c;
    }
    j++;
  }
  return null;
}
