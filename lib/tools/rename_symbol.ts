/**
 * rename_symbol: the rename of the symbol at a position across the workspace by the engine that
 * handles its file (docs/tools.md "rename_symbol"): exactly the engine's spans (TypeScript's
 * rename locations with their prefix and suffix text), applied by the edit layer
 * (lib/edits/span_edits.ts) and shown as a unified diff; a dry run without --write, and with
 * --write applied to every file or none (lib/edits/batch_write.ts).
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
import { budgetDiff, unifiedDiff } from "../edits/diff.ts";
import { BatchRefusal, checkTargets, writeBatch } from "../edits/batch_write.ts";
import { applySpans, type Span, type SpannedFile } from "../edits/span_edits.ts";
import { toPlain } from "../edits/text_form.ts";
import { WorkspaceError } from "../workspace/workspace.ts";

const inputSchema = {
  type: "object",
  properties: {
    ...positionProperties("symbol to rename"),
    new_name: { type: "string", description: "The new name (an identifier)" },
    dry_run: { type: "boolean", description: "Only show the diff (default without --write)" },
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
          path: { type: "string", description: "Relative path" },
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
    diff: { type: "string", description: "Unified diff of every file" },
    applied: { type: "boolean", description: "Written (false: dry run)" },
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
  try {
    files = applySpans(ctx.workspace, spans, {
      maxBytes: ctx.config.maxReadBytes,
      verb: "rename in",
    });
    // Every file must be writable by this session, with or without --write.
    checkTargets(ctx.workspace, files, "rename in");
    if (apply && edits !== null) {
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
  const total = files.reduce((n, f) => n + f.spans.length, 0);
  const budget = ctx.config.maxOutputChars === 0
    ? 0
    : Math.max(2000, ctx.config.maxOutputChars / 2);
  const diff = budgetDiff(await diffOf(files), budget);
  const listed = files.map((f) => ({ path: f.rel, edits: f.spans.map(editLine) }));
  const head = `${apply ? "Renamed" : "Would rename"} to "${newName}": ${total} edit${
    total === 1 ? "" : "s"
  } in ${files.length} file${files.length === 1 ? "" : "s"}${
    apply ? "" : " (dry run: nothing written)"
  }`;
  const lines = [head];
  for (const f of listed) for (const e of f.edits) lines.push(`${f.path}:${e}`);
  lines.push(diff);
  return {
    content: [{ type: "text", text: lines.join("\n") }],
    structuredContent: {
      files: listed,
      total_edits: total,
      diff,
      applied: apply,
      engine: engine.id,
    },
  };
}

const DESCRIPTION = "Rename the TS/JS symbol at a position (path, line, name or column) " +
  "everywhere with TypeScript's rename (imports, re-exports, shorthands, JSX); only that " +
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
