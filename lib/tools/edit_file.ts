/** edit_file: replace a unique string in a file, Claude Code's Edit (docs/tools.md "edit_file"). */
import { type InputOf, type Tool, type ToolContext, ToolError, type ToolResult } from "./tool.ts";
import { budgetDiff, diffCounts } from "../edits/diff.ts";
import { editFile, EditRefusal } from "../edits/operations.ts";
import { diffBudget, editSessionOf, targetPath } from "./edit_support.ts";
import { editAnnotations } from "./annotations.ts";

const inputSchema = {
  type: "object",
  properties: {
    file_path: {
      type: "string",
      description: "File to edit (relative, absolute or file://)",
    },
    path: { type: "string", description: "Same as file_path (give one)" },
    old_string: {
      type: "string",
      description:
        "Exact text to replace, without read_file's line-number prefix; empty: create a file",
    },
    new_string: { type: "string", description: "Replacement text (must differ)" },
    replace_all: {
      type: "boolean",
      default: false,
      description: "Replace every occurrence",
    },
    dry_run: {
      type: "boolean",
      default: false,
      description: "Only show the diff",
    },
  },
  required: ["old_string", "new_string"],
  additionalProperties: false,
} as const;

export type EditFileInput = InputOf<typeof inputSchema>;

const outputSchema = {
  type: "object",
  properties: {
    path: { type: "string", description: "Workspace-relative path" },
    replacements: { type: "integer", description: "Occurrences replaced" },
    diff: { type: "string", description: "Unified diff of the change" },
    sha256: { type: "string", description: "SHA-256 of the file's new content" },
  },
  required: ["path", "replacements", "diff", "sha256"],
  additionalProperties: false,
};

async function run(input: EditFileInput, ctx: ToolContext): Promise<ToolResult> {
  const edits = editSessionOf(ctx);
  if (input.old_string === "" && input.replace_all) {
    throw new ToolError("replace_all needs a non-empty old_string (an empty one creates a file)");
  }
  let outcome;
  try {
    outcome = await editFile(ctx.workspace, edits, {
      input: targetPath(input, "edit"),
      oldString: input.old_string,
      newString: input.new_string,
      replaceAll: input.replace_all,
      dryRun: input.dry_run,
    }, { maxBytes: ctx.config.maxReadBytes });
  } catch (error) {
    if (error instanceof EditRefusal) throw new ToolError(error.message);
    throw error;
  }
  const diff = budgetDiff(outcome.diff, diffBudget(ctx, outcome.path));
  const { added, removed } = diffCounts(outcome.diff);
  const count = `${outcome.replacements} replacement${outcome.replacements === 1 ? "" : "s"}`;
  const lines = `(+${added} -${removed} lines)`;
  const head = !outcome.written
    ? `Dry run: ${outcome.path} was not changed; ${count} would be made ${lines}`
    : outcome.created
    ? `Created ${outcome.path} (+${added} lines)`
    : `Edited ${outcome.path}: ${count} ${lines}`;
  return {
    content: [{ type: "text", text: diff === "" ? head : `${head}\n${diff}` }],
    structuredContent: {
      path: outcome.path,
      replacements: outcome.replacements,
      diff,
      sha256: outcome.sha256,
    },
  };
}

export const editFileTool: Tool<EditFileInput> = {
  name: "edit_file",
  title: "Edit a file",
  description:
    "Replace old_string with new_string in a file. old_string must match exactly and occur " +
    "once unless replace_all; a miss shows the closest lines. Its lines must have been shown " +
    "first (read_file, grep content, find_references). CRLF, BOM and the final newline are " +
    "kept. Empty old_string creates a file; dry_run shows the diff only. file_path or path.",
  inputSchema,
  outputSchema,
  annotations: editAnnotations("Edit a file"),
  run,
};
