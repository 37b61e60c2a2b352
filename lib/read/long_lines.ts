/**
 * How every tool shows a long line (read_file, grep's content lines, find_references): cut at
 * MAX_LINE_CHARS characters, never inside a surrogate pair, with `... [+N chars]`.
 */

/** Lines longer than this many characters are cut, with `... [+N chars]`. */
export const MAX_LINE_CHARS = 2000;

/**
 * `line` cut at MAX_LINE_CHARS characters. `unseen`: characters of the line already left out
 * before it reached here (a streamed reader keeps only the head of a long line).
 */
export function cutLine(line: string, unseen = 0): string {
  if (line.length <= MAX_LINE_CHARS && unseen === 0) return line;
  let end = Math.min(MAX_LINE_CHARS, line.length);
  const code = line.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  const extra = unseen + line.length - end;
  return extra > 0 ? `${line.slice(0, end)}... [+${extra} chars]` : line;
}
