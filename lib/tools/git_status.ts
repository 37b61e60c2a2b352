/** git_status: branch, upstream, ahead/behind and changed files (docs/tools.md "git_status"). */
import type { InputOf, Tool, ToolContext, ToolResult } from "./tool.ts";
import { capNote, type EntrySize, hintLine, lineSize, takePage } from "./paging.ts";
import { readOnlyAnnotations } from "./annotations.ts";
import { CAPPED_LINE, optionalGitPath, wholeFields, withGit } from "./git_support.ts";
import { pathArgs } from "../git/pathspec.ts";
import { parseStatus, type StatusEntry, statusHeader, statusLine } from "../git/status.ts";

const DEFAULT_LIMIT = 1000;

const inputSchema = {
  type: "object",
  properties: {
    path: { type: "string", description: "Only changes under this" },
    head_limit: {
      type: "integer",
      minimum: 0,
      description: "Max entries (default 1000; 0 = all)",
    },
    offset: { type: "integer", minimum: 0, default: 0, description: "Entries to skip" },
  },
  required: [],
  additionalProperties: false,
} as const;

export type GitStatusInput = InputOf<typeof inputSchema>;

const outputSchema = {
  type: "object",
  properties: {
    branch: { type: "string", description: 'Current branch, or "HEAD" when detached' },
    detached: { type: "boolean", description: "HEAD is detached" },
    upstream: { type: "string", description: "Upstream branch, if any" },
    ahead: { type: "integer", description: "Commits ahead of upstream" },
    behind: { type: "integer", description: "Commits behind upstream" },
    entries: {
      type: "array",
      items: { type: "string" },
      description: "Changed files as `git status --short` shows them: `XY path`, or " +
        '`XY from -> path` for a rename or copy (XY: "M ", " M", "A ", "??", "UU"...)',
    },
    total: { type: "integer", description: "All entries" },
    offset: { type: "integer", description: "First entry shown" },
    next_offset: { type: "integer", description: "Next page's offset" },
    truncated: { type: "boolean", description: "More entries remain" },
    capped: { type: "boolean", description: "git's output passed 8 MiB: entries are missing" },
  },
  required: ["branch", "entries", "total", "offset", "truncated"],
  additionalProperties: false,
};

function entrySize(entry: StatusEntry): EntrySize {
  return lineSize(statusLine(entry));
}

async function run(input: GitStatusInput, ctx: ToolContext): Promise<ToolResult> {
  const rel = optionalGitPath(ctx, input.path);
  const info = await withGit(ctx, async (git) => {
    const out = await git.run(
      ["status", "--porcelain=v2", "-z", "--branch", "--ignore-submodules=all", ...pathArgs(rel)],
      { signal: ctx.signal },
    );
    return { ...parseStatus(wholeFields(out.stdout, out.capped)), capped: out.capped };
  });
  const offset = input.offset;
  const page = takePage(info.entries, {
    offset,
    limit: input.head_limit ?? null,
    defaultLimit: DEFAULT_LIMIT,
    budgetChars: ctx.config.maxOutputChars,
  }, entrySize);
  const lines = [statusHeader(info), ...page.items.map(statusLine)];
  if (page.nextOffset !== undefined) {
    const remaining = `${info.entries.length - page.nextOffset} more entries`;
    lines.push(hintLine(remaining, page.nextOffset, capNote(page.cutBy)));
  }
  if (info.capped) lines.push(CAPPED_LINE);
  if (info.entries.length === 0) lines.push("nothing to commit, working tree clean");
  else if (page.items.length === 0) lines.push("No more entries");
  const structured: Record<string, unknown> = { branch: info.branch ?? "HEAD" };
  if (info.branch === null) structured.detached = true;
  if (info.upstream !== null) structured.upstream = info.upstream;
  if (info.ahead !== null) structured.ahead = info.ahead;
  if (info.behind !== null) structured.behind = info.behind;
  structured.entries = page.items.map(statusLine);
  structured.total = info.entries.length;
  structured.offset = offset;
  if (page.nextOffset !== undefined) structured.next_offset = page.nextOffset;
  structured.truncated = page.nextOffset !== undefined;
  if (info.capped) structured.capped = true;
  return { content: [{ type: "text", text: lines.join("\n") }], structuredContent: structured };
}

export const gitStatusTool: Tool<GitStatusInput> = {
  name: "git_status",
  title: "Git status",
  description:
    "git status --short --branch: branch, upstream, ahead/behind, then `XY path` per changed " +
    "file (X index, Y work tree; 'R  old -> new', '??' untracked). path narrows.",
  inputSchema,
  outputSchema,
  annotations: readOnlyAnnotations("Git status"),
  run,
};
