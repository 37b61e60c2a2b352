/** git_blame: who last changed each line, by line range (docs/tools.md "git_blame"). */
import { type InputOf, type Tool, type ToolContext, ToolError, type ToolResult } from "./tool.ts";
import { capNote, entrySize, hintLine, takePage } from "./paging.ts";
import { readOnlyAnnotations } from "./annotations.ts";
import { withGit } from "./git_support.ts";
import { type BlameGroup, type BlameLine, parseBlame } from "../git/blame.ts";
import { isSecretPath, SECRET_WITHHELD } from "../git/names.ts";
import { gitPath } from "../git/pathspec.ts";
import { movedHint } from "../git/moved_path.ts";
import { resolveRevision } from "../git/revision.ts";
import { GitError, type GitRunner } from "../git/runner.ts";
import type { Workspace } from "../workspace/workspace.ts";
import { recordShownLines } from "./shown_lines.ts";

const DEFAULT_LIMIT = 200;

const inputSchema = {
  type: "object",
  properties: {
    path: { type: "string", description: "File to blame" },
    revision: {
      type: "string",
      description: "As of this revision (default: the work tree)",
    },
    offset: { type: "integer", minimum: 1, description: "First line, 1-based (default 1)" },
    limit: { type: "integer", minimum: 1, description: "Max lines (default 200)" },
    ignore_revs: {
      type: "boolean",
      description: "Skip the root's .git-blame-ignore-revs commits",
    },
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
      description: "Last commit (zeros: not committed)",
    },
    author: { type: "string", description: "Its author" },
    date: { type: "string", description: "Its author date, ISO 8601" },
    summary: { type: "string", description: "Its subject" },
    start_line: { type: "integer", description: "First line of the group" },
    end_line: { type: "integer", description: "Last line of the group" },
    path: { type: "string", description: "Older file name, when it differs" },
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
    next_offset: { type: "integer", description: "Next page's offset" },
    total_lines: { type: "integer", description: "Lines in the file (given when more follow)" },
    truncated: { type: "boolean", description: "More lines follow" },
    ignore_revs_file: {
      type: "string",
      description: "The ignore-revs file used",
    },
    note: { type: "string", description: "Why the ignore-revs file could not be used" },
  },
  required: ["path", "groups", "lines", "start_line", "end_line", "truncated"],
  additionalProperties: false,
};

/** Refuses blame when the repository names an ignore-revs file outside the root. */
async function checkIgnoreRevs(
  git: GitRunner,
  ws: Workspace,
  signal: AbortSignal,
): Promise<void> {
  const root = git.target.root;
  for (const file of await git.ignoreRevsFiles(signal)) {
    const abs = file.startsWith("/")
      ? file
      : file.startsWith("~")
      ? "/nonexistent"
      : `${root}/${file}`;
    // A missing file is judged as written: git reports it.
    if (!ws.containsReal(abs)) {
      throw new ToolError(
        "git_blame is refused in this repository: its config sets blame.ignoreRevsFile to " +
          `${JSON.stringify(file)}, outside the workspace`,
      );
    }
  }
}

/** The root's ignore-revs file, when it exists as a regular served file. */
const IGNORE_REVS = ".git-blame-ignore-revs";

async function ignoreRevsFile(ctx: ToolContext): Promise<string | null> {
  try {
    const opened = await ctx.workspace.openFile(IGNORE_REVS);
    opened.file.close();
    return opened.abs;
  } catch {
    return null;
  }
}

/**
 * Refuses a blame at a revision that has no file at `rel` in one sentence saying where the file
 * was (git says only "no such path"); returns when the path is a file there.
 */
async function checkPathAt(
  git: GitRunner,
  at: { oid: string; rel: string; revision: string },
  signal: AbortSignal,
): Promise<void> {
  const check = await git.run(["cat-file", "--batch-check"], {
    signal,
    stdin: new TextEncoder().encode(`${at.oid}:${at.rel}\n`),
  });
  const kind = / (\w+) \d+\n?$/.exec(new TextDecoder().decode(check.stdout))?.[1] ?? null;
  if (kind === "blob") return;
  const where = `"${at.rel}" at revision "${at.revision}"`;
  if (kind !== null) throw new ToolError(`${where} is a ${kind}, not a file`);
  const hint = await movedHint(git, { oid: at.oid, rel: at.rel, tool: "git_blame" }, signal);
  throw new ToolError(
    `No file ${where}${
      hint ?? "; git_log with this path and follow: true lists the revisions that have it"
    }`,
  );
}

/** Lines of the blamed file (work tree or revision), for the paging hint; null when unknown. */
async function lineTotal(
  git: GitRunner,
  ctx: ToolContext,
  rel: string,
  oid: string | null,
): Promise<number | null> {
  let bytes: Uint8Array;
  if (oid === null) {
    try {
      bytes = await ctx.workspace.readFile(rel, { maxBytes: 8 * 1024 * 1024 });
    } catch {
      return null;
    }
  } else {
    const out = await git.run(["cat-file", "--batch"], {
      signal: ctx.signal,
      stdin: new TextEncoder().encode(`${oid}:${rel}\n`),
    });
    if (out.capped) return null;
    const nl = out.stdout.indexOf(10);
    bytes = out.stdout.subarray(nl + 1, out.stdout.length - 1);
  }
  let n = 0;
  for (let at = bytes.indexOf(10); at >= 0; at = bytes.indexOf(10, at + 1)) n++;
  return bytes.length > 0 && bytes[bytes.length - 1] !== 10 ? n + 1 : n;
}

function blameLine(line: BlameLine, group: BlameGroup): string {
  return `${line.commit.slice(0, 8)} ${group.author} ${
    group.date.slice(0, 10)
  } ${line.line}\t${line.text}`;
}

/** What one blame call asks: the range, the revision, and the ignore-revs list. */
interface BlameAsk {
  rel: string;
  offset: number;
  limit: number;
  revision: string | null;
  useIgnoreRevs: boolean;
  ignoreFile: string | null;
}

/**
 * `git blame --porcelain` of the range (one line more, to know whether more follow), parsed; a
 * list of ignored commits git cannot read is left out with a note; `total` counted only when
 * the page does not reach the end.
 */
async function blameRange(ctx: ToolContext, ask: BlameAsk) {
  const { rel, offset, limit, revision, useIgnoreRevs, ignoreFile } = ask;
  return await withGit(ctx, async (git) => {
    await checkIgnoreRevs(git, ctx.workspace, ctx.signal);
    const oid = revision === null
      ? null
      : await resolveRevision(git, revision, { signal: ctx.signal });
    const blame = (ignore: string[]) =>
      git.run([
        "blame",
        "--porcelain",
        "--no-textconv",
        ...ignore,
        `-L${offset},+${limit + 1}`,
        ...(oid === null ? [] : [oid]),
        "--",
        rel,
      ], { signal: ctx.signal });
    // ignore_revs: false also clears a list the repository's config names ("" resets it).
    const off = useIgnoreRevs ? [] : ["--ignore-revs-file="];
    let out;
    let used = ignoreFile;
    let note: string | null = null;
    try {
      out = await blame(ignoreFile === null ? off : [`--ignore-revs-file=${ignoreFile}`]);
    } catch (error) {
      if (oid !== null && error instanceof GitError) {
        await checkPathAt(git, { oid, rel, revision: revision! }, ctx.signal);
      }
      if (ignoreFile === null || !(error instanceof GitError)) throw error;
      // A list git cannot read (a bad line) must not make blame unusable: blame without it.
      out = await blame([]);
      used = null;
      note = `${IGNORE_REVS} was not used: ${error.message}`;
    }
    const parsed = parseBlame(out.stdout, rel);
    // Past the 8 MiB cap the last line may be cut: drop it; the page then ends before it.
    if (out.capped) parsed.lines.pop();
    const total = parsed.lines.length > limit || out.capped
      ? await lineTotal(git, ctx, rel, oid)
      : null;
    return { ...parsed, capped: out.capped, used, note, total };
  });
}

type Blamed = Awaited<ReturnType<typeof blameRange>>;

/** The page of blamed lines, their groups cut to it, and whether more lines follow. */
function blamePage(
  blamed: Blamed,
  ask: { offset: number; limit: number; budgetChars: number },
) {
  const byLine = new Map<number, BlameGroup>();
  for (const group of blamed.groups) {
    for (let n = group.start_line; n <= group.end_line; n++) byLine.set(n, group);
  }
  const page = takePage(blamed.lines, {
    offset: 0,
    limit: ask.limit,
    defaultLimit: ask.limit,
    budgetChars: ask.budgetChars,
  }, (line) => {
    const text = blameLine(line, byLine.get(line.line)!);
    // The line's text, and about 60 characters of its group's fields.
    const size = entrySize(text, line.text);
    return { text: size.text, json: size.json + 60, wire: size.wire + 60 };
  });
  const shown = page.items;
  const more = page.nextOffset !== undefined || (blamed.capped && shown.length > 0);
  const end = shown.length > 0 ? shown[shown.length - 1].line : ask.offset - 1;
  const groups = blamed.groups
    .filter((g) => g.end_line >= ask.offset && g.start_line <= end)
    .map((g) => ({ ...g, end_line: Math.min(g.end_line, end) }));
  return { byLine, shown, more, end, groups, cutBy: page.cutBy };
}

type BlamePage = ReturnType<typeof blamePage>;

/** The text's lines: the blamed lines (or, for a secret file, the groups alone) and the notes. */
function blameText(blamed: Blamed, page: BlamePage, secret: boolean): string[] {
  const { shown, more, end, groups, byLine } = page;
  const text = secret
    ? [
      ...groups.map((g) =>
        `${g.commit.slice(0, 8)} ${g.author} ${g.date.slice(0, 10)} ${g.start_line}-${g.end_line}`
      ),
      SECRET_WITHHELD,
    ]
    : shown.map((line) => blameLine(line, byLine.get(line.line)!));
  if (more) {
    const remaining = blamed.total === null || blamed.total <= end
      ? "more lines"
      : `${blamed.total - end} more lines (${blamed.total} in all)`;
    text.push(hintLine(remaining, end + 1, capNote(blamed.capped ? "cap" : page.cutBy)));
  }
  if (shown.length === 0) text.push("(empty file)");
  const older = [...new Set(groups.flatMap((g) => g.path === undefined ? [] : [g.path]))];
  if (older.length > 0 && !secret) {
    text.push(`[some lines come from the file's older name: ${older.join(", ")} (see groups)]`);
  }
  if (blamed.used !== null) {
    text.push(`[commits listed in ${IGNORE_REVS} are skipped; ignore_revs: false blames them too]`);
  }
  if (blamed.note !== null) text.push(`[${blamed.note}]`);
  return text;
}

async function run(input: GitBlameInput, ctx: ToolContext): Promise<ToolResult> {
  const rel = gitPath(ctx.workspace, input.path);
  if (rel === "") throw new ToolError("Give the path of a file to blame, not the root");
  const offset = input.offset ?? 1;
  const explicit = input.limit !== undefined;
  const limit = input.limit ?? DEFAULT_LIMIT;
  const revision = input.revision ?? null;
  const useIgnoreRevs = input.ignore_revs !== false;
  const ignoreFile = useIgnoreRevs ? await ignoreRevsFile(ctx) : null;
  const blamed = await blameRange(ctx, {
    rel,
    offset,
    limit,
    revision,
    useIgnoreRevs,
    ignoreFile,
  });
  const page = blamePage(blamed, {
    offset,
    limit,
    budgetChars: explicit ? 0 : ctx.config.maxOutputChars,
  });
  const { shown, more, end, groups } = page;
  const secret = isSecretPath(rel) && !ctx.config.allowSecrets;
  const text = blameText(blamed, page, secret);
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
  if (more && blamed.total !== null && blamed.total > end) structured.total_lines = blamed.total;
  structured.truncated = more;
  if (blamed.used !== null) structured.ignore_revs_file = IGNORE_REVS;
  if (blamed.note !== null) structured.note = blamed.note;
  return { content: [{ type: "text", text: text.join("\n") }], structuredContent: structured };
}

export const gitBlameTool: Tool<GitBlameInput> = {
  name: "git_blame",
  title: "Git blame",
  description:
    "Who last changed each line, like git blame: short id, author, date, line number, tab, " +
    "text; plus per-commit groups with subjects. offset (1-based)/limit (default 200) pick " +
    "lines; revision blames as of a commit (default: the work tree; uncommitted lines show " +
    "zeros). The root's .git-blame-ignore-revs applies unless ignore_revs is false. Secret " +
    "files show no content.",
  inputSchema,
  outputSchema,
  annotations: readOnlyAnnotations("Git blame"),
  run,
};
