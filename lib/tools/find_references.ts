/**
 * find_references: where a name occurs as an identifier in code, from syntax trees
 * (docs/tools.md "find_references"). Name-based, not type-resolved.
 */
import { type InputOf, type Tool, type ToolContext, type ToolResult } from "./tool.ts";
import { capNote, hintLine, takePage } from "./paging.ts";
import { readOnlyAnnotations } from "./annotations.ts";
import { checkName, parseRefusal, symbolCandidates } from "./symbol_scope.ts";
import { recordContentLines } from "./shown_lines.ts";

const MAX_CONTEXT = 10;
const DEFINITION_MARK = "  [definition]";

const inputSchema = {
  type: "object",
  properties: {
    name: { type: "string", description: "Identifier to find (exact, case-sensitive)" },
    path: { type: "string", description: "File or folder to search (default: workspace root)" },
    glob: { type: "string", description: 'ripgrep -g glob, e.g. "*.ts", "!**/test/**"' },
    type: { type: "string", description: "ripgrep file type, e.g. ts, py, rust, go, c, cpp" },
    include_definitions: {
      type: "boolean",
      default: true,
      description: "Also list the definitions (marked [definition])",
    },
    "-C": {
      type: "integer",
      minimum: 0,
      maximum: MAX_CONTEXT,
      description: "Context lines around each reference (0-10)",
    },
    head_limit: { type: "integer", minimum: 0, description: "Max references; 0 = all" },
    offset: { type: "integer", minimum: 0, default: 0, description: "References to skip" },
  },
  required: ["name"],
  additionalProperties: false,
} as const;

export type FindReferencesInput = InputOf<typeof inputSchema>;

const outputSchema = {
  type: "object",
  properties: {
    lines: {
      type: "array",
      items: { type: "string" },
      description: "The page like `rg --column`: references `path:line:column:text` (column of " +
        "the first occurrence, 1-based), definitions ending in `  [definition]`, context " +
        "`path-line-text`, `--` between groups",
    },
    total: { type: "integer", description: "Reference lines in the whole scope" },
    total_files: { type: "integer", description: "Files with references" },
    skipped: { type: "integer", description: "Candidates not parsed (binary or too large)" },
    offset: { type: "integer", description: "First reference shown" },
    next_offset: { type: "integer", description: "Offset of the next page, if any" },
    truncated: { type: "boolean", description: "More references follow" },
  },
  required: ["lines", "total", "total_files", "skipped", "offset", "truncated"],
  additionalProperties: false,
};

interface Entry {
  path: string;
  line: number;
  column: number;
  text: string;
  definition: boolean;
}

/** An entry with the file's lines, so that the page can show context. */
interface Held {
  entry: Entry;
  lines: Record<number, string>;
}

function matchLine(e: Entry): string {
  return `${e.path}:${e.line}:${e.text}${e.definition ? DEFINITION_MARK : ""}`;
}

/** A reference as structuredContent carries it: the text line with its column (`rg --column`). */
function columnLine(e: Entry): string {
  return `${e.path}:${e.line}:${e.column}:${e.text}${e.definition ? DEFINITION_MARK : ""}`;
}

/**
 * The page as grep's content mode shows it: `path:N:text` for references, `path-N-text` for
 * context, `--` between groups that are not adjacent (only with context, as grep does).
 */
function render(
  items: readonly Held[],
  context: number,
  reference: (e: Entry) => string = matchLine,
): string[] {
  const out: string[] = [];
  const refs = new Set(items.map((h) => `${h.entry.path}\0${h.entry.line}`));
  let lastPath = "";
  let shownUpTo = 0;
  for (const { entry, lines } of items) {
    if (entry.path !== lastPath) shownUpTo = 0;
    const from = Math.max(1, entry.line - context, shownUpTo + 1);
    if (context > 0 && out.length > 0 && (entry.path !== lastPath || from > shownUpTo + 1)) {
      out.push("--");
    }
    for (let n = from; n < entry.line; n++) {
      if (lines[n] !== undefined) out.push(`${entry.path}-${n}-${lines[n]}`);
    }
    if (entry.line > shownUpTo) out.push(reference(entry));
    let to = entry.line;
    for (let n = entry.line + 1; n <= entry.line + context; n++) {
      if (lines[n] === undefined || refs.has(`${entry.path}\0${n}`)) break;
      out.push(`${entry.path}-${n}-${lines[n]}`);
      to = n;
    }
    shownUpTo = Math.max(shownUpTo, to);
    lastPath = entry.path;
  }
  return out;
}

function sizeOf(context: number) {
  return (h: Held): { text: number; json: number } => {
    let text = matchLine(h.entry).length + 1;
    // The structured lines are the text lines, each reference with its column, JSON-quoted.
    let json = JSON.stringify(columnLine(h.entry)).length + 1;
    for (let n = h.entry.line - context; n <= h.entry.line + context; n++) {
      if (n !== h.entry.line && h.lines[n] !== undefined) {
        const line = `${h.entry.path}-${n}-${h.lines[n]}`;
        text += line.length + 1;
        json += JSON.stringify(line).length + 1;
      }
    }
    return { text, json };
  };
}

async function run(input: FindReferencesInput, ctx: ToolContext): Promise<ToolResult> {
  const ws = ctx.workspace;
  const { name, include_definitions: withDefinitions } = input;
  checkName(name);
  const context = input["-C"] ?? 0;
  const { scope, candidates } = await symbolCandidates(ctx, input, {
    name,
    match: "exact",
    ignoreCase: false,
  });
  const maxBytes = ctx.config.maxReadBytes;
  const files = await ctx.session.symbols.references(ws, candidates, { name, context }, {
    signal: ctx.signal,
    maxBytes,
    progress: (n) => ctx.progress(n, candidates.length, "files parsed"),
  });
  const held: Held[] = [];
  let skipped = 0;
  let totalFiles = 0;
  for (const file of files) {
    if (!file.ok) {
      if (scope.single) throw parseRefusal(file.path, file, maxBytes);
      skipped++;
      continue;
    }
    const lines = file.lines ?? {};
    const before = held.length;
    for (const [line, column, definition] of file.references ?? []) {
      if (definition && !withDefinitions) continue;
      const last = held[held.length - 1];
      if (held.length > before && last.entry.line === line) {
        last.entry.definition ||= definition;
        continue;
      }
      const entry = { path: file.path, line, column, text: lines[line] ?? "", definition };
      held.push({ entry, lines });
    }
    if (held.length > before) totalFiles++;
  }
  const offset = input.offset;
  const page = takePage(held, {
    offset,
    limit: input.head_limit ?? null,
    defaultLimit: Infinity,
    budgetChars: ctx.config.maxOutputChars,
  }, sizeOf(context));
  const lines = render(page.items, context);
  // With --write, the lines shown count as read for edit_file (read before write).
  await recordContentLines(
    ctx,
    lines.map((l) => l.endsWith(DEFINITION_MARK) ? l.slice(0, -DEFINITION_MARK.length) : l),
    [...new Set(page.items.map((h) => h.entry.path))],
  );
  if (page.nextOffset !== undefined) {
    const remaining = `${held.length - page.nextOffset} more references`;
    lines.push(hintLine(remaining, page.nextOffset, capNote(page.cutBy)));
  }
  if (lines.length === 0) {
    lines.push(
      held.length > 0
        ? "No more references"
        : `No references to "${name}" found in code (${candidates.length} files mention it)`,
    );
  }
  if (skipped > 0) {
    lines.push(
      `[${skipped} files that mention it were not parsed: binary or over --max-read-bytes]`,
    );
  }
  const structured: Record<string, unknown> = {
    lines: render(page.items, context, columnLine),
    total: held.length,
    total_files: totalFiles,
    skipped,
    offset,
  };
  if (page.nextOffset !== undefined) structured.next_offset = page.nextOffset;
  structured.truncated = page.nextOffset !== undefined;
  return { content: [{ type: "text", text: lines.join("\n") }], structuredContent: structured };
}

export const findReferencesTool: Tool<FindReferencesInput> = {
  name: "find_references",
  title: "Find references to a name",
  description: "Lines where a name occurs as an identifier in code, read from syntax trees: " +
    "never in comments or string literals, never inside a longer identifier. Name-based, not " +
    "type-resolved: every identifier spelled like the name counts, whatever it refers to. " +
    "Output like grep's content mode (`path:line:text`, context `path-line-text`), definitions " +
    "marked `  [definition]`; include_definitions: false leaves them out. -C adds context " +
    "lines; head_limit/offset page by references; totals cover the whole scope. Languages: C, " +
    "C++, TypeScript, TSX, JavaScript, Python, Go, Rust, Java, Ruby.",
  inputSchema,
  outputSchema,
  annotations: readOnlyAnnotations("Find references to a name"),
  run,
};
