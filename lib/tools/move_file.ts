/** move_file: rename a file or a folder to a new path (docs/tools.md "move_file"). */
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
      description: "File or folder to move",
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
    bytes: { type: "integer", description: "Size of the file moved (a folder: of its files)" },
    files: { type: "integer", description: "Files moved with a folder" },
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
  const what = outcome.files === undefined
    ? `${outcome.bytes} bytes`
    : `a folder of ${outcome.files} file${outcome.files === 1 ? "" : "s"}, ${outcome.bytes} bytes`;
  return {
    content: [{
      type: "text",
      text: `Moved ${outcome.source} to ${outcome.destination} (${what})`,
    }],
    structuredContent: { ...outcome },
  };
}

export const moveFileTool: Tool<MoveFileInput> = {
  name: "move_file",
  title: "Move a file or folder",
  description:
    "Move (rename) a file or a folder inside the workspace, creating missing folders. The " +
    "destination must not exist and is never replaced; ignored, secret and .git paths are " +
    "refused, in a folder too. What was shown of a file stays shown under its new name.",
  inputSchema,
  outputSchema,
  annotations: editAnnotations("Move a file or folder"),
  run,
};
