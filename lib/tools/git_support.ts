/**
 * What the five git tools share (docs/tools.md, "Git tools"): the session's runner, one unit of
 * the work queue per call, git failures as ToolError (git's first stderr line), client paths
 * checked by the workspace rules, and paged diff lines.
 */
import { type ToolContext, ToolError, type ToolResult } from "./tool.ts";
import { listPage, type PageArguments } from "./list_page.ts";
import { GitError, type GitRunner } from "../git/runner.ts";
import { gitPath } from "../git/pathspec.ts";

/**
 * Runs `work` with the session's git runner while holding one unit of the work queue; a GitError
 * becomes the ToolError the model sees.
 */
export async function withGit<T>(
  ctx: ToolContext,
  work: (git: GitRunner) => Promise<T>,
): Promise<T> {
  const git = ctx.session.git;
  if (git === null) {
    throw new ToolError("Git tools are not available: the root is not the top of a git work tree");
  }
  const release = await ctx.session.queue.acquire(ctx.signal, 1);
  try {
    return await work(git);
  } catch (error) {
    if (error instanceof GitError) throw new ToolError(error.message);
    throw error;
  } finally {
    release();
  }
}

/** The root-relative path git gets for an optional `path` argument (null: the whole root). */
export function optionalGitPath(ctx: ToolContext, input: string | undefined): string | null {
  if (input === undefined) return null;
  const rel = gitPath(ctx.workspace, input);
  return rel === "" ? null : rel;
}

/** NUL-separated output up to its last whole field (a capped output ends mid-field). */
export function wholeFields(bytes: Uint8Array, capped: boolean): Uint8Array {
  return capped ? bytes.subarray(0, bytes.lastIndexOf(0) + 1) : bytes;
}

/** The line shown when git's output reached the 8 MiB cap. */
export const CAPPED_LINE =
  "[... git output stopped at the 8 MiB cap; narrow the request with path]";

/**
 * A page of output lines (diff text): `{lines, total, offset, next_offset?, truncated}` plus
 * `extra` properties, the text being `prefix` lines then the page.
 */
export function linesPage(
  lines: string[],
  args: PageArguments,
  ctx: ToolContext,
  options: { empty: string; prefix?: string[]; extra?: Record<string, unknown> },
): ToolResult {
  const page = listPage(lines, args, {
    ctx,
    key: "lines",
    noun: "lines",
    empty: options.empty,
    defaultLimit: Infinity,
  });
  const block = page.content[0];
  if (options.prefix !== undefined && options.prefix.length > 0 && block.type === "text") {
    block.text = `${options.prefix.join("\n")}\n${block.text}`;
  }
  page.structuredContent = { ...options.extra, ...page.structuredContent };
  return page;
}
