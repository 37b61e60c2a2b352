/** git_blame: who last changed each line, by line range (docs/tools.md "git_blame"). */
import { type InputOf, type Tool, type ToolContext, ToolError, type ToolResult } from "./tool.ts";
import { capNote, hintLine, takePage } from "./paging.ts";
import { readOnlyAnnotations } from "./annotations.ts";
import { withGit } from "./git_support.ts";
import { type BlameGroup, type BlameLine, parseBlame } from "../git/blame.ts";
import { isSecretPath, SECRET_WITHHELD } from "../git/names.ts";
import { gitPath } from "../git/pathspec.ts";
import { resolveRevision } from "../git/revision.ts";
import type { GitRunner } from "../git/runner.ts";
import { relativeUnder } from "../workspace/names.ts";
import { recordShownLines } from "./shown_lines.ts";

const DEFAULT_LIMIT = 200;

const inputSchema = {
  type: "object",
  properties: {
    path: { type: "string", description: "File to blame" },
    revision: {
      type: "string",
      description: "Blame the file as of this revision (default: the work tree file)",
    },
    offset: { type: "integer", minimum: 1, description: "First line, 1-based (default 1)" },
    limit: { type: "integer", minimum: 1, description: "Max lines (default 200)" },
  },
  required: ["path"],
  additionalProperties: false,
} as const;

export type GitBlameInput = InputOf<typeof inputSchema>;

const groupSchema = {
  type: "object",
  properties: {
    commit: {
      type: "string",
      description: "Commit that last changed these lines (zeros: not committed)",
    },
    author: { type: "string", description: "Its author" },
    date: { type: "string", description: "Its author date, ISO 8601" },
    summary: { type: "string", description: "Its subject" },
    start_line: { type: "integer", description: "First line of the group" },
    end_line: { type: "integer", description: "Last line of the group" },
  },
  required: ["commit", "author", "date", "summary", "start_line", "end_line"],
  additionalProperties: false,
};

const outputSchema = {
  type: "object",
  properties: {
    path: { type: "string", description: "Workspace-relative path" },
    groups: { type: "array", items: groupSchema, description: "Runs of lines by commit" },
    lines: { type: "array", items: { type: "string" }, description: "The lines' text, in order" },
    start_line: { type: "integer", description: "First line shown" },
    end_line: { type: "integer", description: "Last line shown" },
    next_offset: { type: "integer", description: "Offset of the next page, if any" },
    truncated: { type: "boolean", description: "More lines follow" },
  },
  required: ["path", "groups", "lines", "start_line", "end_line", "truncated"],
  additionalProperties: false,
};

/** Refuses blame when the repository names an ignore-revs file outside the root. */
async function checkIgnoreRevs(git: GitRunner, signal: AbortSignal): Promise<void> {
  const root = git.target.root;
  for (const file of await git.ignoreRevsFiles(signal)) {
    const abs = file.startsWith("/")
      ? file
      : file.startsWith("~")
      ? "/nonexistent"
      : `${root}/${file}`;
    let real: string | null;
    try {
      real = Deno.realPathSync(abs);
    } catch {
      real = null; // missing: git reports it
    }
    if (real === null ? relativeUnder(abs, root) === null : relativeUnder(real, root) === null) {
      throw new ToolError(
        "git_blame is refused in this repository: its config sets blame.ignoreRevsFile to " +
          `${JSON.stringify(file)}, outside the workspace`,
      );
    }
  }
}

function blameLine(line: BlameLine, group: BlameGroup): string {
  return `${line.commit.slice(0, 8)} ${group.author} ${
    group.date.slice(0, 10)
  } ${line.line}\t${line.text}`;
}

async function run(input: GitBlameInput, ctx: ToolContext): Promise<ToolResult> {
  const rel = gitPath(ctx.workspace, input.path);
  if (rel === "") throw new ToolError("Give the path of a file to blame, not the root");
  const offset = input.offset ?? 1;
  const explicit = input.limit !== undefined;
  const limit = input.limit ?? DEFAULT_LIMIT;
  const revision = input.revision ?? null;
  const blamed = await withGit(ctx, async (git) => {
    await checkIgnoreRevs(git, ctx.signal);
    const oid = revision === null
      ? null
      : await resolveRevision(git, revision, { signal: ctx.signal });
    const out = await git.run([
      "blame",
      "--porcelain",
      "--no-textconv",
      `-L${offset},+${limit + 1}`,
      ...(oid === null ? [] : [oid]),
      "--",
      rel,
    ], { signal: ctx.signal });
    const parsed = parseBlame(out.stdout);
    // Past the 8 MiB cap the last line may be cut: drop it; the page then ends before it.
    if (out.capped) parsed.lines.pop();
    return { ...parsed, capped: out.capped };
  });
  const byLine = new Map<number, BlameGroup>();
  for (const group of blamed.groups) {
    for (let n = group.start_line; n <= group.end_line; n++) byLine.set(n, group);
  }
  const page = takePage(blamed.lines, {
    offset: 0,
    limit,
    defaultLimit: limit,
    budgetChars: explicit ? 0 : ctx.config.maxOutputChars,
  }, (line) => {
    const text = blameLine(line, byLine.get(line.line)!);
    return { text: text.length + 1, json: JSON.stringify(line.text).length + 60 };
  });
  const shown = page.items;
  const more = page.nextOffset !== undefined || (blamed.capped && shown.length > 0);
  const end = shown.length > 0 ? shown[shown.length - 1].line : offset - 1;
  const groups = blamed.groups
    .filter((g) => g.end_line >= offset && g.start_line <= end)
    .map((g) => ({ ...g, end_line: Math.min(g.end_line, end) }));
  const secret = isSecretPath(rel) && !ctx.config.allowSecrets;
  const text = secret
    ? [
      ...groups.map((g) =>
        `${g.commit.slice(0, 8)} ${g.author} ${g.date.slice(0, 10)} ${g.start_line}-${g.end_line}`
      ),
      SECRET_WITHHELD,
    ]
    : shown.map((line) => blameLine(line, byLine.get(line.line)!));
  if (more) text.push(hintLine("more lines", end + 1, capNote(blamed.capped ? "cap" : page.cutBy)));
  if (shown.length === 0) text.push("(empty file)");
  // With --write, blamed lines of the work-tree file count as read for edit_file.
  if (revision === null && !secret) {
    await recordShownLines(
      ctx,
      rel,
      shown.map((l) => ({
        line: l.line,
        text: l.text.endsWith("\r") ? l.text.slice(0, -1) : l.text,
      })),
    );
  }
  const structured: Record<string, unknown> = {
    path: rel,
    groups,
    lines: secret ? [SECRET_WITHHELD] : shown.map((line) => line.text),
    start_line: offset,
    end_line: end,
  };
  if (more) structured.next_offset = end + 1;
  structured.truncated = more;
  return { content: [{ type: "text", text: text.join("\n") }], structuredContent: structured };
}

export const gitBlameTool: Tool<GitBlameInput> = {
  name: "git_blame",
  title: "Git blame",
  description: "Show who last changed each line of a file and in which commit, like git blame: " +
    "one line each as short id, author, date, line number, tab, text; plus groups of " +
    "consecutive lines per commit with the commit's subject. offset (1-based) and limit " +
    "(default 200) pick the lines; revision blames the file as of that commit (default: the " +
    "work tree file, uncommitted lines show zeros). Secret files show no content.",
  inputSchema,
  outputSchema,
  annotations: readOnlyAnnotations("Git blame"),
  run,
};
