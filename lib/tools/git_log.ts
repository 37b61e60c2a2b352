/** git_log: commits, newest first, paged (docs/tools.md "git_log"). */
import { type InputOf, type Tool, type ToolContext, ToolError, type ToolResult } from "./tool.ts";
import { capNote, type EntrySize, hintLine, lineSize, takePage } from "./paging.ts";
import { readOnlyAnnotations } from "./annotations.ts";
import { optionalGitPath, withGit } from "./git_support.ts";
import { pathArgs } from "../git/pathspec.ts";
import { resolveCommits, resolveRevision } from "../git/revision.ts";
import { GitError, type GitRunner } from "../git/runner.ts";
import { renamedInto } from "../git/renames.ts";
import { LOG_FORMAT, type LogEntry, logLine, parseLog } from "../git/log_format.ts";

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 200;
const MAX_TEXT = 1000;

const inputSchema = {
  type: "object",
  properties: {
    revision: {
      type: "string",
      description: "Start (default HEAD) or a range A..B",
    },
    base: { type: "string", description: "Only base..revision" },
    path: { type: "string", description: "Only commits touching this" },
    follow: {
      type: "boolean",
      description: "Follow one file across renames",
    },
    author: { type: "string", description: "Author name or email contains (any case)" },
    grep: { type: "string", description: "Message contains (any case)" },
    since: {
      type: "string",
      description: 'Committed after ("2024-01-31", "2 weeks ago")',
    },
    until: { type: "string", description: "Committed before this date" },
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
      description: "The text's lines: `<short id> <date> <author> <subject>`",
    },
    offset: { type: "integer", description: "Commits skipped before this page" },
    next_offset: { type: "integer", description: "Next page's offset" },
    total: { type: "integer", description: "Commits in all (given when more follow)" },
    truncated: { type: "boolean", description: "More commits follow" },
    note: {
      type: "string",
      description: "The date shown with since/until; an older name of path",
    },
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

function entrySize(entry: LogEntry): EntrySize {
  return lineSize(logLine(entry));
}

/** `A..B` / `A...B` as written in `revision` (an empty side is HEAD), or null for one revision. */
function splitRange(revision: string): { from: string; to: string; symmetric: boolean } | null {
  const three = revision.indexOf("...");
  const two = revision.indexOf("..");
  if (two < 0) return null;
  const symmetric = three === two;
  const from = revision.slice(0, two);
  const to = revision.slice(two + (symmetric ? 3 : 2));
  return { from: from === "" ? "HEAD" : from, to: to === "" ? "HEAD" : to, symmetric };
}

/** The revision arguments of the log: one start, `^base start`, or `a...b` (all object ids). */
async function rangeArgs(
  git: GitRunner,
  input: GitLogInput,
  signal: AbortSignal,
): Promise<{ args: string[]; ranged: boolean }> {
  const revision = input.revision ?? null;
  const range = revision === null ? null : splitRange(revision);
  if (range !== null && input.base !== undefined) {
    throw new ToolError("Give either base or a range revision such as A..B, not both");
  }
  if (range !== null) {
    const [from, to] = await resolveCommits(git, [
      { rev: range.from, what: "revision" },
      { rev: range.to, what: "revision" },
    ], signal);
    return { args: range.symmetric ? [`${from}...${to}`] : [`^${from}`, to], ranged: true };
  }
  // Our own "HEAD" needs no resolving; the client's text is resolved to an id first.
  const start = revision === null ? "HEAD" : (await resolveRevision(git, revision, { signal }))!;
  if (input.base === undefined) return { args: [start], ranged: false };
  const base = (await resolveRevision(git, input.base, { signal, what: "base revision" }))!;
  return { args: [`^${base}`, start], ranged: true };
}

/** Commits the whole query lists (for the paging hint): rev-list, or a log for --follow. */
async function countCommits(
  git: GitRunner,
  query: { filters: string[]; revs: string[]; paths: string[]; follow: boolean },
  signal: AbortSignal,
): Promise<number | null> {
  const out = query.follow
    ? await git.run([
      "log",
      "--follow",
      "--format=%x00",
      ...query.filters,
      ...query.revs,
      ...query.paths,
    ], { signal })
    : await git.run(["rev-list", "--count", ...query.filters, ...query.revs, ...query.paths], {
      signal,
    });
  if (out.capped) return null;
  if (query.follow) {
    let n = 0;
    for (const b of out.stdout) if (b === 0) n++;
    return n;
  }
  const n = Number(new TextDecoder().decode(out.stdout).trim());
  return Number.isInteger(n) ? n : null;
}

/**
 * The log options that pick one page. git's `--skip` counts the commits it walks, not those
 * `--follow` shows (a skipped page's commits come back), while `--max-count` counts the shown
 * ones: a followed history is read from its newest commit up to the page's end (offset + limit,
 * plus one to know whether more follow; git stops there) and cut here.
 */
function pageArgs(page: { follow: boolean; offset: number; limit: number }): string[] {
  return page.follow
    ? ["--follow", `--max-count=${page.offset + page.limit + 1}`]
    : [`--skip=${page.offset}`, `--max-count=${page.limit + 1}`];
}

/** The page's entries of a followed history read from its start (pageArgs); others as read. */
function followPage(
  entries: LogEntry[],
  read: { follow: boolean; offset: number; limit: number; capped: boolean },
): LogEntry[] {
  if (!read.follow) return entries;
  // Past the 8 MiB output cap the last record may be cut short: it is dropped.
  const whole = read.capped ? entries.slice(0, -1) : entries;
  if (read.capped && whole.length <= read.offset + read.limit) {
    throw new ToolError(
      `The followed history up to offset ${read.offset + read.limit} is over git's 8 MiB ` +
        "output limit; " +
        "call git_log with revision set to an older commit of the page before",
    );
  }
  return whole.slice(read.offset);
}

/**
 * The oldest commit of `revs` that touches `paths`, whatever the log's filters: the last one
 * that adds a file there (a rename counts as a delete and an add), since the first touch of a
 * path adds it. Null when there is none or git's output was capped.
 */
async function oldestTouching(
  git: GitRunner,
  query: { revs: string[]; paths: string[] },
  signal: AbortSignal,
): Promise<{ commit: string; short: string } | null> {
  const out = await git.run([
    "log",
    "--no-renames",
    "--diff-filter=A",
    "--format=%H %h",
    ...query.revs,
    ...query.paths,
  ], { signal });
  if (out.capped) return null;
  const oids = new TextDecoder().decode(out.stdout).trim().split("\n");
  const last = /^([0-9a-f]{40,64}) ([0-9a-f]+)$/.exec(oids[oids.length - 1]);
  return last === null ? null : { commit: last[1], short: last[2] };
}

function checkMode(input: GitLogInput, rel: string | null): void {
  if (input.follow === true && rel === null) {
    throw new ToolError("follow needs path: the one file whose history to follow across renames");
  }
}

async function run(input: GitLogInput, ctx: ToolContext): Promise<ToolResult> {
  const rel = optionalGitPath(ctx, input.path);
  checkMode(input, rel);
  const follow = input.follow === true;
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
  const paths = pathArgs(rel);
  const fetched = await withGit(ctx, async (git) => {
    const { args: revs } = await rangeArgs(git, input, ctx.signal);
    let out;
    try {
      out = await git.run([
        "log",
        "-z",
        LOG_FORMAT,
        ...pageArgs({ follow, offset, limit }),
        ...filters,
        ...revs,
        ...paths,
      ], { signal: ctx.signal });
    } catch (error) {
      // No commit yet: an empty history, not an error.
      const unborn = revision === null && error instanceof GitError &&
        (await resolveRevision(git, "HEAD", { signal: ctx.signal, optional: true })) === null;
      if (unborn) return { entries: [], total: null, continues: null };
      throw error;
    }
    const entries = followPage(parseLog(out.stdout), {
      follow,
      offset,
      limit,
      capped: out.capped,
    });
    const more = entries.length > limit;
    const total = more
      ? await countCommits(git, { filters, revs, paths, follow }, ctx.signal)
      : null;
    // The last page of a path's history: does it stop at a rename?
    let continues: string | null = null;
    if (!more && rel !== null && !follow) {
      // With a filter the page's oldest commit need not be the path's: ask git for that one.
      const oldest = filters.length === 0
        ? entries.at(-1) ?? null
        : await oldestTouching(git, { revs, paths }, ctx.signal);
      const old = oldest === null ? null : await renamedInto(git, oldest.commit, rel, ctx.signal);
      if (old !== null) {
        continues = `history continues as ${old} before ${oldest!.short}; call git_log with ` +
          "that path (or set follow: true)";
      }
    }
    return { entries, total, continues };
  });
  const page = takePage(fetched.entries, {
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
  if (more) {
    const remaining = fetched.total === null
      ? "more commits"
      : `${Math.max(fetched.total - next, 1)} more commits`;
    lines.push(hintLine(remaining, next, capNote(page.cutBy)));
  }
  if (fetched.entries.length === 0) lines.push(offset > 0 ? "No more commits" : "No commits found");
  const notes: string[] = [];
  if (since !== null || until !== null) {
    notes.push("dates shown are author dates; since/until filter on committer dates");
  }
  if (fetched.continues !== null) notes.push(fetched.continues);
  for (const note of notes) lines.push(`[${note}]`);
  const structured: Record<string, unknown> = { commits, offset };
  if (more) structured.next_offset = next;
  if (more && fetched.total !== null) structured.total = fetched.total;
  structured.truncated = more;
  if (notes.length > 0) structured.note = notes.join("; ");
  return { content: [{ type: "text", text: lines.join("\n") }], structuredContent: structured };
}

export const gitLogTool: Tool<GitLogInput> = {
  name: "git_log",
  title: "Git log",
  description:
    "Commits newest first: short id, author date, author, subject. revision (default HEAD) or " +
    "A..B; base: base..revision; path: commits touching it (says when its history goes on " +
    "under an older name); follow: across renames; author/grep: fixed text, any case; " +
    "since/until: committer dates. head_limit commits (default 20, max 200).",
  inputSchema,
  outputSchema,
  annotations: readOnlyAnnotations("Git log"),
  run,
};
