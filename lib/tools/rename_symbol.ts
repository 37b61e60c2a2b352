/**
 * rename_symbol: TypeScript's rename of the symbol at a position across the workspace
 * (docs/tools.md "rename_symbol"): exactly the language service's rename locations with their
 * prefix and suffix text, shown as a unified diff; a dry run without --write, and with --write
 * applied to every file or none (lib/edits/batch_write.ts).
 */
import { type Tool, type ToolContext, ToolError, type ToolResult } from "./tool.ts";
import { editAnnotations, readOnlyAnnotations } from "./annotations.ts";
import { askSemantic, isScriptPath, positionProperties, readPosition } from "./semantic_support.ts";
import { budgetDiff, unifiedDiff } from "../edits/diff.ts";
import { BatchRefusal, checkTargets, writeBatch } from "../edits/batch_write.ts";
import { toPlain } from "../edits/text_form.ts";
import type { RenameFile } from "../semantic/protocol.ts";
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
      description: "Files the rename changes, by path",
      items: {
        type: "object",
        properties: {
          path: { type: "string", description: "Workspace-relative path" },
          edits: {
            type: "array",
            description: "Each replaced span: `line:column: old -> new`",
            items: { type: "string" },
          },
        },
        required: ["path", "edits"],
      },
    },
    total_edits: { type: "integer", description: "Spans replaced in all files" },
    diff: { type: "string", description: "Unified diff of every file" },
    applied: { type: "boolean", description: "The files were written (false: dry run)" },
  },
  required: ["files", "total_edits", "diff", "applied"],
  additionalProperties: false,
};

function editLine(e: RenameFile["edits"][number]): string {
  return `${e.line}:${e.column}: ${e.old_text} -> ${e.new_text}`;
}

async function diffOf(files: readonly RenameFile[]): Promise<string> {
  const parts: string[] = [];
  for (const f of files) {
    parts.push(await unifiedDiff(f.path, toPlain(f.before).plain, toPlain(f.after).plain));
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
  if (!isScriptPath(at.path)) {
    throw new ToolError(
      `Cannot rename in "${at.path}": rename_symbol works on TypeScript and JavaScript files; ` +
        `use find_references and edit_file for other languages`,
    );
  }
  const newName = String(args.new_name);
  const answer = await askSemantic(ctx, { kind: "rename", at, newName });
  const files = answer.kind === "rename" ? answer.files : [];
  if (files.length === 0) {
    throw new ToolError(`Nothing to rename at line ${at.line} of "${at.path}"`);
  }
  const edits = ctx.session.edits;
  try {
    // Every file must be writable by this session, with or without --write.
    checkTargets(
      ctx.workspace,
      files.map((f) => ({ rel: f.path, before: f.before, after: f.after })),
      "rename in",
    );
    if (apply && edits !== null) {
      await writeBatch(
        ctx.workspace,
        edits,
        files.map((f) => ({ rel: f.path, before: f.before, after: f.after })),
        { verb: "rename in", maxBytes: ctx.config.maxReadBytes },
      );
    }
  } catch (error) {
    if (error instanceof BatchRefusal) throw new ToolError(error.message);
    if (error instanceof WorkspaceError) {
      throw new ToolError(`${error.message}; the rename was refused, nothing was changed`);
    }
    throw error;
  }
  const total = files.reduce((n, f) => n + f.edits.length, 0);
  const budget = ctx.config.maxOutputChars === 0
    ? 0
    : Math.max(2000, ctx.config.maxOutputChars / 2);
  const diff = budgetDiff(await diffOf(files), budget);
  const listed = files.map((f) => ({ path: f.path, edits: f.edits.map(editLine) }));
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
    structuredContent: { files: listed, total_edits: total, diff, applied: apply },
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
