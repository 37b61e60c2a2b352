/**
 * Unified diffs with 3 lines of context for edit results (docs/tools.md "edit_file"). The lines
 * both texts share at the start and the end are cut off first, so the diff library (loaded on
 * first use, never at start-up) only sees the changed region; a region too different for a
 * line diff within bounds becomes one hunk that removes the old lines and adds the new ones.
 */

const CONTEXT = 3;
const MAX_EDIT_LENGTH = 1000;
const TIMEOUT_MS = 200;

type DiffModule = typeof import("diff");
let library: Promise<DiffModule> | null = null;

/** Loads the diff library (call ahead to take its cost off the first edit). */
export function loadDiffLibrary(): Promise<DiffModule> {
  library ??= import("diff");
  return library;
}

interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[];
}

/** Lines with their `\n` kept (the last one may lack it). */
function splitKeep(text: string): string[] {
  const out: string[] = [];
  let from = 0;
  while (from < text.length) {
    const nl = text.indexOf("\n", from);
    const end = nl < 0 ? text.length : nl + 1;
    out.push(text.slice(from, end));
    from = end;
  }
  return out;
}

/** One hunk line per text line, with git's marker after a line that has no newline. */
function hunkLines(prefix: string, lines: readonly string[], out: string[]): void {
  for (const line of lines) {
    if (line.endsWith("\n")) out.push(prefix + line.slice(0, -1));
    else out.push(prefix + line, "\\ No newline at end of file");
  }
}

/**
 * The unified diff of `before` -> `after` (plain text, LF line ends), `""` when they are equal.
 * `path` names both sides (`a/path`, `b/path`); `before === null` is a new file (`/dev/null`).
 */
export async function unifiedDiff(
  path: string,
  before: string | null,
  after: string,
): Promise<string> {
  if (before === after) return "";
  const oldAll = splitKeep(before ?? "");
  const newAll = splitKeep(after);
  let same = 0;
  const shorter = Math.min(oldAll.length, newAll.length);
  while (same < shorter && oldAll[same] === newAll[same]) same++;
  let tail = 0;
  while (
    tail < shorter - same &&
    oldAll[oldAll.length - 1 - tail] === newAll[newAll.length - 1 - tail]
  ) tail++;
  const start = Math.max(0, same - CONTEXT);
  const oldEnd = Math.min(oldAll.length, oldAll.length - tail + CONTEXT);
  const newEnd = newAll.length - (oldAll.length - oldEnd);
  const oldPart = oldAll.slice(start, oldEnd);
  const newPart = newAll.slice(start, newEnd);

  let hunks: Hunk[];
  const { structuredPatch } = await loadDiffLibrary();
  const patch = structuredPatch("a", "b", oldPart.join(""), newPart.join(""), "", "", {
    context: CONTEXT,
    maxEditLength: MAX_EDIT_LENGTH,
    timeout: TIMEOUT_MS,
  });
  if (patch !== undefined) {
    hunks = patch.hunks.map((h) => ({
      ...h,
      oldStart: h.oldStart + start,
      newStart: h.newStart + start,
    }));
  } else {
    // Too different for a bounded line diff: one hunk replacing the whole changed region.
    const lines: string[] = [];
    const lead = same - start;
    hunkLines(" ", oldPart.slice(0, lead), lines);
    hunkLines("-", oldPart.slice(lead, oldPart.length - (oldEnd - (oldAll.length - tail))), lines);
    hunkLines("+", newPart.slice(lead, newPart.length - (oldEnd - (oldAll.length - tail))), lines);
    hunkLines(" ", oldPart.slice(oldPart.length - (oldEnd - (oldAll.length - tail))), lines);
    hunks = [{
      oldStart: start + 1,
      oldLines: oldPart.length,
      newStart: start + 1,
      newLines: newPart.length,
      lines,
    }];
  }
  const out = [`--- ${before === null ? "/dev/null" : `a/${path}`}`, `+++ b/${path}`];
  for (const h of hunks) {
    const oldStart = h.oldLines === 0 ? h.oldStart - 1 : h.oldStart;
    const newStart = h.newLines === 0 ? h.newStart - 1 : h.newStart;
    out.push(`@@ -${oldStart},${h.oldLines} +${newStart},${h.newLines} @@`);
    for (const line of h.lines) out.push(line); // no spread: a hunk may hold 100k+ lines
  }
  return out.join("\n");
}

/** Lines the diff adds and removes (hunk lines; the `---`/`+++` header lines excluded). */
export function diffCounts(diff: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  let inHunks = false;
  for (const line of diff.split("\n")) {
    if (line.startsWith("@@")) inHunks = true;
    else if (!inHunks) continue;
    else if (line.startsWith("+")) added++;
    else if (line.startsWith("-")) removed++;
  }
  return { added, removed };
}

/**
 * The diff cut at a line boundary so that it stays under `budget` characters both as text and as
 * a JSON string (tabs, quotes and backslashes count twice there), with a last line saying how many
 * lines were left out and how many the whole diff adds and removes; unchanged when it fits (or when `budget` is 0: no budget).
 */
export function budgetDiff(diff: string, budget: number): string {
  if (budget === 0 || JSON.stringify(diff).length <= budget) return diff;
  const lines = diff.split("\n");
  let size = 0;
  let kept = 0;
  // Each line costs its JSON form: its escaped text, plus the escaped newline (the quotes' 2).
  while (kept < lines.length && size + JSON.stringify(lines[kept]).length <= budget - 80) {
    size += JSON.stringify(lines[kept]).length;
    kept++;
  }
  const { added, removed } = diffCounts(diff);
  return `${lines.slice(0, kept).join("\n")}\n[... ${
    lines.length - kept
  } more diff lines; +${added} -${removed} lines in all]`;
}
