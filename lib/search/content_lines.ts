/**
 * ripgrep's content output for one file: `path:N:text` for matches, `path-N-text` for context
 * lines (without line numbers `path:text` / `path-text`), and `--` between groups that are not
 * adjacent. Lines come from the decoded text (LF split, a CR before LF dropped).
 */

export interface ContentOptions {
  before: number;
  after: number;
  lineNumbers: boolean;
}

/** Lines longer than this many characters are cut, with `... [+N chars]`. */
export const MAX_LINE_CHARS = 2000;

/** Cuts a line at MAX_LINE_CHARS characters (never inside a surrogate pair). */
export function cutLine(line: string): string {
  if (line.length <= MAX_LINE_CHARS) return line;
  let end = MAX_LINE_CHARS;
  const code = line.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${line.slice(0, end)}... [+${line.length - end} chars]`;
}

/** `firstLine`: how many lines come before `text` in the file (a streamed chunk's offset). */
export function contentLines(
  path: string,
  text: string,
  matched: readonly number[],
  options: ContentOptions,
  firstLine = 0,
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
      const line = lines[i];
      const body = cutLine(line.endsWith("\r") ? line.slice(0, -1) : line);
      const sep = isMatch.has(i) ? ":" : "-";
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
  files: readonly (readonly [string, number, string[]] | readonly [string, number])[],
  options: ContentOptions,
): string[] {
  const out: string[] = [];
  const separate = separatesFiles(options);
  for (const file of files) {
    if (file.length !== 3) break;
    if (separate && out.length > 0) out.push("--");
    for (const line of file[2]) out.push(line);
  }
  return out;
}
