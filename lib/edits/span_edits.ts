/**
 * Span edits applied to files (the edit layer's half of a type engine's rename; the engines
 * answer spans as LSP's TextEdit and TypeScript's TextChange): each file is read now, every span
 * must still hold the text the engine read there (`old_text`), and the new text of each file is
 * computed in memory. Writing is batch_write.ts's (all or none, each file by the rules of a
 * single write); a dry run shows the same texts. Lines count as read_file counts them (a line ends at LF), columns are
 * UTF-16 code units, both 1-based, in the text without its BOM.
 */
import type { Workspace } from "../workspace/workspace.ts";
import { type BatchFile, BatchRefusal } from "./batch_write.ts";
import { decodeText } from "./text_form.ts";
import type { SpanEdit } from "../semantic/engine.ts";

/**
 * One replacement as an engine answers it (lib/semantic/engine.ts SpanEdit): `line`:`column` up
 * to, not including, `end_line`:`end_column`.
 */
export type Span = SpanEdit;

/** A file's spans applied: its text before and after (batch_write's BatchFile), its spans. */
export interface SpannedFile extends BatchFile {
  spans: Span[];
}

/**
 * Every file's text with its spans applied, files by path, spans by place; BatchRefusal (nothing
 * changed) when a file cannot be read as text, a span is outside it, spans overlap, or a span's
 * text is not what the engine read.
 */
export function applySpans(
  ws: Workspace,
  spans: readonly Span[],
  options: { maxBytes: number; verb: string },
): SpannedFile[] {
  const byPath = new Map<string, Span[]>();
  for (const span of spans) byPath.set(span.path, [...(byPath.get(span.path) ?? []), span]);
  const out: SpannedFile[] = [];
  for (const path of [...byPath.keys()].sort()) {
    const list = byPath.get(path)!.sort((a, b) => a.line - b.line || a.column - b.column);
    const before = readText(ws, path, options);
    out.push({ rel: path, before, after: spliced(before, list, options.verb), spans: list });
  }
  return out;
}

function readText(ws: Workspace, path: string, options: { maxBytes: number; verb: string }) {
  const text = decodeText(ws.readFileSync(path, { maxBytes: options.maxBytes }));
  if (text === "binary" || text === "not-utf8") {
    throw new BatchRefusal(
      `Cannot ${options.verb} "${path}": it is no longer UTF-8 text; nothing was changed`,
    );
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** `text` with the sorted spans replaced; BatchRefusal for a span that no longer fits. */
function spliced(text: string, spans: readonly Span[], verb: string): string {
  const starts = [0];
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) starts.push(at + 1);
  const parts: string[] = [];
  let from = 0;
  for (const span of spans) {
    const start = offsetOf(starts, span.line, span.column);
    const end = offsetOf(starts, span.end_line, span.end_column);
    if (start === null || end === null || end < start || start < from || end > text.length) {
      throw stale(span, verb);
    }
    if (text.slice(start, end) !== span.old_text) throw stale(span, verb);
    parts.push(text.slice(from, start), span.new_text);
    from = end;
  }
  parts.push(text.slice(from));
  return parts.join("");
}

function offsetOf(starts: readonly number[], line: number, column: number): number | null {
  const start = starts[line - 1];
  return start === undefined || column < 1 ? null : start + column - 1;
}

function stale(span: Span, verb: string): BatchRefusal {
  return new BatchRefusal(
    `Cannot ${verb} "${span.path}": line ${span.line} changed since the engine read it ` +
      `(${JSON.stringify(span.old_text)} is no longer at column ${span.column}); nothing was ` +
      `changed: call again`,
  );
}
