/** delete_file: remove a file or an empty folder (docs/tools.md "delete_file"). */
import { type InputOf, type Tool, type ToolContext, ToolError, type ToolResult } from "./tool.ts";
import { EditRefusal } from "../edits/operations.ts";
import { deleteFile } from "../edits/file_moves.ts";
import { editSessionOf, targetPath } from "./edit_support.ts";
import { editAnnotations } from "./annotations.ts";

const inputSchema = {
  type: "object",
  properties: {
    file_path: {
      type: "string",
      description: "File or empty folder to delete",
    },
    path: { type: "string", description: "Same as file_path (give one)" },
  },
  required: [],
  additionalProperties: false,
} as const;

export type DeleteFileInput = InputOf<typeof inputSchema>;

const outputSchema = {
  type: "object",
  properties: {
    path: { type: "string", description: "Workspace-relative path deleted" },
    kind: { type: "string", enum: ["file", "folder"], description: "What was deleted" },
    bytes: { type: "integer", description: "Size of the deleted file" },
  },
  required: ["path", "kind", "bytes"],
  additionalProperties: false,
};

async function run(input: DeleteFileInput, ctx: ToolContext): Promise<ToolResult> {
  const edits = editSessionOf(ctx);
  let outcome;
  try {
    outcome = await deleteFile(ctx.workspace, edits, targetPath(input, "delete"), {
      maxBytes: ctx.config.maxReadBytes,
    });
  } catch (error) {
    if (error instanceof EditRefusal) throw new ToolError(error.message);
    throw error;
  }
  const text = outcome.kind === "folder"
    ? `Deleted the empty folder ${outcome.path}`
    : `Deleted ${outcome.path} (${outcome.bytes} bytes)`;
  return {
    content: [{ type: "text", text }],
    structuredContent: { path: outcome.path, kind: outcome.kind, bytes: outcome.bytes },
  };
}

export const deleteFileTool: Tool<DeleteFileInput> = {
  name: "delete_file",
  title: "Delete a file",
  description: "Delete a file (or empty folder). It must have been shown in this session and be " +
    "unchanged since; ignored, secret and .git paths are refused. Undo: git_show raw, then " +
    "write_file. file_path or path.",
  inputSchema,
  outputSchema,
  annotations: editAnnotations("Delete a file"),
  run,
};
