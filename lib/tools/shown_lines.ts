/**
 * Answers that show numbered lines of work-tree files tell the session so (only with --write),
 * which lets edit_file change those lines without a read_file first (docs/tools.md "Read before
 * write"). One call per answer: `recordShownLines` for lines the tool holds by file (blame,
 * type-aware references), `recordLinesAt` for lines across files (definitions, symbols),
 * `recordContentLines` for grep-style `path:N:text` / `path-N-text` output lines.
 */
import type { ToolContext } from "./tool.ts";
import { recordLinesShown, type ShownLine } from "../edits/record_read.ts";
import { parseContentLine } from "../search/content_lines.ts";

export type { ShownLine };

/** Files one answer records at most (each is read again and hashed). */
const MAX_FILES = 100;

/** Records `shown` lines of the work-tree file `rel`; a no-op without --write. */
export async function recordShownLines(
  ctx: ToolContext,
  rel: string,
  shown: readonly ShownLine[],
): Promise<void> {
  const edits = ctx.session.edits;
  if (edits === null || shown.length === 0) return;
  await recordLinesShown(edits, ctx.workspace, rel, shown, ctx.config.maxReadBytes);
}

/** A line some answer showed with its file and number (a definition, a symbol's line). */
export type ShownAt = ShownLine & { path: string | null };

/**
 * Records lines shown across files, each with its path (null: not a workspace file, skipped),
 * in one call per answer: go_to_definition's definitions, find_symbol's symbols.
 */
export async function recordLinesAt(ctx: ToolContext, shown: readonly ShownAt[]): Promise<void> {
  if (ctx.session.edits === null || shown.length === 0) return;
  const byFile = new Map<string, ShownLine[]>();
  for (const { path, ...line } of shown) {
    if (path === null) continue;
    let list = byFile.get(path);
    if (list === undefined) {
      if (byFile.size >= MAX_FILES) break;
      byFile.set(path, list = []);
    }
    list.push(line);
  }
  await recordAll(ctx, byFile);
}

/**
 * Records the numbered lines of grep-style output `lines` (`--` and unnumbered lines are
 * skipped); `paths` are the files the lines belong to, in output order.
 */
export async function recordContentLines(
  ctx: ToolContext,
  lines: readonly string[],
  paths: readonly string[],
): Promise<void> {
  if (ctx.session.edits === null || lines.length === 0) return;
  const byFile = new Map<string, ShownLine[]>();
  let k = 0;
  for (const line of lines) {
    if (line === "--") continue;
    for (let j = k; j < paths.length; j++) {
      const parsed = parseContentLine(paths[j], line);
      if (parsed === null) continue;
      k = j;
      let list = byFile.get(paths[j]);
      if (list === undefined) {
        if (byFile.size >= MAX_FILES) return await recordAll(ctx, byFile);
        byFile.set(paths[j], list = []);
      }
      list.push(parsed);
      break;
    }
  }
  await recordAll(ctx, byFile);
}

async function recordAll(ctx: ToolContext, byFile: Map<string, ShownLine[]>): Promise<void> {
  for (const [rel, shown] of byFile) await recordShownLines(ctx, rel, shown);
}
