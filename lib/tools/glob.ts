/** glob: files by ripgrep -g pattern, most recently modified first (docs/tools.md "glob"). */
import { type InputOf, type Tool, type ToolContext, ToolError, type ToolResult } from "./tool.ts";
import { listPage } from "./list_page.ts";
import { readOnlyAnnotations } from "./annotations.ts";
import { resolvePath } from "./path_arguments.ts";
import { searchFailure } from "./search_support.ts";
import { compileGlob, normalizeGlob } from "../search/glob_match.ts";
import { runGlob } from "../search/walk_jobs.ts";
import { globScopeNote } from "../search/scope.ts";
import type { GlobbedFile } from "../search/protocol.ts";

const DEFAULT_LIMIT = 100;

const inputSchema = {
  type: "object",
  properties: {
    pattern: {
      type: "string",
      description: 'ripgrep -g glob, e.g. "**/*.ts"',
    },
    path: { type: "string", description: "Folder (default: root)" },
    head_limit: {
      type: "integer",
      minimum: 0,
      description: "Max files (default 100; 0 = all)",
    },
    offset: { type: "integer", minimum: 0, default: 0, description: "Files to skip" },
  },
  required: ["pattern"],
  additionalProperties: false,
} as const;

type GlobInput = InputOf<typeof inputSchema>;

const outputSchema = {
  type: "object",
  properties: {
    files: { type: "array", items: { type: "string" }, description: "Matching files" },
    total: { type: "integer", description: "All matching files" },
    offset: { type: "integer", description: "First file shown" },
    next_offset: { type: "integer", description: "Next page's offset" },
    truncated: { type: "boolean", description: "More files remain" },
    note: { type: "string", description: "Why none matched" },
  },
  required: ["files", "total", "offset", "truncated"],
  additionalProperties: false,
};

async function run(input: GlobInput, ctx: ToolContext): Promise<ToolResult> {
  const ws = ctx.workspace;
  const pattern = normalizeGlob(input.pattern);
  try {
    compileGlob(pattern);
  } catch (error) {
    throw new ToolError((error as Error).message);
  }
  const base = resolvePath(ws, input.path);
  let found: GlobbedFile[];
  try {
    found = await runGlob(ctx.session.pool, { ws: ws.options, base, globs: [pattern] }, {
      signal: ctx.signal,
      progress: (n) => ctx.progress(n),
      timeoutMs: ctx.config.regexTimeoutMs,
    });
  } catch (error) {
    throw searchFailure(error, pattern, ctx.config.regexTimeoutMs);
  }
  // Newest first, ties by path (segment order: "/" sorts before every other character).
  const keyed = found.map(({ rel, mtimeMs }) => ({ rel, mtimeMs, key: rel.replaceAll("/", "\0") }));
  keyed.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const files = keyed.map((f) => f.rel);
  // Said in structuredContent too: hosts that show it drop the text.
  const note = files.length === 0 ? globScopeNote(base, [pattern]) : null;
  return listPage(files, input, {
    ctx,
    key: "files",
    noun: "files",
    empty: note ?? "No files found",
    defaultLimit: DEFAULT_LIMIT,
    ...(note === null ? {} : { extra: { note } }),
  });
}

export const globTool: Tool<GlobInput> = {
  name: "glob",
  title: "Find files by name",
  description:
    "Find files by ripgrep -g glob: without / it matches names at any depth (*.ts), with / " +
    "the path from the root, path or not (src/**/*.ts); ** and {a,b} work, dotfiles match, " +
    "case-sensitive. Newest first; ignored, .git and secret files left out. head_limit " +
    "(default 100), offset.",
  inputSchema,
  outputSchema,
  annotations: readOnlyAnnotations("Find files by name"),
  run,
};
