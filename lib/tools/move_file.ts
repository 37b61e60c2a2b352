/** move_file: rename a file to a new path (docs/tools.md "move_file"). */
import { type InputOf, type Tool, type ToolContext, ToolError, type ToolResult } from "./tool.ts";
import { EditRefusal } from "../edits/operations.ts";
import { moveFile } from "../edits/file_moves.ts";
import { editSessionOf } from "./edit_support.ts";
import { editAnnotations } from "./annotations.ts";

const inputSchema = {
  type: "object",
  properties: {
    source: {
      type: "string",
      description: "File to move",
    },
    destination: {
      type: "string",
      description: "New path (must not exist)",
    },
  },
  required: ["source", "destination"],
  additionalProperties: false,
} as const;

export type MoveFileInput = InputOf<typeof inputSchema>;

const outputSchema = {
  type: "object",
  properties: {
    source: { type: "string", description: "Workspace-relative old path" },
    destination: { type: "string", description: "Workspace-relative new path" },
    bytes: { type: "integer", description: "Size of the file moved" },
  },
  required: ["source", "destination", "bytes"],
  additionalProperties: false,
};

async function run(input: MoveFileInput, ctx: ToolContext): Promise<ToolResult> {
  const edits = editSessionOf(ctx);
  let outcome;
  try {
    outcome = await moveFile(ctx.workspace, edits, input, { maxBytes: ctx.config.maxReadBytes });
  } catch (error) {
    if (error instanceof EditRefusal) throw new ToolError(error.message);
    throw error;
  }
  return {
    content: [{
      type: "text",
      text: `Moved ${outcome.source} to ${outcome.destination} (${outcome.bytes} bytes)`,
    }],
    structuredContent: { ...outcome },
  };
}

export const moveFileTool: Tool<MoveFileInput> = {
  name: "move_file",
  title: "Move a file",
  description:
    "Move (rename) a file inside the workspace, creating missing folders. The destination " +
    "must not exist; ignored, secret and .git paths are refused. What was shown of the file " +
    "stays shown under its new name.",
  inputSchema,
  outputSchema,
  annotations: editAnnotations("Move a file"),
  run,
};
