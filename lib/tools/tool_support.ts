/** Small pieces the tools share: annotations, path checks, search failures, listing pages. */
import { type ToolAnnotations, type ToolContext, ToolError, type ToolResult } from "./tool.ts";
import { type Workspace, WorkspaceError } from "../workspace/workspace.ts";
import { JobAbortedError, ScanTimeoutError } from "../search/pool.ts";
import { capNote, lineSize, type PageRequest, takePage } from "../search/paging.ts";
import { FILE_TYPES } from "../search/file_types.ts";
import { compileGlob } from "../search/glob_match.ts";

export function readOnlyAnnotations(title: string): ToolAnnotations {
  return { title, readOnlyHint: true, idempotentHint: true, openWorldHint: false };
}

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

/** True for a file, false for a folder; throws WorkspaceError when missing or refused. */
export async function isFile(ws: Workspace, rel: string): Promise<boolean> {
  try {
    const opened = await ws.openFile(rel);
    opened.file.close();
    return true;
  } catch (error) {
    if (error instanceof WorkspaceError && error.reason === "is-a-directory") return false;
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

/** The next-page hint, the last text line of a cut result. */
export function hintLine(remaining: string, nextOffset: number, note = ""): string {
  return `[... ${remaining}${note}; call again with offset=${nextOffset}]`;
}

/**
 * One page of a listing (glob's files, list_dir's entries): the text lines with the next-page
 * hint, and `{[key]: items, total, offset, next_offset?, truncated}`.
 */
/** The paging arguments of a listing: `offset` (a schema default) and `head_limit`. */
export interface PageArguments {
  readonly offset: number;
  readonly head_limit?: number;
}

export function listPage(
  items: string[],
  args: PageArguments,
  options: {
    ctx: ToolContext;
    key: string;
    noun: string;
    empty: string;
    defaultLimit: number;
    /** A text line after the entries (before the hint), e.g. list_dir's lowered depth. */
    note?: string;
    /** More structuredContent fields (before `truncated`). */
    extra?: Record<string, unknown>;
  },
): ToolResult {
  const offset = args.offset;
  const page = takePage(items, pageRequest(offset, args, options), lineSize);
  const lines = [...page.items];
  if (options.note !== undefined) lines.push(options.note);
  if (page.nextOffset !== undefined) {
    const remaining = `${items.length - page.nextOffset} more ${options.noun}`;
    lines.push(hintLine(remaining, page.nextOffset, capNote(page.cutBy)));
  }
  if (lines.length === 0) lines.push(items.length > 0 ? `No more ${options.noun}` : options.empty);
  const structured: Record<string, unknown> = {
    [options.key]: page.items,
    total: items.length,
    offset,
  };
  if (page.nextOffset !== undefined) structured.next_offset = page.nextOffset;
  Object.assign(structured, options.extra);
  structured.truncated = page.nextOffset !== undefined;
  return { content: [{ type: "text", text: lines.join("\n") }], structuredContent: structured };
}

/** The page request of a listing call (`head_limit`, else the default limit and the budget). */
export function pageRequest(
  offset: number,
  args: { readonly head_limit?: number },
  options: { ctx: ToolContext; defaultLimit: number },
): PageRequest {
  return {
    offset,
    limit: args.head_limit ?? null,
    defaultLimit: options.defaultLimit,
    budgetChars: options.ctx.config.maxOutputChars,
  };
}
