/** What the searching tools share: the scope of path, glob and type, and a failed search's words. */
import { ToolError } from "./tool.ts";
import { isFile, resolvePath } from "./path_arguments.ts";
import type { Workspace } from "../workspace/workspace.ts";
import { JobAbortedError, ScanTimeoutError } from "../search/pool.ts";
import { FILE_TYPES } from "../search/file_types.ts";
import { compileGlob } from "../search/glob_match.ts";

/** Where a search looks: grep's and the symbol tools' `path`, `glob` and `type`. */
export interface SearchScope {
  /** Root-relative folder to search, or the one file. */
  base: string;
  /** `base` is a file. */
  single: boolean;
  /** ripgrep -g globs, relative to base. */
  globs: string[];
  /** Basename globs of the chosen file type (any must match), or none. */
  typeGlobs: string[];
}

/** The scope arguments of grep and the symbol tools. */
export interface ScopeArguments {
  readonly path?: string;
  readonly glob?: string;
  readonly type?: string;
}

/** The scope of `path`, `glob` and `type`; ToolError (or WorkspaceError) for the model to fix. */
export async function searchScope(ws: Workspace, args: ScopeArguments): Promise<SearchScope> {
  const globs: string[] = [];
  if (args.glob !== undefined && args.glob !== "") {
    try {
      compileGlob(args.glob);
    } catch (error) {
      throw new ToolError((error as Error).message);
    }
    globs.push(args.glob);
  }
  let typeGlobs: string[] = [];
  if (args.type !== undefined) {
    const globsOfType = FILE_TYPES[args.type];
    if (globsOfType === undefined || !Object.hasOwn(FILE_TYPES, args.type)) {
      throw new ToolError(
        `Unknown file type "${args.type}"; use one of: ${Object.keys(FILE_TYPES).join(", ")}`,
      );
    }
    typeGlobs = [...globsOfType];
  }
  const base = resolvePath(ws, args.path);
  const single = base === "" ? false : await isFile(ws, base);
  return { base, single, globs, typeGlobs };
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
