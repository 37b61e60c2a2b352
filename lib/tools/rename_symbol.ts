/**
 * rename_symbol: the rename of the symbol at a position across the workspace by the engine that
 * handles its file (docs/tools.md "rename_symbol"): exactly the engine's spans (TypeScript's
 * rename locations with their prefix and suffix text), applied by the edit layer
 * (lib/edits/span_edits.ts) and shown as a unified diff; a dry run without --write, and with
 * --write applied to every file or none (lib/edits/batch_write.ts). Before anything is written
 * (and in the dry run) the rename is checked in memory (rename_conflicts.ts): with conflicts it
 * is refused, nothing written, unless `force` is true.
 */
import { type Tool, type ToolContext, ToolError, type ToolResult } from "./tool.ts";
import { editAnnotations, readOnlyAnnotations } from "./annotations.ts";
import {
  askEngine,
  engineFor,
  engineLanguages,
  positionProperties,
  readPosition,
} from "./semantic_support.ts";
import { diffCounts, unifiedDiff } from "../edits/diff.ts";
import { BatchRefusal, checkTargets, writeBatch } from "../edits/batch_write.ts";
import { applySpans, type Span, type SpannedFile } from "../edits/span_edits.ts";
import { toPlain } from "../edits/text_form.ts";
import { WorkspaceError } from "../workspace/workspace.ts";
import { MESSAGE_CAP_BYTES } from "../message_size.ts";
import type { Answer, Untouched } from "../semantic/engine.ts";
import { type Conflict, renameConflicts } from "./rename_conflicts.ts";

const inputSchema = {
  type: "object",
  properties: {
    ...positionProperties("symbol to rename"),
    new_name: { type: "string", description: "The new name (an identifier)" },
    dry_run: { type: "boolean", description: "Only show the diff (default without --write)" },
    diff_offset: { type: "integer", minimum: 0, description: "Diff lines to skip" },
    force: { type: "boolean", default: false, description: "Write despite conflicts" },
  },
  required: ["path", "line", "new_name"],
  additionalProperties: false,
};

const outputSchema = {
  type: "object",
  properties: {
    files: {
      type: "array",
      description: "Changed files",
      items: {
        type: "object",
        properties: {
          path: { type: "string", description: "Path" },
          edits: {
            type: "array",
            description: "`line:column: old -> new`",
            items: { type: "string" },
          },
        },
        required: ["path", "edits"],
      },
    },
    total_edits: { type: "integer", description: "Spans replaced" },
    diff: { type: "string", description: "Unified diff" },
    diff_next_offset: { type: "integer", description: "Next diff_offset" },
    note: { type: "string", description: "Untouched" },
    applied: { type: "boolean", description: "false: dry run or conflicts" },
    conflicts: { type: "array", description: "{path, line, column, message}; absent: unchecked" },
    projects: { type: "array", description: "Configs" },
    engine: { type: "string", description: "Engine id" },
  },
  required: ["files", "total_edits", "diff", "applied"],
  additionalProperties: false,
};

function editLine(e: Span): string {
  return `${e.line}:${e.column}: ${e.old_text} -> ${e.new_text}`;
}

async function diffOf(files: readonly SpannedFile[]): Promise<string> {
  const parts: string[] = [];
  for (const f of files) {
    parts.push(await unifiedDiff(f.rel, toPlain(f.before).plain, toPlain(f.after).plain));
  }
  return parts.join("\n");
}

function wantsWrite(args: Record<string, unknown>, write: boolean): boolean {
  if (args.dry_run === false && !write) {
    throw new ToolError(
      "Renaming files needs the server's --write flag; without it rename_symbol only shows the " +
        "diff (dry_run: true)",
    );
  }
  return write && args.dry_run !== true;
}

async function run(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult> {
  const at = readPosition(ctx, args);
  const apply = wantsWrite(args, ctx.session.edits !== null);
  const diffOffset = typeof args.diff_offset === "number" ? args.diff_offset : 0;
  if (apply && diffOffset > 0) {
    throw new ToolError(
      "diff_offset pages the diff of a dry run; give dry_run: true with it (a rename that " +
        "writes sends its whole diff); nothing was changed",
    );
  }
  const engine = engineFor(ctx, at.path);
  if (engine === null) {
    throw new ToolError(
      `Cannot rename in "${at.path}": rename_symbol works on ${engineLanguages(ctx)} files; ` +
        `use find_references and edit_file for other languages`,
    );
  }
  const newName = String(args.new_name);
  const answer = await askEngine(ctx, engine, { kind: "rename", at, newName });
  const spans = answer.kind === "rename" ? answer.edits : [];
  if (spans.length === 0) {
    throw new ToolError(`Nothing to rename at line ${at.line} of "${at.path}"`);
  }
  const edits = ctx.session.edits;
  let files: SpannedFile[];
  let conflicts: Conflict[] | null = null;
  let write = apply;
  try {
    files = applySpans(ctx.workspace, spans, {
      maxBytes: ctx.config.maxReadBytes,
      verb: "rename in",
    });
    // Every file must be writable by this session, with or without --write.
    checkTargets(ctx.workspace, files, "rename in");
    // The safe rename: checked in memory before anything is written (and in the dry run).
    if (engine.overlays === true) {
      conflicts = await renameConflicts(ctx, engine, at, newName, spans, files);
      if (conflicts.length > 0 && args.force !== true) write = false;
    }
    if (write && edits !== null) {
      await writeBatch(ctx.workspace, edits, files, {
        verb: "rename in",
        maxBytes: ctx.config.maxReadBytes,
      });
    }
  } catch (error) {
    if (error instanceof BatchRefusal) throw new ToolError(error.message);
    if (error instanceof WorkspaceError) {
      throw new ToolError(`${error.message}; the rename was refused, nothing was changed`);
    }
    throw error;
  }
  return await answerOf(ctx, files, answer, {
    newName,
    apply,
    write,
    conflicts,
    engine: engine.id,
    diffOffset,
  });
}

/** The lines about conflicts: none found, not checked, or their count and one line each. */
function conflictLines(conflicts: readonly Conflict[] | null, apply: boolean, write: boolean) {
  if (conflicts === null) return ["Conflicts not checked: this engine cannot check them"];
  if (conflicts.length === 0) return ["No conflicts found"];
  const n = conflicts.length;
  const head = `${n} conflict${n === 1 ? "" : "s"}: ` +
    (write
      ? "renamed anyway (force)"
      : apply
      ? "the rename was refused, nothing was written; give force: true to write it anyway"
      : "this rename would be refused unless force: true");
  return [head, ...conflicts.map((c) => `${c.path}:${c.line}:${c.column}: ${c.message}`)];
}

/** The answer: with conflicts the text starts with their count, then the head, edits, diff. */
async function answerOf(
  ctx: ToolContext,
  files: readonly SpannedFile[],
  answer: Answer,
  how: {
    newName: string;
    apply: boolean;
    write: boolean;
    conflicts: Conflict[] | null;
    engine: string;
    diffOffset: number;
  },
): Promise<ToolResult> {
  const { newName, apply, write, conflicts } = how;
  const total = files.reduce((n, f) => n + f.spans.length, 0);
  const page = diffPage(await diffOf(files), {
    offset: how.diffOffset,
    budget: write ? APPLIED_DIFF_CHARS : dryRunBudget(ctx.config.maxOutputChars),
  });
  const listed = files.map((f) => ({ path: f.rel, edits: f.spans.map(editLine) }));
  const verb = write ? "Renamed" : apply ? "Refused to rename" : "Would rename";
  const head = `${verb} to "${newName}": ${total} edit${
    total === 1 ? "" : "s"
  } in ${files.length} file${files.length === 1 ? "" : "s"}${
    apply ? "" : " (dry run: nothing written)"
  }`;
  const checked = conflictLines(conflicts, apply, write);
  const lines = conflicts !== null && conflicts.length > 0
    ? [...checked, head]
    : [head, ...checked];
  const note = answer.kind === "rename" ? untouchedNote(answer.untouched) : null;
  if (note !== null) lines.push(note);
  if (answer.kind === "rename") lines.push(...answer.notes ?? []);
  const projects = answer.kind === "rename" ? answer.projects : undefined;
  if (projects !== undefined) {
    lines.push(
      `Searched ${projects.length} projects that hold the file: ${
        projects.map((p) => p || "default project").join(", ")
      }`,
    );
  }
  for (const f of listed) for (const e of f.edits) lines.push(`${f.path}:${e}`);
  lines.push(page.diff);
  const structured: Record<string, unknown> = {
    files: listed,
    total_edits: total,
    diff: page.diff,
  };
  if (page.nextOffset !== undefined) structured.diff_next_offset = page.nextOffset;
  if (note !== null) structured.note = note;
  structured.applied = write;
  if (conflicts !== null) structured.conflicts = conflicts;
  if (projects !== undefined) structured.projects = projects;
  structured.engine = how.engine;
  return { content: [{ type: "text", text: lines.join("\n") }], structuredContent: structured };
}

/**
 * The sentence for a rename that left the declaration as it is (asked at a use of an imported
 * name), or null: what was renamed, what was not, and how to rename it all.
 */
function untouchedNote(untouched: Untouched | undefined): string | null {
  if (untouched === undefined) return null;
  const { name, path, line } = untouched;
  return `Only this file's local name was renamed: the declaration of ${name} (${path}:${line}) ` +
    `and its other uses are untouched; to rename them all, call rename_symbol at the ` +
    `declaration (path "${path}", line ${line}, name "${name}")`;
}

/** A dry run's diff budget: half the output budget, at least 2,000 characters (0: none). */
function dryRunBudget(maxOutputChars: number): number {
  return maxOutputChars === 0 ? 0 : Math.max(2000, maxOutputChars / 2);
}

/**
 * An applied rename cannot be asked again for the rest of its diff: it is sent whole within the
 * message cap (it is in the text and in structuredContent, escaped there).
 */
const APPLIED_DIFF_CHARS = Math.floor(MESSAGE_CAP_BYTES / 5);

/**
 * The diff's lines from `offset` that fit `budget` (as text and as a JSON string), cut at a line;
 * when cut, a last line says how many lines follow and which diff_offset shows them.
 */
function diffPage(
  whole: string,
  options: { offset: number; budget: number },
): { diff: string; nextOffset?: number } {
  const lines = whole.split("\n");
  const { offset, budget } = options;
  if (offset > 0 && offset >= lines.length) {
    throw new ToolError(
      `diff_offset ${offset} is past the end of the diff, which has ${lines.length} lines`,
    );
  }
  let size = 0;
  let end = offset;
  while (
    end < lines.length &&
    (budget === 0 || size + JSON.stringify(lines[end]).length <= budget - HINT_CHARS)
  ) {
    size += JSON.stringify(lines[end]).length;
    end++;
  }
  if (end === offset && end < lines.length) end++; // one over-long line still moves on
  const kept = lines.slice(offset, end).join("\n");
  if (end >= lines.length) return { diff: kept };
  const { added, removed } = diffCounts(whole);
  return {
    diff: `${kept}\n[... ${lines.length - end} more diff lines (+${added} -${removed} in all); ` +
      `call rename_symbol again with diff_offset: ${end} for the rest]`,
    nextOffset: end,
  };
}

/** Room for the last line of a cut page. */
const HINT_CHARS = 160;

const DESCRIPTION = "Rename the TS/JS or Python symbol at a position " +
  "everywhere with its engine's rename (imports, re-exports, shorthands, JSX); only that " +
  "symbol changes, unlike find-and-replace. Answers a unified diff; ";

export const renameSymbolTool: Tool = {
  name: "rename_symbol",
  title: "Rename a symbol",
  description: DESCRIPTION + "a dry run (the server writes only with --write).",
  inputSchema,
  outputSchema,
  annotations: readOnlyAnnotations("Rename a symbol"),
  run,
};

/** The same tool in a --write session: applies the rename to every file or none. */
export const renameSymbolWriteTool: Tool = {
  ...renameSymbolTool,
  description: DESCRIPTION + "applied to every file or none unless dry_run is true.",
  annotations: editAnnotations("Rename a symbol"),
};
