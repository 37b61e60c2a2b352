/**
 * find_references with `calls` (docs/tools.md "find_references"): the engine's call hierarchy of
 * the function, method or class at a position, incoming (who calls it) or outgoing (what it
 * calls), `depth` levels deep, as an indented list in depth-first order: a header naming the
 * item, then one line per call, `path:line:column: text  [kind name; calls it at L:C]` (incoming:
 * the sites are in that caller's file) or `[kind name; called at L:C]` (outgoing: the sites are
 * in the file of the line above it). Paged by calls like the references.
 */
import type { ToolContext, ToolResult } from "./tool.ts";
import { askEngine } from "./semantic_support.ts";
import { capNote, entrySize, hintLine, takePage } from "./paging.ts";
import { recordLinesAt } from "./shown_lines.ts";
import type { CallEntry, CallItem, Engine, FilePosition } from "../semantic/engine.ts";

export interface CallsRequest {
  direction: "incoming" | "outgoing";
  depth: number;
  head_limit?: number;
  offset: number;
}

/** Where an item is: `path:line:column`, a lib file by name. */
function placeOf(item: CallItem): string {
  return `${item.path ?? item.external ?? "(outside)"}:${item.line}:${item.column}`;
}

/** A file's top level is named by its path, without a line of text. */
function itemText(item: CallItem): string {
  return item.kind === "module" ? "(top level)" : item.text;
}

function callLine(entry: CallEntry, direction: CallsRequest["direction"]): string {
  const sites = entry.sites.map((s) => `${s.line}:${s.column}`).join(", ");
  const how = direction === "incoming" ? "calls it at" : "called at";
  const cycle = entry.cycle === true ? "; recursion, not walked again" : "";
  return `${"  ".repeat(entry.depth - 1)}${placeOf(entry)}: ${itemText(entry)}  ` +
    `[${entry.kind} ${entry.name}; ${how} ${sites}${cycle}]`;
}

/** The projects a walk searched (when several), as find_references names them. */
export function projectsLine(projects: readonly string[]): string {
  const named = projects.map((p) => p || "default project");
  return `Searched ${named.length} projects that hold the file: ${named.join(", ")}`;
}

export async function callHierarchy(
  ctx: ToolContext,
  asked: { engine: Engine; at: FilePosition },
  request: CallsRequest,
): Promise<ToolResult> {
  const { engine, at } = asked;
  const { direction, depth } = request;
  const answer = await askEngine(ctx, engine, { kind: "calls", at, direction, depth });
  const roots = answer.kind === "calls" ? answer.roots : [];
  const calls = answer.kind === "calls" ? answer.calls : [];
  const partial = answer.kind === "calls" ? answer.partial : undefined;
  const projects = answer.kind === "calls" ? answer.projects : undefined;
  const where = at.name !== undefined ? `"${at.name}"` : `column ${at.column}`;
  if (roots.length === 0) {
    const text = `No function, method or class at ${where} on line ${at.line} of "${at.path}" ` +
      `to list calls of; give the position of its name`;
    return {
      content: [{ type: "text", text }],
      structuredContent: {
        lines: [text],
        total: 0,
        total_files: 0,
        skipped: 0,
        offset: request.offset,
        truncated: false,
        resolution: "types",
        engine: engine.id,
      },
    };
  }
  const of = roots.map((r) => `${r.kind} ${r.name} (${placeOf(r)})`).join(", ");
  const header = `${direction === "incoming" ? "Incoming" : "Outgoing"} calls of ${of}, depth ` +
    `${depth}:`;
  const page = takePage(calls, {
    offset: request.offset,
    limit: request.head_limit ?? null,
    defaultLimit: Infinity,
    budgetChars: ctx.config.maxOutputChars,
  }, (entry) => entrySize(callLine(entry, direction), callLine(entry, direction)));
  const lines = [header, ...page.items.map((entry) => callLine(entry, direction))];
  if (calls.length === 0) lines.push(direction === "incoming" ? "No callers" : "No calls");
  if (page.nextOffset !== undefined) {
    lines.push(
      hintLine(
        `${calls.length - page.nextOffset} more calls`,
        page.nextOffset,
        capNote(page.cutBy),
      ),
    );
  }
  if (partial !== undefined) lines.push(`[${partial}]`);
  if (projects !== undefined) lines.push(projectsLine(projects));
  // With --write, the lines shown count as read for edit_file.
  await recordLinesAt(
    ctx,
    page.items.filter((e) => e.kind !== "module").map((e) => ({
      path: e.path,
      line: e.line,
      text: e.text,
    })),
  );
  const structured: Record<string, unknown> = {
    lines,
    total: calls.length,
    total_files: new Set(calls.filter((c) => c.path !== null).map((c) => c.path)).size,
    skipped: 0,
    offset: request.offset,
  };
  if (page.nextOffset !== undefined) structured.next_offset = page.nextOffset;
  structured.truncated = page.nextOffset !== undefined;
  structured.resolution = "types";
  structured.engine = engine.id;
  if (partial !== undefined) {
    structured.partial = true;
    structured.reason = partial;
  }
  if (projects !== undefined) structured.projects = projects;
  return { content: [{ type: "text", text: lines.join("\n") }], structuredContent: structured };
}
