/** outline: the symbols of one file, nested, from its syntax tree (docs/tools.md "outline"). */
import { type InputOf, type Tool, type ToolContext, ToolError, type ToolResult } from "./tool.ts";
import { fileArgument } from "./path_arguments.ts";
import { capNote, type EntrySize, hintLine, lineSize, takePage } from "./paging.ts";
import { readOnlyAnnotations } from "./annotations.ts";
import { parseRefusal, supportedLanguage } from "./symbol_scope.ts";
import { languageOf } from "../symbols/languages.ts";
import { type FlatSymbol, flattenSymbols, outlineLine } from "../symbols/outline_lines.ts";
import { recordLinesAt } from "./shown_lines.ts";

const inputSchema = {
  type: "object",
  properties: {
    path: { type: "string", description: "Source file" },
    file_path: { type: "string", description: "Same as path (give one)" },
    depth: {
      type: "integer",
      minimum: 1,
      description: "Nesting levels (1 = top level; default all)",
    },
    head_limit: { type: "integer", minimum: 0, description: "Max symbols; 0 = all" },
    offset: { type: "integer", minimum: 0, default: 0, description: "Symbols to skip" },
  },
  required: [],
  additionalProperties: false,
} as const;

export type OutlineInput = InputOf<typeof inputSchema>;

const outputSchema = {
  type: "object",
  properties: {
    path: { type: "string", description: "Workspace-relative path" },
    language: { type: "string", description: "Language the file was parsed as" },
    partial: { type: "boolean", description: "Syntax errors: symbols may be missing" },
    symbols: {
      type: "array",
      items: { type: "string" },
      description: "The text's lines: `<start>-<end> <kind> <name>`, indented per level",
    },
    total: { type: "integer", description: "Symbols in the outline (at the depth asked)" },
    offset: { type: "integer", description: "First symbol shown (pre-order index)" },
    next_offset: { type: "integer", description: "Next page's offset" },
    truncated: { type: "boolean", description: "More symbols follow" },
  },
  required: ["path", "language", "partial", "symbols", "total", "offset", "truncated"],
  additionalProperties: false,
};

/**
 * The page's lines. A symbol whose parent is not on the page (a page that starts inside a class)
 * names its container, as find_symbol does: `  6-6 field side  (in Square)`.
 */
function pageLines(items: readonly FlatSymbol[]): string[] {
  let shallowest = Infinity;
  return items.map((flat) => {
    const orphan = flat.depth > 0 && flat.depth <= shallowest;
    shallowest = Math.min(shallowest, flat.depth);
    const container = flat.symbol.container;
    return orphan && container !== undefined
      ? `${outlineLine(flat)}  (in ${container})`
      : outlineLine(flat);
  });
}

function entrySize(flat: FlatSymbol): EntrySize {
  // Counted as if every nested symbol named its container: a page never outgrows the budget.
  const container = flat.depth > 0 ? flat.symbol.container : undefined;
  return lineSize(
    container === undefined ? outlineLine(flat) : `${outlineLine(flat)}  (in ${container})`,
  );
}

async function run(input: OutlineInput, ctx: ToolContext): Promise<ToolResult> {
  const ws = ctx.workspace;
  const { rel } = ws.resolve(fileArgument(input, "outline"));
  let isDir = false;
  try {
    isDir = ws.kind(rel) === "folder";
  } catch {
    // vanished: the parse reports it
  }
  if (isDir) {
    throw new ToolError(`Cannot outline "${rel || "."}": it is a folder; give one of its files`);
  }
  supportedLanguage(rel, "outline");
  const maxBytes = ctx.config.maxReadBytes;
  const outcomes = await ctx.session.symbols.symbols(ws, [rel], {
    signal: ctx.signal,
    maxBytes,
  });
  const outcome = outcomes.get(rel);
  if (outcome === undefined) throw new ToolError(`Cannot read symbols of "${rel}"; try again`);
  if (!outcome.ok) throw parseRefusal(rel, outcome, maxBytes);

  const depth = input.depth ?? Infinity;
  const flat = flattenSymbols(outcome.symbols, depth);
  const offset = input.offset;
  const page = takePage(flat, {
    offset,
    limit: input.head_limit ?? null,
    defaultLimit: Infinity,
    budgetChars: ctx.config.maxOutputChars,
  }, entrySize);
  // With --write, each symbol's first line counts as read for edit_file while it holds the name.
  await recordLinesAt(
    ctx,
    page.items.map(({ symbol }) => ({ path: rel, line: symbol.start_line, word: symbol.name })),
  );
  const shown = pageLines(page.items);
  const lines = [...shown];
  if (page.nextOffset !== undefined) {
    const remaining = `${flat.length - page.nextOffset} more symbols`;
    lines.push(hintLine(remaining, page.nextOffset, capNote(page.cutBy)));
  }
  if (lines.length === 0) {
    lines.push(flat.length > 0 ? "No more symbols" : `No symbols found in "${rel}"`);
  }
  if (outcome.partial) {
    const at = outcome.errorLine === undefined ? "" : ` at line ${outcome.errorLine}`;
    lines.push(
      `[partial: the file could not be fully parsed${at}; symbols near there may be missing]`,
    );
  }
  const language = outcome.language === "cpp" ? "C++" : languageOf(rel)!.name;
  const structured: Record<string, unknown> = {
    path: rel,
    language,
    partial: outcome.partial,
    symbols: shown,
    total: flat.length,
    offset,
  };
  if (page.nextOffset !== undefined) structured.next_offset = page.nextOffset;
  structured.truncated = page.nextOffset !== undefined;
  return { content: [{ type: "text", text: lines.join("\n") }], structuredContent: structured };
}

export const outlineTool: Tool<OutlineInput> = {
  name: "outline",
  title: "Outline a source file",
  description:
    "Symbols of one source file from its syntax tree, in order: `<start>-<end> <kind> <name>` " +
    "per line, indented two spaces per level. Syntax errors: partial: true. depth limits " +
    "nesting; head_limit/offset page.",
  inputSchema,
  outputSchema,
  annotations: readOnlyAnnotations("Outline a source file"),
  run,
};
