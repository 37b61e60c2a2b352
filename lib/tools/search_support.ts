/** What the searching tools share: the scope of path, glob and type, and a failed search's words. */
import { ToolError } from "./tool.ts";
import type { Workspace } from "../workspace/workspace.ts";
import { JobAbortedError, ScanTimeoutError } from "../search/pool.ts";
import { fsErrorReason } from "../workspace/fs_errors.ts";
import {
  resolveScope,
  type ScopeArguments,
  ScopeError,
  type SearchScope,
} from "../search/scope.ts";

/** The resolved scope of `path`, `glob` and `type`; ToolError (or WorkspaceError) to fix. */
export function scopeOf(ws: Workspace, args: ScopeArguments): SearchScope {
  try {
    return resolveScope(ws, args);
  } catch (error) {
    if (error instanceof ScopeError) throw new ToolError(error.message);
    throw error;
  }
}

/** Turns a failed search job into the ToolError the model sees. */
export function searchFailure(error: unknown, pattern: string, timeoutMs: number): ToolError {
  if (error instanceof ScanTimeoutError && error.phase === "read") {
    return new ToolError(
      `Search stopped: reading "${error.file}" made no progress for ${error.ms} ms (a special ` +
        "file or a stalled disk); narrow path or glob to leave it out",
    );
  }
  if (error instanceof ScanTimeoutError && error.phase === "walk") {
    return new ToolError(
      `Search stopped: listing the folders made no progress for ${error.ms} ms (a stalled disk ` +
        "or network folder); narrow path to leave it out",
    );
  }
  if (error instanceof ScanTimeoutError) {
    return new ToolError(
      `Search stopped: scanning "${error.file}" for pattern "${pattern}" took over ${timeoutMs} ms; ` +
        `simplify the pattern (avoid nested quantifiers such as (a+)+) or narrow path or glob`,
    );
  }
  if (error instanceof JobAbortedError) return new ToolError("The search was cancelled");
  const reason = fsErrorReason(error);
  if (reason !== null) return new ToolError(`Search failed: ${reason}`);
  const message = error instanceof Error ? error.message : String(error);
  if (/call stack/i.test(message)) {
    // 30,000 nested groups run the regex compiler out of stack: say so in words that fit.
    return new ToolError(
      `Invalid regex "${
        clip(pattern)
      }": it is nested too deeply to compile; use fewer nested groups`,
    );
  }
  return new ToolError(message);
}

function clip(text: string): string {
  return text.length > 100 ? `${text.slice(0, 100)}...` : text;
}
