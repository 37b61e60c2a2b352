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
const LEAD_CHARS = 200;

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
 * `firstLine`: how many lines come before `text` in the file (a streamed chunk's offset).
 * `locate` gives where a matching line's match starts (-1: unknown), so a long line is cut
 * around its match rather than before it.
 */
export function contentLines(
  path: string,
  text: string,
  matched: readonly number[],
  options: ContentOptions,
  firstLine = 0,
  locate?: (line: string) => number,
): string[] {
  const lines = text.split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  const out: string[] = [];
  const isMatch = new Set(matched);
  const withContext = options.before > 0 || options.after > 0;
  let shownUpTo = -1;
  for (const m of matched) {
    const from = Math.max(0, m - options.before, shownUpTo + 1);
    const to = Math.min(lines.length - 1, m + options.after);
    if (withContext && shownUpTo >= 0 && from > shownUpTo + 1) out.push("--");
    for (let i = from; i <= to; i++) {
      const raw = lines[i];
      const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
      const match = isMatch.has(i);
      const body = match && locate !== undefined && line.length > MAX_LINE_CHARS
        ? cutAround(line, locate(line))
        : cutLine(line);
      const sep = match ? ":" : "-";
      out.push(
        options.lineNumbers
          ? `${path}${sep}${firstLine + i + 1}${sep}${body}`
          : `${path}${sep}${body}`,
      );
    }
    if (to > shownUpTo) shownUpTo = to;
  }
  return out;
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
