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
      description:
        "File to edit (absolute path inside the workspace, workspace-relative, or file://)",
    },
    path: { type: "string", description: "Same as file_path (give exactly one of the two)" },
    old_string: {
      type: "string",
      description:
        "Exact text to replace (as read_file shows it, without the line-number prefix); " +
        "empty only to create a new file",
    },
    new_string: { type: "string", description: "Text to put in its place (must differ)" },
    replace_all: {
      type: "boolean",
      default: false,
      description: "Replace every occurrence (default: old_string must occur exactly once)",
    },
    dry_run: {
      type: "boolean",
      default: false,
      description: "Only show the diff; change nothing",
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
    diff: { type: "string", description: "Unified diff of the change (3 lines of context)" },
    sha256: { type: "string", description: "SHA-256 of the file's new content" },
  },
  required: ["path", "replacements", "diff", "sha256"],
  additionalProperties: false,
};

async function run(input: EditFileInput, ctx: ToolContext): Promise<ToolResult> {
  const edits = editSessionOf(ctx);
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
  description: "Replace old_string with new_string in a file. old_string must match the file " +
    "exactly (whitespace included) and occur exactly once, unless replace_all is true; on a " +
    "miss the closest lines are shown, when ambiguous the lines of every match. Read the file " +
    "lines shown first (read_file, grep content, find_references): the refusal names the " +
    "lines to read. CRLF and a BOM are kept; the final newline changes only when old_string " +
    "ends the file and new_string ends differently. An empty old_string creates a new file. " +
    "dry_run shows the diff without writing. Give file_path or path.",
  inputSchema,
  outputSchema,
  annotations: editAnnotations("Edit a file"),
  run,
};
