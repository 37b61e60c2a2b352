/**
 * The hooks answers call after showing file lines (only with --write): the session remembers
 * which lines of which version the model saw (docs/tools.md "Read before write").
 *
 * - resources/read showed a whole file: `recordBytesRead`.
 * - read_file showed a page: `recordFileRead` with the page's line range.
 * - Any other answer that showed numbered lines of work-tree files (grep content, find_references,
 *   git_blame, go_to_definition, find_symbol): `recordLinesShown` with the line numbers and the
 *   text as shown (or the symbol named on the line). The file is read
 *   again and only lines whose text is still what was shown count, so a file changed in between
 *   records nothing it did not show.
 */
import { readFullySync, type Workspace } from "../workspace/workspace.ts";
import { shownTextMatches } from "../search/content_lines.ts";
import type { EditSession } from "./edit_session.ts";
import type { LineRange } from "./read_tracker.ts";

/** What the reader saw when it opened the file. */
export interface Seen {
  abs: string;
  size: number;
  mtimeMs: number;
}

/**
 * A line an answer showed: its 1-based number and its text as shown (cut forms allowed), or,
 * for an answer that named the line by a symbol on it (find_symbol's `path:line: kind name`),
 * that `word`: the line counts when it still holds the word whole.
 */
export type ShownLine = { line: number; text: string } | { line: number; word: string };

/** Characters of an identifier (Unicode letters and digits, `_` and `$`). */
const IDENTIFIER = /[\p{L}\p{N}_$]/u;

/** True when `line` holds `word` with no identifier character right before or after it. */
function holdsWord(line: string, word: string): boolean {
  if (word === "") return false;
  for (let at = line.indexOf(word); at >= 0; at = line.indexOf(word, at + 1)) {
    const before = at > 0 && IDENTIFIER.test(line[at - 1]);
    const after = at + word.length < line.length && IDENTIFIER.test(line[at + word.length]);
    if (!before && !after) return true;
  }
  return false;
}

function showsLine(line: string, want: ShownLine): boolean {
  return "text" in want ? shownTextMatches(line, want.text) : holdsWord(line, want.word);
}

/** Records bytes the reader returned whole (resources/read). */
export async function recordBytesRead(
  edits: EditSession,
  seen: Seen,
  bytes: Uint8Array,
): Promise<void> {
  await edits.reads.recordBytes(seen.abs, bytes, seen, "all");
}

/**
 * The whole content of `rel` when it is still as seen (same real path, size and mtime) and at
 * most `maxBytes` (checked before anything is read: a 10 GB file costs nothing).
 */
function readAgain(
  ws: Workspace,
  rel: string,
  seen: Seen | null,
  maxBytes: number,
): Promise<Reread | null> {
  return ws.openFile(rel).then((opened) => {
    try {
      if (opened.size > maxBytes) return null;
      if (seen !== null) {
        if (
          opened.abs !== seen.abs || opened.size !== seen.size || opened.mtimeMs !== seen.mtimeMs
        ) return null;
      }
      const bytes = readFullySync(opened.file, new Uint8Array(opened.size));
      if (bytes.length !== opened.size) return null;
      return { abs: opened.abs, bytes, size: opened.size, mtimeMs: opened.mtimeMs };
    } finally {
      opened.file.close();
    }
  });
}

interface Reread {
  abs: string;
  bytes: Uint8Array;
  size: number;
  mtimeMs: number;
}

/**
 * Records the lines `range` of a file read_file returned a page of: its whole content is hashed
 * afresh, and kept only when the file is still as the reader saw it (same size and mtime). Files
 * over `maxBytes` cannot be edited, so they are not hashed.
 */
export async function recordFileRead(
  edits: EditSession,
  ws: Workspace,
  rel: string,
  seen: Seen & { maxBytes: number; range?: LineRange },
): Promise<void> {
  if (seen.size > seen.maxBytes) return;
  const again = await readAgain(ws, rel, seen, seen.maxBytes);
  if (again === null) return;
  await edits.reads.recordBytes(seen.abs, again.bytes, seen, seen.range ? [seen.range] : "all");
}

const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * Records numbered lines some answer showed of the work-tree file `rel`: each counts when the
 * file's line of that number (a CR before LF dropped, the BOM off line 1) is what was shown.
 * Never throws for a file that vanished or cannot be read: it then records nothing.
 */
export async function recordLinesShown(
  edits: EditSession,
  ws: Workspace,
  rel: string,
  shown: readonly ShownLine[],
  maxBytes: number,
): Promise<void> {
  if (shown.length === 0) return;
  let again: Reread | null;
  try {
    again = await readAgain(ws, rel, null, maxBytes);
  } catch {
    return;
  }
  if (again === null || again.size > maxBytes || again.bytes.indexOf(0) >= 0) return;
  const text = decoder.decode(again.bytes);
  const wanted = [...shown].sort((a, b) => a.line - b.line);
  const ranges: LineRange[] = [];
  let lineNo = 1;
  let from = 0;
  for (const want of wanted) {
    while (lineNo < want.line && from <= text.length) {
      const nl = text.indexOf("\n", from);
      if (nl < 0) {
        from = text.length + 1;
        break;
      }
      from = nl + 1;
      lineNo++;
    }
    if (lineNo !== want.line || from > text.length) break;
    const nl = text.indexOf("\n", from);
    let line = text.slice(from, nl < 0 ? text.length : nl);
    if (line.endsWith("\r")) line = line.slice(0, -1);
    if (lineNo === 1 && line.charCodeAt(0) === 0xfeff) line = line.slice(1);
    if (showsLine(line, want)) ranges.push({ start: want.line, end: want.line });
  }
  if (ranges.length === 0) return;
  await edits.reads.recordBytes(again.abs, again.bytes, again, ranges);
}
