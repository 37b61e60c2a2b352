/** git_log: commits, newest first, paged (docs/tools.md "git_log"). */
import { type InputOf, type Tool, type ToolContext, ToolError, type ToolResult } from "./tool.ts";
import { capNote, hintLine, lineSize, takePage } from "./paging.ts";
import { readOnlyAnnotations } from "./annotations.ts";
import { optionalGitPath, withGit } from "./git_support.ts";
import { pathArgs } from "../git/pathspec.ts";
import { resolveRevision } from "../git/revision.ts";
import { GitError } from "../git/runner.ts";
import { LOG_FORMAT, type LogEntry, logLine, parseLog } from "../git/log_format.ts";

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 200;
const MAX_TEXT = 1000;

const inputSchema = {
  type: "object",
  properties: {
    revision: { type: "string", description: "Where to start (default HEAD): branch, tag, commit" },
    path: { type: "string", description: "Only commits that touch this file or folder" },
    author: { type: "string", description: "Author name or email contains this (any case)" },
    grep: { type: "string", description: "Commit message contains this text (any case)" },
    since: { type: "string", description: 'Commits after this date ("2024-01-31", "2 weeks ago")' },
    until: { type: "string", description: "Commits before this date" },
    head_limit: {
      type: "integer",
      minimum: 1,
      maximum: MAX_LIMIT,
      description: "Max commits (default 20, at most 200)",
    },
    offset: { type: "integer", minimum: 0, default: 0, description: "Commits to skip" },
  },
  required: [],
  additionalProperties: false,
} as const;

export type GitLogInput = InputOf<typeof inputSchema>;

const outputSchema = {
  type: "object",
  properties: {
    commits: {
      type: "array",
      items: { type: "string" },
      description: "Commits newest first, as the text shows them: " +
        "`<short id> <author date YYYY-MM-DD> <author> <subject>`",
    },
    offset: { type: "integer", description: "Commits skipped before this page" },
    next_offset: { type: "integer", description: "Offset of the next page, if any" },
    truncated: { type: "boolean", description: "More commits follow" },
  },
  required: ["commits", "offset", "truncated"],
  additionalProperties: false,
};

function text(input: GitLogInput, key: "author" | "grep" | "since" | "until"): string | null {
  const value = input[key];
  if (value === undefined) return null;
  if (value.length > MAX_TEXT) {
    throw new ToolError(`${key} is too long (at most ${MAX_TEXT} chars)`);
  }
  return value;
}

function entrySize(entry: LogEntry): { text: number; json: number } {
  return lineSize(logLine(entry));
}

async function run(input: GitLogInput, ctx: ToolContext): Promise<ToolResult> {
  const rel = optionalGitPath(ctx, input.path);
  const offset = input.offset;
  const explicit = input.head_limit !== undefined;
  const limit = input.head_limit ?? DEFAULT_LIMIT;
  const filters: string[] = [];
  const author = text(input, "author");
  const grep = text(input, "grep");
  const since = text(input, "since");
  const until = text(input, "until");
  if (author !== null || grep !== null) filters.push("--fixed-strings", "--regexp-ignore-case");
  if (author !== null) filters.push(`--author=${author}`);
  if (grep !== null) filters.push(`--grep=${grep}`);
  if (since !== null) filters.push(`--since=${since}`);
  if (until !== null) filters.push(`--until=${until}`);
  const revision = input.revision ?? null;
  const fetched = await withGit(ctx, async (git) => {
    // Our own "HEAD" needs no resolving; the client's text is resolved to an id first.
    const start = revision === null
      ? "HEAD"
      : (await resolveRevision(git, revision, { signal: ctx.signal }))!;
    let out;
    try {
      out = await git.run([
        "log",
        "-z",
        LOG_FORMAT,
        `--skip=${offset}`,
        `--max-count=${limit + 1}`,
        ...filters,
        start,
        ...pathArgs(rel),
      ], { signal: ctx.signal });
    } catch (error) {
      // No commit yet: an empty history, not an error.
      const unborn = revision === null && error instanceof GitError &&
        (await resolveRevision(git, "HEAD", { signal: ctx.signal, optional: true })) === null;
      if (unborn) return [];
      throw error;
    }
    return parseLog(out.stdout);
  });
  const page = takePage(fetched, {
    offset: 0,
    limit,
    defaultLimit: limit,
    budgetChars: explicit ? 0 : ctx.config.maxOutputChars,
  }, entrySize);
  const shown = page.items;
  const more = page.nextOffset !== undefined;
  const commits = shown.map(logLine);
  const lines = [...commits];
  const next = offset + shown.length;
  if (more) lines.push(hintLine("more commits", next, capNote(page.cutBy)));
  if (fetched.length === 0) lines.push(offset > 0 ? "No more commits" : "No commits found");
  const structured: Record<string, unknown> = { commits, offset };
  if (more) structured.next_offset = next;
  structured.truncated = more;
  return { content: [{ type: "text", text: lines.join("\n") }], structuredContent: structured };
}

export const gitLogTool: Tool<GitLogInput> = {
  name: "git_log",
  title: "Git log",
  description: "List commits newest first, one line each: short id, date, author, subject. " +
    "revision (default HEAD) is where to start; path keeps commits touching a file or folder; " +
    "author and grep match fixed text, any case; since/until take dates like 2024-01-31 or " +
    "'2 weeks ago'. Pages of head_limit commits (default 20, at most 200) from offset.",
  inputSchema,
  outputSchema,
  annotations: readOnlyAnnotations("Git log"),
  run,
};
