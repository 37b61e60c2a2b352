/** grep: ripgrep-compatible search over the workspace (docs/tools.md "grep"). */
import { type InputOf, type Tool, type ToolContext, ToolError, type ToolResult } from "./tool.ts";
import { capNote, hintLine, lineSize, MESSAGE_CAP_BYTES, takePage } from "./paging.ts";
import { readOnlyAnnotations } from "./annotations.ts";
import { scopeOf, searchFailure } from "./search_support.ts";
import { globScopeNote, type SearchScope } from "../search/scope.ts";
import { type PatternSpec, translatePattern } from "../search/pattern.ts";
import { search, type SearchOutcome } from "../search/search.ts";
import { type ContentOptions, contentOutput } from "../search/content_lines.ts";
import type { FileResult, GrepMode, SkippedFile } from "../search/protocol.ts";
import { MAX_HOLD_BYTES } from "../search/stream_scan.ts";
import { limitText } from "../byte_sizes.ts";
import { recordContentLines } from "./shown_lines.ts";

const MODES: GrepMode[] = ["files_with_matches", "content", "count"];
const MAX_CONTEXT = 1000;

const inputSchema = {
  type: "object",
  properties: {
    pattern: {
      type: "string",
      description: "Regex, ripgrep (Rust regex) syntax; \\w \\d ASCII; no look-around",
    },
    path: { type: "string", description: "File or folder (default: root)" },
    glob: {
      type: "string",
      description: 'ripgrep -g glob, e.g. "*.ts"',
    },
    type: { type: "string", description: "ripgrep type: ts, js, py, go..." },
    output_mode: {
      type: "string",
      enum: MODES,
      default: "files_with_matches",
      description: "What to show",
    },
    "-i": { type: "boolean", default: false, description: "Case-insensitive" },
    "-w": { type: "boolean", default: false, description: "Whole words (rg -w)" },
    "-n": { type: "boolean", default: true, description: "Line numbers" },
    "-A": { type: "integer", minimum: 0, maximum: MAX_CONTEXT, description: "Lines after" },
    "-B": { type: "integer", minimum: 0, maximum: MAX_CONTEXT, description: "Lines before" },
    "-C": { type: "integer", minimum: 0, maximum: MAX_CONTEXT, description: "Lines around" },
    multiline: {
      type: "boolean",
      default: false,
      description: "Match across lines (rg -U)",
    },
    fixed_strings: { type: "boolean", default: false, description: "Pattern is a literal" },
    head_limit: {
      type: "integer",
      minimum: 0,
      description: "Max entries; 0 = all",
    },
    offset: { type: "integer", minimum: 0, default: 0, description: "Entries to skip" },
  },
  required: ["pattern"],
  additionalProperties: false,
} as const;

type GrepInput = InputOf<typeof inputSchema>;

const outputSchema = {
  type: "object",
  properties: {
    mode: { type: "string", enum: MODES, description: "The output mode" },
    files: { type: "array", items: { type: "string" }, description: "Matching files" },
    lines: { type: "array", items: { type: "string" }, description: "path:N:text lines" },
    counts: { type: "array", items: { type: "string" }, description: "path:N entries" },
    total_files: { type: "integer", description: "Files with matches" },
    total_matches: { type: "integer", description: "Matching lines in all files" },
    offset: { type: "integer", description: "First entry shown" },
    next_offset: { type: "integer", description: "Next page's offset" },
    truncated: { type: "boolean", description: "More entries remain" },
    note: { type: "string", description: "Files left out, and why" },
  },
  required: ["mode", "total_files", "total_matches", "offset", "truncated"],
  additionalProperties: false,
};

const NUL_SCAN_BYTES = 1024 * 1024;

/**
 * Offset of the first NUL byte of a named file (grep's binary rule), or -1, read a chunk at a
 * time (a 10 GB sparse file costs one chunk; a large text file is read through, never held).
 */
async function firstNul(ctx: ToolContext, rel: string): Promise<number> {
  let opened;
  try {
    opened = await ctx.workspace.openFile(rel);
  } catch {
    return -1; // vanished meanwhile: nothing to say beyond "No matches"
  }
  try {
    const chunk = new Uint8Array(NUL_SCAN_BYTES);
    for (let at = 0;;) {
      ctx.signal.throwIfAborted();
      const n = await opened.file.read(chunk);
      if (n === null || n === 0) return -1;
      const nul = chunk.subarray(0, n).indexOf(0);
      if (nul >= 0) return at + nul;
      at += n;
    }
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    return -1;
  } finally {
    opened.file.close();
  }
}

/** Why a file named alone was not searched: it would hold more than MAX_HOLD_BYTES at once. */
function tooLargeToSearch(skipped: SkippedFile): ToolError {
  const { path, reason: why, size } = skipped;
  const limit = limitText(MAX_HOLD_BYTES);
  return new ToolError(
    why === "multiline"
      ? `Cannot search ${JSON.stringify(path)} with a multiline pattern: it is ${
        limitText(size)
      } and a multiline search holds the whole file, at most ${limit}; search it without multiline`
      : `Cannot search ${
        JSON.stringify(path)
      }: it has a line longer than ${limit}, the most grep holds of one file at once, and this ` +
        "pattern must see a line whole; a literal (fixed_strings) or a pattern of bounded length " +
        "is searched in such lines",
  );
}

/**
 * The files a search of several left out because it would hold more than MAX_HOLD_BYTES of one
 * at once (never silent: docs/tools.md, "How much of a file a call holds"), or null.
 */
function skippedNote(skipped: readonly SkippedFile[]): string | null {
  if (skipped.length === 0) return null;
  const limit = limitText(MAX_HOLD_BYTES);
  const names = skipped.slice(0, 5).map((s) => JSON.stringify(s.path)).join(", ");
  const more = skipped.length > 5 ? ` and ${skipped.length - 5} more` : "";
  const why = skipped.every((s) => s.reason === "multiline")
    ? `a multiline search holds the whole file, at most ${limit}`
    : `each has a line over ${limit} that this pattern must see whole (a literal or a ` +
      "pattern of bounded length is searched in such lines)";
  const files = skipped.length === 1 ? "1 file" : `${skipped.length} files`;
  return `Not searched: ${files} (${names}${more}): ${why}`;
}

/** Context and line numbers shape content lines only: said, never ignored in silence. */
function refuseContentOnly(input: GrepInput, ctx: ToolContext): void {
  if (input.output_mode === "content") return;
  const unused = (["-A", "-B", "-C"] as const).filter((k) => input[k] !== undefined);
  if (ctx.given.has("-n") && input["-n"] === false) unused.push("-n" as never);
  if (unused.length > 0) {
    throw new ToolError(
      `${unused.join(", ")} shape${unused.length === 1 ? "s" : ""} content lines; set ` +
        `output_mode to "content" or leave ${unused.length === 1 ? "it" : "them"} out`,
    );
  }
}

/** The content options; -C is the around of -A and -B, when they are not given themselves. */
function contentOf(input: GrepInput): ContentOptions {
  const around = input["-C"] ?? 0;
  return { before: input["-B"] ?? around, after: input["-A"] ?? around, lineNumbers: input["-n"] };
}

/** The search over the scope, its failures in the model's words. */
async function searchScope(
  input: GrepInput,
  ctx: ToolContext,
  scope: SearchScope,
  spec: PatternSpec,
  content: ContentOptions,
): Promise<SearchOutcome> {
  const limit = input.head_limit ?? null;
  const { offset } = input;
  const budget = ctx.config.maxOutputChars;
  try {
    return await search(ctx.session, {
      ws: ctx.workspace.options,
      scope,
      spec,
      mode: input.output_mode,
      content,
      // One line past the page, so that whether more follow is known.
      collectLines: limit === null || limit === 0 ? Infinity : offset + limit + 1,
      collectChars: limit === null && budget > 0 ? budget + 1 : MESSAGE_CAP_BYTES + 1,
      offset,
    }, {
      signal: ctx.signal,
      progress: (n) => ctx.progress(n),
      timeoutMs: ctx.config.regexTimeoutMs,
    }, (done, total, message) => ctx.progress(done, total, message));
  } catch (error) {
    throw searchFailure(error, input.pattern, ctx.config.regexTimeoutMs);
  }
}

/** The entries that page: files, `path:N` counts, or content lines. */
function entriesOf(mode: GrepMode, results: readonly FileResult[], content: ContentOptions) {
  if (mode === "files_with_matches") return results.map((r) => r.path);
  if (mode === "count") return results.map((r) => `${r.path}:${r.count}`);
  return contentOutput(results, content);
}

/** What an answer without lines says: a binary file named alone, the end, or why none. */
async function emptyAnswer(
  ctx: ToolContext,
  scope: SearchScope,
  found: { files: number; entries: number; offset: number },
): Promise<string> {
  const { base, single: file } = scope;
  const binary = file && found.files === 0 ? await firstNul(ctx, base) : -1;
  if (binary >= 0) {
    return `Skipped "${base}": it is a binary file (a NUL byte at offset ${binary}), and grep ` +
      "searches text files only";
  }
  if (found.offset > 0 && found.entries > 0) return "No more matches";
  return (file ? null : globScopeNote(base, scope.globs)) ?? "No matches found";
}

async function run(input: GrepInput, ctx: ToolContext): Promise<ToolResult> {
  const { pattern, output_mode: mode, offset } = input;
  refuseContentOnly(input, ctx);
  const compiled = translatePattern(pattern, {
    ignoreCase: input["-i"],
    fixedStrings: input.fixed_strings,
    wholeWords: input["-w"],
    multiline: input.multiline,
  });
  if ("error" in compiled) throw new ToolError(compiled.error);
  const scope = scopeOf(ctx.workspace, input);
  const content = contentOf(input);
  const outcome = await searchScope(input, ctx, scope, compiled.spec, content);
  const results = outcome.results;
  const totalFiles = results.length;
  let totalMatches = 0;
  for (const r of results) totalMatches += r.count;
  const entries = entriesOf(mode, results, content);
  const page = takePage(entries, {
    offset,
    limit: input.head_limit ?? null,
    defaultLimit: Infinity,
    budgetChars: ctx.config.maxOutputChars,
  }, lineSize);
  if (!outcome.complete && page.nextOffset === undefined) {
    // The held lines end where collecting stopped, never before the page (grep_job.ts); the
    // files after them have matching lines, so the output goes on from there.
    if (entries.length <= offset) throw new RangeError("grep: the held lines end before the page");
    page.nextOffset = entries.length;
  }
  const lines = [...page.items];
  if (page.nextOffset !== undefined) {
    let remaining: string;
    if (mode === "content") {
      remaining = outcome.complete
        ? `${entries.length - page.nextOffset} more lines`
        : `more lines (${totalMatches} matching lines in ${totalFiles} files in all)`;
    } else remaining = `${entries.length - page.nextOffset} more files`;
    lines.push(hintLine(remaining, page.nextOffset, capNote(page.cutBy)));
  }
  if (scope.single && totalFiles === 0 && outcome.skipped.length > 0) {
    throw tooLargeToSearch(outcome.skipped[0]);
  }
  const notes: string[] = [];
  if (lines.length === 0) {
    const found = { files: totalFiles, entries: entries.length, offset };
    const empty = await emptyAnswer(ctx, scope, found);
    lines.push(empty);
    // Said in structuredContent too: hosts that show it drop the text.
    if (empty.startsWith("No files searched")) notes.push(empty);
  }
  // With --write, the lines shown count as read for edit_file (read before write).
  if (mode === "content" && content.lineNumbers) {
    await recordContentLines(ctx, page.items, results.map((r) => r.path));
  }
  const skipped = scope.single ? null : skippedNote(outcome.skipped);
  if (skipped !== null) {
    lines.push(skipped);
    notes.push(skipped);
  }
  const key = mode === "files_with_matches" ? "files" : mode === "count" ? "counts" : "lines";
  const structured: Record<string, unknown> = {
    mode,
    [key]: page.items,
    total_files: totalFiles,
    total_matches: totalMatches,
    offset,
  };
  if (page.nextOffset !== undefined) structured.next_offset = page.nextOffset;
  structured.truncated = page.nextOffset !== undefined;
  if (notes.length > 0) structured.note = notes.join("\n");
  return { content: [{ type: "text", text: lines.join("\n") }], structuredContent: structured };
}

export const grepTool: Tool<GrepInput> = {
  name: "grep",
  title: "Search file contents",
  description: "Search file contents with a regex, like ripgrep (rg --hidden), per line unless " +
    "multiline; ignored, .git, secret and binary files skipped. output_mode: " +
    "files_with_matches (default, sorted paths), content (path:line:text, context " +
    "path-line-text, -- between groups), count (path:N). head_limit/offset page files, lines " +
    "or counts; without head_limit the result stays small and says how to go on.",
  inputSchema,
  outputSchema,
  annotations: readOnlyAnnotations("Search file contents"),
  run,
};
