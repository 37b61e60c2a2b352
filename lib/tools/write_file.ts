/** write_file: create or replace a whole file, Claude Code's Write (docs/tools.md "write_file"). */
import { type InputOf, type Tool, type ToolContext, ToolError, type ToolResult } from "./tool.ts";
import { budgetDiff, diffCounts } from "../edits/diff.ts";
import { EditRefusal, writeFile } from "../edits/operations.ts";
import { diffBudget, editSessionOf, targetPath } from "./edit_support.ts";
import { editAnnotations } from "./annotations.ts";

/** Characters of diff a replacing write shows at most (the rest is counted). */
const WRITE_DIFF_CHARS = 4_000;

const inputSchema = {
  type: "object",
  properties: {
    file_path: {
      type: "string",
      description: "File to write (relative, absolute or file://)",
    },
    path: { type: "string", description: "Same as file_path (give one)" },
    content: { type: "string", description: "The whole new content of the file" },
  },
  required: ["content"],
  additionalProperties: false,
} as const;

export type WriteFileInput = InputOf<typeof inputSchema>;

const outputSchema = {
  type: "object",
  properties: {
    path: { type: "string", description: "Workspace-relative path" },
    created: { type: "boolean", description: "True when the file did not exist before" },
    bytes: { type: "integer", description: "Size of the file written, in bytes" },
    sha256: { type: "string", description: "SHA-256 of the file's new content" },
    diff: {
      type: "string",
      description: "Diff against the old content (bounded)",
    },
  },
  required: ["path", "created", "bytes", "sha256"],
  additionalProperties: false,
};

async function run(input: WriteFileInput, ctx: ToolContext): Promise<ToolResult> {
  const edits = editSessionOf(ctx);
  let outcome;
  try {
    outcome = await writeFile(ctx.workspace, edits, {
      input: targetPath(input, "write"),
      content: input.content,
    }, { maxBytes: ctx.config.maxReadBytes });
  } catch (error) {
    if (error instanceof EditRefusal) throw new ToolError(error.message);
    throw error;
  }
  const structured: Record<string, unknown> = {
    path: outcome.path,
    created: outcome.created,
    bytes: outcome.bytes,
    sha256: outcome.sha256,
  };
  let text = outcome.created
    ? `Created ${outcome.path} (${outcome.bytes} bytes)`
    : `Replaced ${outcome.path} (${outcome.bytes} bytes)`;
  if (outcome.diff !== undefined) {
    // A whole-file write does not echo the whole old file: the diff is a bounded summary.
    const budget = Math.min(WRITE_DIFF_CHARS, diffBudget(ctx, outcome.path) || WRITE_DIFF_CHARS);
    const diff = budgetDiff(outcome.diff, budget);
    const { added, removed } = diffCounts(outcome.diff);
    structured.diff = diff;
    text = `${text.slice(0, -1)}, +${added} -${removed} lines)\n${diff}`;
  }
  return { content: [{ type: "text", text }], structuredContent: structured };
}

export const writeFileTool: Tool<WriteFileInput> = {
  name: "write_file",
  title: "Write a file",
  description:
    "Write content to a file: create it (and its folders) or replace it whole. Replacing " +
    "needs the whole current file shown in this session and unchanged since; CRLF and BOM are " +
    "kept; answers a bounded diff. Prefer edit_file for part of a file. file_path or path.",
  inputSchema,
  outputSchema,
  annotations: editAnnotations("Write a file"),
  run,
};
