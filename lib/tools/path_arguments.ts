/** A tool's path arguments: `path` (default the root), or one file as `path` or `file_path`. */
import { ToolError } from "./tool.ts";
import type { Workspace } from "../workspace/workspace.ts";

/** Root-relative path of `input` (default: the root); throws WorkspaceError when refused. */
export function resolvePath(ws: Workspace, input: string | undefined): string {
  return ws.resolve(input ?? "").rel;
}

/**
 * The file a tool is given: exactly one of `path` and `file_path` (Claude Code's agents send
 * `file_path`). `first` is the name the tool documents first, for the messages.
 */
export function fileArgument(
  input: { readonly path?: string; readonly file_path?: string },
  verb: string,
  first: "path" | "file_path" = "path",
): string {
  const { path, file_path } = input;
  if (path !== undefined && file_path === undefined) return path;
  if (path === undefined && file_path !== undefined) return file_path;
  const second = first === "path" ? "file_path" : "path";
  throw new ToolError(
    path !== undefined
      ? `Give only one of ${first} and ${second}, not both`
      : `Missing file: give ${first} (or ${second}) of the file to ${verb}`,
  );
}
