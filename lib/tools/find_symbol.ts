/** find_symbol: where names are defined, from syntax trees (docs/tools.md "find_symbol"). */
import { type InputOf, type Tool, type ToolContext, type ToolResult } from "./tool.ts";
import { hintLine, readOnlyAnnotations } from "./tool_support.ts";
import { checkName, parseRefusal, symbolCandidates } from "./symbol_scope.ts";
import { capNote, takePage } from "../search/paging.ts";
import type { NameMatch } from "../symbols/candidates.ts";
import { type CodeSymbol, SYMBOL_KINDS, type SymbolKind } from "../symbols/types.ts";

const MATCHES: NameMatch[] = ["exact", "prefix", "substring"];

const inputSchema = {
  type: "object",
  properties: {
    name: { type: "string", description: "Symbol name (an identifier)" },
    kind: { type: "string", enum: [...SYMBOL_KINDS], description: "Only this kind" },
    path: { type: "string", description: "File or folder to search (default: workspace root)" },
    glob: { type: "string", description: 'ripgrep -g glob, e.g. "*.ts", "!**/test/**"' },
    type: { type: "string", description: "ripgrep file type, e.g. ts, py, rust, go, c, cpp" },
    match: {
      type: "string",
      enum: MATCHES,
      default: "exact",
      description: "How name matches: exact (default), prefix or substring",
    },
    "-i": { type: "boolean", default: false, description: "Case-insensitive name match" },
    head_limit: { type: "integer", minimum: 0, description: "Max definitions; 0 = all" },
    offset: { type: "integer", minimum: 0, default: 0, description: "Definitions to skip" },
  },
  required: ["name"],
  additionalProperties: false,
} as const;

export type FindSymbolInput = InputOf<typeof inputSchema>;

const outputSchema = {
  type: "object",
  properties: {
    symbols: {
      type: "array",
      items: { type: "string" },
      description: "Definitions by path then line, one string each: " +
        "`path:line-end_line: kind name`, plus `  (in Container)` when nested",
    },
    total: { type: "integer", description: "Definitions found in the whole scope" },
    files_parsed: { type: "integer", description: "Candidate files whose syntax was read" },
    skipped: { type: "integer", description: "Candidates not parsed (binary or too large)" },
    offset: { type: "integer", description: "First definition shown" },
    next_offset: { type: "integer", description: "Offset of the next page, if any" },
    truncated: { type: "boolean", description: "More definitions follow" },
  },
  required: ["symbols", "total", "files_parsed", "skipped", "offset", "truncated"],
  additionalProperties: false,
};

interface Found {
  path: string;
  line: number;
  end_line: number;
  kind: SymbolKind;
  name: string;
  container?: string;
}

/** The predicate of a name under `match` and `-i`. */
function nameTest(name: string, match: NameMatch, ignoreCase: boolean): (s: string) => boolean {
  const want = ignoreCase ? name.toLowerCase() : name;
  const fold = ignoreCase ? (s: string) => s.toLowerCase() : (s: string) => s;
  if (match === "prefix") return (s) => fold(s).startsWith(want);
  if (match === "substring") return (s) => fold(s).includes(want);
  return (s) => fold(s) === want;
}

/** The definitions in one file's symbol tree that pass, sorted by line (then column). */
function collect(
  path: string,
  symbols: readonly CodeSymbol[],
  keep: (s: CodeSymbol) => boolean,
): Array<Found & { column: number }> {
  const out: Array<Found & { column: number }> = [];
  const visit = (list: readonly CodeSymbol[]) => {
    for (const s of list) {
      if (keep(s)) {
        const found: Found & { column: number } = {
          path,
          line: s.line,
          end_line: s.end_line,
          kind: s.kind,
          name: s.name,
          column: s.column,
        };
        if (s.container !== undefined) found.container = s.container;
        out.push(found);
      }
      if (s.children !== undefined) visit(s.children);
    }
  };
  visit(symbols);
  return out.sort((a, b) => a.line - b.line || a.column - b.column);
}

function textLine(f: Found): string {
  return `${f.path}:${f.line}: ${f.kind} ${f.name}${f.container ? `  (in ${f.container})` : ""}`;
}

/** The structured form of a definition: the text line with the definition's last line. */
function structuredLine(f: Found): string {
  return `${f.path}:${f.line}-${f.end_line}: ${f.kind} ${f.name}${
    f.container ? `  (in ${f.container})` : ""
  }`;
}

function entrySize(f: Found): { text: number; json: number } {
  return { text: textLine(f).length + 1, json: JSON.stringify(structuredLine(f)).length + 1 };
}

async function run(input: FindSymbolInput, ctx: ToolContext): Promise<ToolResult> {
  const ws = ctx.workspace;
  const { name, match, "-i": ignoreCase } = input;
  checkName(name);
  const kind = input.kind ?? null;
  const { scope, candidates } = await symbolCandidates(ctx, input, { name, match, ignoreCase });
  const maxBytes = ctx.config.maxReadBytes;
  const outcomes = await ctx.session.symbols.symbols(ws, candidates, {
    signal: ctx.signal,
    maxBytes,
    progress: (n) => ctx.progress(n, candidates.length, "files parsed"),
    definitionsOnly: true,
  });
  const test = nameTest(name, match, ignoreCase);
  const keep = (s: CodeSymbol) => (kind === null || s.kind === kind) && test(s.name);
  const found: Found[] = [];
  let skipped = 0;
  for (const path of candidates) {
    const outcome = outcomes.get(path);
    if (outcome === undefined) continue;
    if (!outcome.ok) {
      if (scope.single) throw parseRefusal(path, outcome, maxBytes);
      skipped++;
      continue;
    }
    for (const f of collect(path, outcome.symbols, keep)) {
      const { column: _, ...entry } = f;
      found.push(entry);
    }
  }
  const offset = input.offset;
  const page = takePage(found, {
    offset,
    limit: input.head_limit ?? null,
    defaultLimit: Infinity,
    budgetChars: ctx.config.maxOutputChars,
  }, entrySize);
  const lines = page.items.map(textLine);
  if (page.nextOffset !== undefined) {
    const remaining = `${found.length - page.nextOffset} more definitions`;
    lines.push(hintLine(remaining, page.nextOffset, capNote(page.cutBy)));
  }
  if (lines.length === 0) {
    lines.push(
      found.length > 0
        ? "No more definitions"
        : `No definitions of "${name}" found (${candidates.length} files mention it)`,
    );
  }
  if (skipped > 0) {
    lines.push(
      `[${skipped} files that mention it were not parsed: binary or over --max-read-bytes]`,
    );
  }
  const structured: Record<string, unknown> = {
    symbols: page.items.map(structuredLine),
    total: found.length,
    files_parsed: candidates.length - skipped,
    skipped,
    offset,
  };
  if (page.nextOffset !== undefined) structured.next_offset = page.nextOffset;
  structured.truncated = page.nextOffset !== undefined;
  return { content: [{ type: "text", text: lines.join("\n") }], structuredContent: structured };
}

export const findSymbolTool: Tool<FindSymbolInput> = {
  name: "find_symbol",
  title: "Find symbol definitions",
  description: "Where a name is defined (functions, methods, classes, structs, enums, types, " +
    "constants, macros, fields...), read from syntax trees, not text: calls, comments and " +
    "declarations without a body are left out. One per line: `path:line: kind name  (in " +
    "Container)`, sorted by path then line; line is the name's line. The whole scope is " +
    "searched (files mentioning the name are parsed); totals are exact. match: exact (default), " +
    "prefix or substring; -i ignores case; kind filters. Languages: C, C++, TypeScript, TSX, " +
    "JavaScript, Python, Go, Rust, Java, Ruby.",
  inputSchema,
  outputSchema,
  annotations: readOnlyAnnotations("Find symbol definitions"),
  run,
};
