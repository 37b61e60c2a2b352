/** Why the workspace refuses a path, as one sentence for the model (docs/workspace.md). */

export type Refusal =
  | "outside"
  | "missing"
  | "not-a-file"
  | "is-a-directory"
  | "secret"
  | "ignored"
  | "git"
  | "invalid-path";

/** A path the workspace refuses; `message` is one sentence for the model. */
export class WorkspaceError extends Error {
  readonly reason: Refusal;
  readonly input: string;

  constructor(reason: Refusal, input: string, message: string) {
    super(message);
    this.name = "WorkspaceError";
    this.reason = reason;
    this.input = input;
  }
}

const REASON_TEXT: Record<Exclude<Refusal, "invalid-path">, string> = {
  outside: "path is outside the workspace",
  missing: "no such file or folder in the workspace",
  "not-a-file": "not a regular file",
  "is-a-directory": "it is a folder, not a file",
  secret:
    "secret files are not served (only the user can allow them, by restarting the server with --allow-secrets)",
  ignored:
    "path is excluded by ignore rules (only the user can lift them, by restarting the server with --no-ignore)",
  git: "the .git folder is not served",
};

function quote(input: string): string {
  return JSON.stringify(input.length > 200 ? `${input.slice(0, 200)}…` : input);
}

export function refuse(
  reason: Refusal,
  input: string,
  verb: string,
  detail?: string,
): WorkspaceError {
  const text = detail ?? (reason === "invalid-path" ? "invalid path" : REASON_TEXT[reason]);
  return new WorkspaceError(reason, input, `Cannot ${verb} ${quote(input)}: ${text}`);
}

/** Why a root cannot be served: missing, or not readable by this process. */
export function rootError(root: string, error: unknown): WorkspaceError {
  const denied = error instanceof Deno.errors.PermissionDenied ||
    error instanceof Deno.errors.NotCapable;
  return refuse("missing", root, "serve", denied ? "permission denied" : "no such folder");
}
