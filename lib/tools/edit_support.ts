/** What the two edit tools share: the session's edit state, the target path, the diff budget. */
import { type ToolContext, ToolError } from "./tool.ts";
import { fileArgument } from "./path_arguments.ts";
import type { EditSession } from "../edits/edit_session.ts";

/** The session's edit state; absent only when --write was not given (the tools are not listed). */
export function editSessionOf(ctx: ToolContext): EditSession {
  const edits = ctx.session.edits;
  if (edits === null) {
    throw new ToolError(
      "Editing is off: the user can restart the server with --write to allow edits",
    );
  }
  return edits;
}

/** The one of file_path and path that was given. */
export function targetPath(
  args: { readonly path?: string; readonly file_path?: string },
  verb: string,
): string {
  return fileArgument(args, verb, "file_path");
}

/**
 * The characters the diff may take of the result budget (--max-output-chars, 0 = none): the
 * rest of the result (path twice, counts, hash, the first text line) is set aside.
 */
export function diffBudget(ctx: ToolContext, path: string): number {
  const budget = ctx.config.maxOutputChars;
  if (budget === 0) return 0;
  return Math.max(1000, budget - 4 * path.length - 300);
}
