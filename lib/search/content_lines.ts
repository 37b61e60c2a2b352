/**
 * ripgrep's content output for one file: `path:N:text` for matches, `path-N-text` for context
 * lines (without line numbers `path:text` / `path-text`), and `--` between groups that are not
 * adjacent. Lines come from the decoded text (LF split, a CR before LF dropped).
 */
import { cutLine, MAX_LINE_CHARS } from "../read/long_lines.ts";

export interface ContentOptions {
  before: number;
  after: number;
  lineNumbers: boolean;
}

/** Characters shown before a match that lies past the first MAX_LINE_CHARS of its line. */
export const LEAD_CHARS = 200;

/** Start of a window that does not split a surrogate pair. */
function safeStart(line: string, at: number): number {
  const code = line.charCodeAt(at);
  return code >= 0xdc00 && code <= 0xdfff && at > 0 ? at - 1 : at;
}

/**
 * A long line cut so that the match at `at` shows: the first MAX_LINE_CHARS characters when the
 * match starts within them (`cutLine`), else a window of MAX_LINE_CHARS characters starting a
 * little before it, as `[... N chars] <window>... [+M chars]`.
 */
export function cutAround(line: string, at: number): string {
  if (line.length <= MAX_LINE_CHARS || at < 0 || at < MAX_LINE_CHARS - LEAD_CHARS) {
    return cutLine(line);
  }
  const start = safeStart(line, Math.max(0, at - LEAD_CHARS));
  let end = Math.min(line.length, start + MAX_LINE_CHARS);
  const code = line.charCodeAt(end - 1);
  if (end < line.length && code >= 0xd800 && code <= 0xdbff) end--;
  const tail = end < line.length ? `... [+${line.length - end} chars]` : "";
  return `[... ${start} chars] ${line.slice(start, end)}${tail}`;
}

const LEAD = /^\[\.\.\. (\d+) chars\] /;
const TAIL = /\.\.\. \[\+(\d+) chars\]$/;

/**
 * True when `shown` is `line` as an answer showed it: the line itself, or one of the cut forms
 * of `cutLine` and `cutAround` (what the model saw of that line, with the rest counted).
 */
export function shownTextMatches(line: string, shown: string): boolean {
  if (shown === line) return true;
  let body = shown;
  let skip = 0;
  let more = 0;
  const lead = LEAD.exec(body);
  if (lead !== null) {
    skip = Number(lead[1]);
    body = body.slice(lead[0].length);
  }
  const tail = TAIL.exec(body);
  if (tail !== null) {
    more = Number(tail[1]);
    body = body.slice(0, body.length - tail[0].length);
  }
  if (lead === null && tail === null) return false;
  return line.length === skip + body.length + more && line.startsWith(body, skip);
}

/**
 * The line number and text of one content line of `path` (`path:N:text` or `path-N-text`), or
 * null for `--` and lines without numbers.
 */
export function parseContentLine(
  path: string,
  line: string,
): { line: number; text: string } | null {
  if (!line.startsWith(path)) return null;
  const sep = line[path.length];
  if (sep !== ":" && sep !== "-") return null;
  const end = line.indexOf(sep, path.length + 1);
  if (end < 0) return null;
  const digits = line.slice(path.length + 1, end);
  if (!/^[0-9]+$/.test(digits)) return null;
  return { line: Number(digits), text: line.slice(end + 1) };
}

/**
 * One file's content output built chunk by chunk (a streamed file), holding only a bounded window:
 * the lines not yet shown that may become before-context of the next match (at most `before` of
 * them, each already cut to MAX_LINE_CHARS and copied out of its chunk), and how many
 * after-context lines are still owed. Chunks must end at a line end and come in order. The
 * output is exactly what `contentLines` gives for the whole text, cut after `maxLines` lines.
 */
export class ContentCollector {
  readonly #path: string;
  readonly #options: ContentOptions;
  readonly #maxLines: number;
  readonly #locate: ((line: string) => number) | undefined;
  readonly #withContext: boolean;
  /** Unshown lines right before the next chunk: [0-based line number, body cut and copied]. */
  #window: [number, string][] = [];
  /** The last line shown (0-based), or -1. */
  #shownUpTo = -1;
  /** After-context lines still owed after `#shownUpTo`. */
  #afterLeft = 0;
  /** Lines of the file before the next chunk. */
  #nextLine = 0;
  /** The body of the one line `addCutLine` adds, already cut (the line itself is not held). */
  #cut: string | null = null;
  readonly lines: string[] = [];

  constructor(
    path: string,
    options: ContentOptions,
    limits: { maxLines?: number; locate?: (line: string) => number } = {},
  ) {
    this.#path = path;
    this.#options = options;
    this.#maxLines = limits.maxLines !== undefined && limits.maxLines > 0
      ? limits.maxLines
      : Infinity;
    this.#locate = limits.locate;
    this.#withContext = options.before > 0 || options.after > 0;
  }

  /**
   * One line too long to hold (long_line.ts), as it shows: `body` is already cut (around its
   * first match when it matches).
   */
  addCutLine(body: string, matched: boolean): void {
    this.#cut = body;
    try {
      this.add("\n", matched ? [0] : []);
    } finally {
      this.#cut = null;
    }
  }

  /** True once `maxLines` lines are held: later chunks only count. */
  get full(): boolean {
    return this.lines.length >= this.#maxLines;
  }

  /**
   * The next chunk of whole lines (it ends with an LF, unless it ends the file) and the
   * chunk-relative indexes of its matching lines, in order.
   */
  add(text: string, matched: readonly number[]): void {
    if (matched.length === 0 && this.#afterLeft === 0) {
      // Nothing to show from this chunk: only its line count and the last lines for the window.
      this.#skip(text);
      return;
    }
    const first = this.#nextLine;
    const split = text.split("\n");
    if (split.length > 0 && split[split.length - 1] === "") split.pop();
    this.#nextLine += split.length;
    if (this.full) return;
    const { before, after } = this.#options;
    for (const m of matched) {
      const at = first + m;
      // After-context owed to the previous match, up to this one.
      this.#owed(split, first, at - 1);
      if (this.full) return;
      const from = Math.max(0, at - before, this.#shownUpTo + 1);
      if (this.#withContext && this.#shownUpTo >= 0 && from > this.#shownUpTo + 1) this.#push("--");
      for (const [n, body] of this.#window) {
        if (n >= from) this.#push(this.#format(n, body, false));
      }
      this.#window = [];
      for (let n = Math.max(from, first); n < at; n++) {
        this.#push(this.#format(n, this.#body(split[n - first]), false));
      }
      const line = stripCr(split[m]);
      const body = this.#cut ??
        (this.#locate !== undefined && line.length > MAX_LINE_CHARS
          ? cutAround(line, this.#locate(line))
          : cutLine(line));
      this.#push(this.#format(at, body, true));
      this.#shownUpTo = at;
      this.#afterLeft = after;
      if (this.full) return;
    }
    this.#owed(split, first, first + split.length - 1);
    this.#keepWindow(split, first);
  }

  /** A chunk without matches and nothing owed: counts its lines, keeps its last `before`. */
  #skip(text: string): void {
    const first = this.#nextLine;
    let count = 0;
    for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) count++;
    if (text.length > 0 && !text.endsWith("\n")) count++;
    this.#nextLine += count;
    const before = this.#options.before;
    if (before === 0 || this.full) return;
    // The last `before` lines of the chunk, found from its end.
    let end = text.endsWith("\n") ? text.length - 1 : text.length;
    const tail: string[] = [];
    while (tail.length < before && tail.length < count) {
      const nl = text.lastIndexOf("\n", end - 1);
      tail.unshift(text.slice(nl + 1, end));
      end = nl;
    }
    this.#keepWindow(tail, first + count - tail.length);
  }

  /** Shows owed after-context lines of `split` up to line `last` (0-based, inclusive). */
  #owed(split: readonly string[], first: number, last: number): void {
    while (this.#afterLeft > 0 && this.#shownUpTo < last && !this.full) {
      const n = this.#shownUpTo + 1;
      const body = n >= first ? this.#body(split[n - first]) : this.#fromWindow(n);
      this.#push(this.#format(n, body, false));
      this.#shownUpTo = n;
      this.#afterLeft--;
    }
  }

  #fromWindow(n: number): string {
    for (const [k, body] of this.#window) if (k === n) return body;
    throw new RangeError(`line ${n} is not held`);
  }

  /** Keeps the last `before` unshown lines (this chunk's, then the window's) for the next one. */
  #keepWindow(split: readonly string[], first: number): void {
    const before = this.#options.before;
    if (before === 0) return;
    const end = first + split.length;
    const from = Math.max(end - before, this.#shownUpTo + 1);
    const kept: [number, string][] = this.#window.filter(([n]) => n >= from && n < first);
    for (let n = Math.max(from, first); n < end; n++) {
      // A copy, so that the window never keeps a whole chunk's text alive.
      kept.push([n, copyString(this.#body(split[n - first]))]);
    }
    this.#window = kept;
  }

  /** A line of a chunk as shown when it is not a match (or the cut line's body). */
  #body(raw: string): string {
    return this.#cut ?? cutLine(stripCr(raw));
  }

  #format(n: number, body: string, match: boolean): string {
    const sep = match ? ":" : "-";
    return this.#options.lineNumbers
      ? `${this.#path}${sep}${n + 1}${sep}${body}`
      : `${this.#path}${sep}${body}`;
  }

  #push(line: string): void {
    if (this.lines.length < this.#maxLines) this.lines.push(line);
  }
}

function stripCr(raw: string): string {
  return raw.endsWith("\r") ? raw.slice(0, -1) : raw;
}

/** A flat copy of `text` (a slice would keep its parent string alive). */
function copyString(text: string): string {
  return text.length < 16 ? text : JSON.parse(JSON.stringify(text));
}

/**
 * The content output of one whole text (`ContentCollector` over one chunk). `locate` gives where
 * a matching line's match starts (-1: unknown), so a long line is cut around its match rather
 * than before it.
 */
export function contentLines(
  path: string,
  text: string,
  matched: readonly number[],
  options: ContentOptions,
  locate?: (line: string) => number,
): string[] {
  const collector = new ContentCollector(path, options, { locate });
  collector.add(text, matched);
  return collector.lines;
}

/** With context lines, ripgrep prints `--` between files too (between groups it always does). */
export function separatesFiles(options: ContentOptions): boolean {
  return options.before > 0 || options.after > 0;
}

/**
 * The content output of several files in order, as ripgrep prints it: each file's lines, with
 * `--` between files when there is context. Stops at the first file without lines (its lines
 * were not collected), so the result is always a prefix of the full output.
 */
export function contentOutput(
  files: readonly { readonly lines?: readonly string[] }[],
  options: ContentOptions,
): string[] {
  const out: string[] = [];
  const separate = separatesFiles(options);
  for (const file of files) {
    if (file.lines === undefined) break;
    if (separate && out.length > 0) out.push("--");
    for (const line of file.lines) out.push(line);
  }
  return out;
}
