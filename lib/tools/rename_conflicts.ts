/**
 * The safe rename's check (docs/tools.md "rename_symbol"): before anything is written, the
 * renamed texts are given to the engine as an overlay and asked two questions any engine with
 * overlays answers: the diagnostics of the touched files and of the files that import one of them
 * directly, against the same before the rename (an entry the rename adds is a conflict: a
 * duplicate import, a second declaration of the new name in a scope it touches), and the
 * references of the renamed symbol after the rename (a renamed place it no longer reaches now
 * resolves to another declaration: shadowing; a place of the new name it newly reaches was
 * captured). Nothing here names a language.
 */
import type { ToolContext } from "./tool.ts";
import { askEngine } from "./semantic_support.ts";
import type { Diagnostic, Engine, FilePosition, Reference, SpanEdit } from "../semantic/engine.ts";

export interface Conflict {
  path: string;
  line: number;
  column: number;
  message: string;
}

/** A renamed file: its text before and after the rename (as the engine reads it). */
export interface RenamedText {
  rel: string;
  after: string;
}

/**
 * The conflicts of a rename whose `spans` the engine gave for `at`, checked on `files` (the
 * renamed texts); sorted by path, line, column.
 */
export async function renameConflicts(
  ctx: ToolContext,
  engine: Engine,
  at: FilePosition,
  newName: string,
  spans: readonly SpanEdit[],
  files: readonly RenamedText[],
): Promise<Conflict[]> {
  const overlay: Record<string, string> = {};
  for (const f of files) overlay[f.rel] = f.after;
  const touched = files.map((f) => f.rel);
  const out = [
    ...await newDiagnostics(ctx, engine, touched, overlay),
    ...await resolutionChanges(ctx, engine, at, newName, spans, overlay),
  ];
  const seen = new Set<string>();
  return out.filter((c) => {
    const key = `${c.path}:${c.line}:${c.column}:${c.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  }).sort((a, b) =>
    a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line || a.column - b.column
  );
}

async function diagnosticsOf(
  ctx: ToolContext,
  engine: Engine,
  files: string[],
  overlay?: Record<string, string>,
): Promise<Diagnostic[]> {
  const answer = await askEngine(ctx, engine, { kind: "diagnostics", path: "", files, overlay });
  return answer.kind === "diagnostics" ? answer.diagnostics : [];
}

/** Entries after the rename that were not there before (by path, line, code: lines stay). */
async function newDiagnostics(
  ctx: ToolContext,
  engine: Engine,
  touched: string[],
  overlay: Record<string, string>,
): Promise<Conflict[]> {
  const before = await diagnosticsOf(ctx, engine, touched);
  const after = await diagnosticsOf(ctx, engine, touched, overlay);
  const had = new Map<string, number>();
  const keyOf = (d: Diagnostic) => `${d.path}\0${d.line}\0${d.code}`;
  for (const d of before) had.set(keyOf(d), (had.get(keyOf(d)) ?? 0) + 1);
  const out: Conflict[] = [];
  for (const d of after) {
    const left = had.get(keyOf(d)) ?? 0;
    if (left > 0) {
      had.set(keyOf(d), left - 1);
      continue;
    }
    const message = `the rename would add ${d.category} ${d.code}: ${d.message}`;
    out.push({ path: d.path, line: d.line, column: d.column, message });
  }
  return out;
}

/** Where a place of the old texts is in the renamed ones (a rename moves columns only). */
class PlaceMap {
  readonly #byLine = new Map<string, SpanEdit[]>();
  readonly #newName: string;

  constructor(spans: readonly SpanEdit[], newName: string) {
    this.#newName = newName;
    for (const s of spans) {
      const key = `${s.path}\0${s.line}`;
      this.#byLine.set(key, [...(this.#byLine.get(key) ?? []), s]);
    }
    for (const list of this.#byLine.values()) list.sort((a, b) => a.column - b.column);
  }

  /** The renamed place of a column; at an edit's start, where the new name stands in it. */
  map(path: string, line: number, column: number): number {
    let shift = 0;
    for (const s of this.#byLine.get(`${path}\0${line}`) ?? []) {
      if (s.end_line !== s.line) break;
      if (s.column === column) return column + shift + this.nameOffset(s);
      if (s.column > column) break;
      shift += s.new_text.length - (s.end_column - s.column);
    }
    return column + shift;
  }

  /** Where the new name stands in an edit's text (after a prefix such as `radius: `). */
  nameOffset(s: SpanEdit): number {
    if (s.new_text.startsWith(this.#newName)) return 0;
    const at = s.new_text.lastIndexOf(this.#newName);
    return at < 0 ? 0 : at;
  }
}

/** Renamed places that resolve elsewhere after the rename, and places newly captured. */
async function resolutionChanges(
  ctx: ToolContext,
  engine: Engine,
  at: FilePosition,
  newName: string,
  spans: readonly SpanEdit[],
  overlay: Record<string, string>,
): Promise<Conflict[]> {
  const places = new PlaceMap(spans, newName);
  const plain = spans.filter((s) => s.new_text === newName && s.line === s.end_line);
  const anchor = plain.find((s) => s.path === at.path && s.line === at.line) ?? plain[0];
  if (anchor === undefined) return [];
  const key = (path: string, line: number, column: number) => `${path}:${line}:${column}`;
  const beforeAnswer = await askEngine(ctx, engine, { kind: "references", at });
  const before = new Set(
    (beforeAnswer.kind === "references" ? beforeAnswer.references : []).map((r) =>
      key(r.path, r.line, places.map(r.path, r.line, r.column))
    ),
  );
  const afterAt: FilePosition = {
    path: anchor.path,
    line: anchor.line,
    column: places.map(anchor.path, anchor.line, anchor.column),
  };
  const answer = await askEngine(ctx, engine, { kind: "references", at: afterAt, overlay });
  const after: Reference[] = answer.kind === "references" ? answer.references : [];
  const reached = new Set(after.map((r) => key(r.path, r.line, r.column)));
  const out: Conflict[] = [];
  for (const s of spans) {
    const column = places.map(s.path, s.line, s.column);
    if (s.line !== s.end_line || reached.has(key(s.path, s.line, column))) continue;
    out.push({
      path: s.path,
      line: s.line,
      column: s.column,
      message: `"${s.old_text}" renamed here would refer to another declaration of "${newName}"` +
        ` (shadowed in this scope)`,
    });
  }
  // The text the rename writes (`camelize as toCamelCase`), where the places are its own.
  const written = spans.filter((s) => s.line === s.end_line).map((s) => {
    const start = places.map(s.path, s.line, s.column) - places.nameOffset(s);
    return { path: s.path, line: s.line, start, end: start + s.new_text.length };
  });
  const isWritten = (r: Reference) =>
    written.some((w) =>
      w.path === r.path && w.line === r.line && r.column >= w.start && r.column < w.end
    );
  for (const r of after) {
    if (before.has(key(r.path, r.line, r.column)) || isWritten(r)) continue;
    out.push({
      path: r.path,
      line: r.line,
      column: r.column,
      message: `this "${newName}" would refer to the renamed symbol after the rename ` +
        `(it meant another declaration of that name)`,
    });
  }
  return out;
}
