/** git_diff: unified diff or per-file line counts (docs/tools.md "git_diff"). */
import { type InputOf, type Tool, type ToolContext, ToolError, type ToolResult } from "./tool.ts";
import { capNote, type EntrySize, hintLine, lineSize, takePage } from "./paging.ts";
import { readOnlyAnnotations } from "./annotations.ts";
import { CAPPED_LINE, linesPage, optionalGitPath, wholeFields, withGit } from "./git_support.ts";
import { outputLines, withholdSecrets } from "../git/diff_text.ts";
import { type NumstatEntry, numstatLine, parseNumstat } from "../git/numstat.ts";
import { pathArgs } from "../git/pathspec.ts";
import { otherSides, parseNameStatus, renamesOf } from "../git/renames.ts";
import { decodeName, splitNul } from "../git/names.ts";
import { resolveCommits, resolveRevision } from "../git/revision.ts";
import type { GitRunner } from "../git/runner.ts";

/** Options of every command that prints a diff: no external programs, no repository order file. */
export const DIFF_OPTIONS = [
  "--no-ext-diff",
  "--no-textconv",
  "--no-color",
  "--ignore-submodules=all",
  "-O/dev/null",
];

/** Defaults the descriptions name (a schema `default` would change what tools/list shows). */
const DEFAULT_TARGET = "worktree";
const DEFAULT_CONTEXT = 3;

const inputSchema = {
  type: "object",
  properties: {
    target: {
      type: "string",
      description: '"worktree" (unstaged), "staged", or a revision',
    },
    base: {
      type: "string",
      description: "Revision to compare with (default: index, HEAD, or first parent)",
    },
    path: { type: "string", description: "Only this file or folder" },
    context: {
      type: "integer",
      minimum: 0,
      maximum: 20,
      description: "Context lines (default 3)",
    },
    stat_only: { type: "boolean", description: "Only added/deleted counts per file" },
    head_limit: {
      type: "integer",
      minimum: 0,
      description: "Max lines (files with stat_only); 0 = all",
    },
    offset: { type: "integer", minimum: 0, default: 0, description: "Lines (or files) to skip" },
  },
  required: [],
  additionalProperties: false,
} as const;

export type GitDiffInput = InputOf<typeof inputSchema>;

const outputSchema = {
  type: "object",
  properties: {
    lines: { type: "array", items: { type: "string" }, description: "Unified diff lines" },
    files: {
      type: "array",
      items: { type: "string" },
      description: "stat_only: `git diff --numstat` lines",
    },
    total: { type: "integer", description: "All lines (or files)" },
    offset: { type: "integer", description: "First line (or file) shown" },
    next_offset: { type: "integer", description: "Next page's offset" },
    truncated: { type: "boolean", description: "More follows" },
    capped: { type: "boolean", description: "git's output passed 8 MiB: files are missing" },
    rename_paths: {
      type: "array",
      items: { type: "string" },
      description: "Other names of path in the range",
    },
    note: { type: "string", description: "What the diff leaves out (untracked files)" },
  },
  required: ["total", "offset", "truncated"],
  additionalProperties: false,
};

/**
 * The command for `target` and `base`: `diff [--cached] [base] [target]`, or, for a revision
 * target without base, `show --diff-merges=first-parent` (what that commit changed: against its
 * first parent, a root commit against nothing), one process fewer than resolving the parent.
 */
async function command(
  git: GitRunner,
  input: GitDiffInput,
  signal: AbortSignal,
): Promise<string[]> {
  const target = input.target ?? DEFAULT_TARGET;
  const baseText = input.base ?? null;
  const isRevision = target !== "worktree" && target !== "staged";
  if (isRevision && baseText !== null) {
    const [base, oid] = await resolveCommits(git, [
      { rev: baseText, what: "base revision" },
      { rev: target, what: "target revision" },
    ], signal);
    return ["diff", base, oid];
  }
  const base = baseText === null
    ? null
    : await resolveRevision(git, baseText, { signal, what: "base revision" });
  if (target === "worktree") return base === null ? ["diff"] : ["diff", base];
  if (target === "staged") return base === null ? ["diff", "--cached"] : ["diff", "--cached", base];
  const oid = (await resolveRevision(git, target, { signal, what: "target revision" }))!;
  return ["show", "--format=", "--diff-merges=first-parent", oid];
}

function fileSize(entry: NumstatEntry): EntrySize {
  return lineSize(numstatLine(entry));
}

function statPage(
  entries: NumstatEntry[],
  input: GitDiffInput,
  ctx: ToolContext,
): ToolResult {
  const offset = input.offset;
  const page = takePage(entries, {
    offset,
    limit: input.head_limit ?? null,
    defaultLimit: Infinity,
    budgetChars: ctx.config.maxOutputChars,
  }, fileSize);
  const files = page.items.map(numstatLine);
  const lines = [...files];
  if (page.nextOffset !== undefined) {
    const remaining = `${entries.length - page.nextOffset} more files`;
    lines.push(hintLine(remaining, page.nextOffset, capNote(page.cutBy)));
  }
  if (lines.length === 0) lines.push(entries.length > 0 ? "No more files" : "No changes");
  const structured: Record<string, unknown> = { files, total: entries.length, offset };
  if (page.nextOffset !== undefined) structured.next_offset = page.nextOffset;
  structured.truncated = page.nextOffset !== undefined;
  return { content: [{ type: "text", text: lines.join("\n") }], structuredContent: structured };
}

/** Diff output as page-able lines: secrets withheld (unless allowed), the cap said. */
export function diffOutputLines(
  bytes: Uint8Array,
  capped: boolean,
  ctx: ToolContext,
): string[] {
  const raw = outputLines(bytes, capped);
  const lines = ctx.config.allowSecrets ? raw : withholdSecrets(raw);
  if (capped) lines.push(CAPPED_LINE);
  return lines;
}

/**
 * The other sides of renames of `rel` in the range: the same command without the pathspec, as
 * name-status (git's own rename detection, the one stat_only shows), so that a path limited to
 * one side still gets the rename diff the stat describes.
 */
async function renameSides(
  git: GitRunner,
  verb: string,
  revs: readonly string[],
  rel: string,
  signal: AbortSignal,
): Promise<string[]> {
  const out = await git.run([verb, ...DIFF_OPTIONS, "--name-status", "-z", ...revs], { signal });
  if (out.capped) return [];
  return otherSides(renamesOf(parseNameStatus(out.stdout)), rel);
}

/** Untracked, not ignored files under `rel` (what a work-tree diff never shows), sorted. */
async function untrackedFiles(
  git: GitRunner,
  rel: string | null,
  signal: AbortSignal,
): Promise<string[]> {
  const out = await git.run(
    ["ls-files", "--others", "--exclude-standard", "-z", ...pathArgs(rel)],
    { signal, capBytes: 1024 * 1024 },
  );
  const names: string[] = [];
  for (const field of splitNul(wholeFields(out.stdout, out.capped))) {
    const name = decodeName(field);
    if (name !== null) names.push(name);
  }
  return names;
}

/** "3 untracked files under src/ are not in a diff ..." for an empty work-tree diff, or null. */
function untrackedNote(untracked: readonly string[], rel: string | null): string | null {
  if (untracked.length === 0) return null;
  const shown = untracked.slice(0, 5).join(", ");
  const more = untracked.length > 5 ? `, and ${untracked.length - 5} more` : "";
  const where = rel === null ? "" : ` under ${rel}`;
  const n = untracked.length;
  return `No changes to tracked files; ${n} untracked file${n === 1 ? "" : "s"}${where} ${
    n === 1 ? "is" : "are"
  } not in a diff until added (git_status lists them): ${shown}${more}`;
}

/** Refuses parameters the chosen mode does not use, in one sentence. */
function checkMode(input: GitDiffInput): void {
  if (input.stat_only === true && input.context !== undefined) {
    throw new ToolError("context applies to the unified diff; leave it out with stat_only");
  }
}

async function run(input: GitDiffInput, ctx: ToolContext): Promise<ToolResult> {
  checkMode(input);
  const rel = optionalGitPath(ctx, input.path);
  const context = input.context ?? DEFAULT_CONTEXT;
  const statOnly = input.stat_only === true;
  return await withGit(ctx, async (git) => {
    const [verb, ...revs] = await command(git, input, ctx.signal);
    const format = statOnly ? ["--numstat", "-z"] : [`-U${context}`];
    const others = rel === null ? [] : await renameSides(git, verb, revs, rel, ctx.signal);
    const paths = rel === null ? [] : ["--", rel, ...others];
    const out = await git.run([verb, ...DIFF_OPTIONS, ...format, ...revs, ...paths], {
      signal: ctx.signal,
    });
    let page: ToolResult;
    if (statOnly) {
      page = statPage(parseNumstat(wholeFields(out.stdout, out.capped)).entries, input, ctx);
      if (out.capped && page.content[0].type === "text") {
        page.content[0].text += `\n${CAPPED_LINE}`;
        page.structuredContent!.capped = true;
      }
    } else {
      const lines = diffOutputLines(out.stdout, out.capped, ctx);
      page = linesPage(lines, input, ctx, { empty: "No changes" });
    }
    const structured = page.structuredContent!;
    if (others.length > 0) structured.rename_paths = others;
    // An empty work-tree diff says what it does not show: untracked files.
    const worktree = (input.target ?? DEFAULT_TARGET) === "worktree";
    if (worktree && structured.total === 0 && input.offset === 0) {
      const note = untrackedNote(await untrackedFiles(git, rel, ctx.signal), rel);
      if (note !== null && page.content[0].type === "text") {
        page.content[0].text = note;
        structured.note = note;
      }
    }
    return page;
  });
}

export const gitDiffTool: Tool<GitDiffInput> = {
  name: "git_diff",
  title: "Git diff",
  description:
    "Changes as a unified diff. target: worktree (default, unstaged), staged, or a revision; " +
    "base: compare with it (base..target). path narrows (renames in the range included); " +
    "context 0-20 (default 3); stat_only: added/deleted per file. Pages of whole lines " +
    "(offset). Secret files show no content.",
  inputSchema,
  outputSchema,
  annotations: readOnlyAnnotations("Git diff"),
  run,
};
