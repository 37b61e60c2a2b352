/**
 * Paths from the client for git (docs/tools.md, "Git tools: the security model"): checked by the
 * workspace's rules (inside the root, not `.git`) and passed after `--` with
 * `--literal-pathspecs` (set by the runner), so no pathspec magic applies. A path need not exist
 * in the work tree: history names deleted files.
 */
import { isGitName } from "../workspace/names.ts";
import { servableName } from "./names.ts";
import { type Workspace, WorkspaceError } from "../workspace/workspace.ts";

/** The root-relative path git gets for `input` ("" for the root), or a WorkspaceError. */
export function gitPath(ws: Workspace, input: string): string {
  const rel = ws.relativePath(input);
  if (rel !== "" && !servableName(rel)) {
    throw new WorkspaceError(
      "invalid-path",
      input,
      `Cannot access ${JSON.stringify(input)}: the path holds a control character`,
    );
  }
  if (rel !== "" && rel.split("/").some(isGitName)) {
    throw new WorkspaceError(
      "git",
      input,
      `Cannot access ${JSON.stringify(input)}: the .git folder is not served`,
    );
  }
  return rel;
}

/** The pathspec arguments for an optional path: `-- <rel>`, or nothing for the whole root. */
export function pathArgs(rel: string | null): string[] {
  return rel === null || rel === "" ? [] : ["--", rel];
}
