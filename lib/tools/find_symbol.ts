/** find_symbol: where names are defined, from syntax trees (docs/tools.md "find_symbol"). */
import { type InputOf, type Tool, type ToolContext, type ToolResult } from "./tool.ts";
import { capNote, type EntrySize, entrySize, hintLine } from "./paging.ts";
import { DefinitionTally, type Found, type Tally } from "./definition_tally.ts";
import { readOnlyAnnotations } from "./annotations.ts";
import {
  checkName,
  definitionsParse,
  otherMentions,
  parseRefusal,
  sourceMentions,
  symbolCandidates,
} from "./symbol_scope.ts";
import { ToolError } from "./tool.ts";
import { candidatePattern, type NameMatch } from "../symbols/candidates.ts";
import { SYMBOL_KINDS, type SymbolKind } from "../symbols/types.ts";
import type { FileOutcome } from "../symbols/service.ts";
import { splitQualifiedName } from "../symbols/qualified_name.ts";
import { ModulePaths } from "../symbols/module_path.ts";
import { collect, inAskedContainer, qualifiedPlace, qualify } from "./qualified_definitions.ts";
import { recordLinesAt } from "./shown_lines.ts";
import type { SearchScope } from "../search/scope.ts";

const MATCHES: NameMatch[] = ["exact", "prefix", "substring"];

const inputSchema = {
  type: "object",
  properties: {
    name: {
      type: "string",
      description: "Identifier, or qualified: mod.Class.method, (*T).M, a::b::f",
    },
    kind: { type: "string", enum: [...SYMBOL_KINDS], description: "Only this kind" },
    path: { type: "string", description: "File or folder (default: root)" },
    glob: { type: "string", description: 'ripgrep -g glob, e.g. "!**/test/**"' },
    type: { type: "string", description: "ripgrep type: ts, py, go, c, cpp..." },
    match: {
      type: "string",
      enum: MATCHES,
      default: "exact",
      description: "How name matches",
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
      description: "The text's lines with end lines: `path:line-end_line: kind name`",
    },
    total: { type: "integer", description: "Definitions found in the whole scope" },
    files_parsed: { type: "integer", description: "Candidate files whose syntax was read" },
    skipped: { type: "integer", description: "Candidates not parsed" },
    partial_files: {
      type: "integer",
      description: "Candidates not fully parsed (syntax errors)",
    },
    other_files: {
      type: "integer",
      description: "Other files that mention the name",
    },
    offset: { type: "integer", description: "First definition shown" },
    next_offset: { type: "integer", description: "Next page's offset" },
    truncated: { type: "boolean", description: "More definitions follow" },
  },
  required: ["symbols", "total", "files_parsed", "skipped", "partial_files", "offset", "truncated"],
  additionalProperties: false,
};

/** The predicate of a name under `match` and `-i`. */
function nameTest(name: string, match: NameMatch, ignoreCase: boolean): (s: string) => boolean {
  const want = ignoreCase ? name.toLowerCase() : name;
  const fold = ignoreCase ? (s: string) => s.toLowerCase() : (s: string) => s;
  if (match === "prefix") return (s) => fold(s).startsWith(want);
  if (match === "substring") return (s) => fold(s).includes(want);
  return (s) => fold(s) === want;
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

function sizeOf(f: Found): EntrySize {
  return entrySize(textLine(f), structuredLine(f));
}

/** Files named in a note before "(+N more)". */
const NAMED_FILES = 3;

function someFiles(paths: readonly string[]): string {
  const shown = paths.slice(0, NAMED_FILES).join(", ");
  return paths.length > NAMED_FILES ? `${shown} (+${paths.length - NAMED_FILES} more)` : shown;
}

/** `function (2), macro (1)`: the kinds among definitions, most frequent first. */
function kindCounts(counts: ReadonlyMap<string, number>): string {
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([kind, n]) => `${kind} (${n})`).join(", ");
}

/** What was asked, checked: the member's name, the container's parts, the filters. */
interface Query {
  name: string;
  /** The container as written, or null. */
  container: string | null;
  /** The container's parts a definition's qualified path must end with (empty: any). */
  parts: string[];
  match: NameMatch;
  ignoreCase: boolean;
  kind: SymbolKind | null;
}

function queryOf(input: FindSymbolInput): Query {
  checkName(input.name);
  const qualified = splitQualifiedName(input.name);
  if (qualified === null) {
    throw new ToolError(
      `Invalid name "${input.name}": give an identifier, or Container.name / Container::name`,
    );
  }
  return {
    name: qualified.member,
    container: qualified.container,
    parts: qualified.parts,
    match: input.match,
    ignoreCase: input["-i"],
    kind: input.kind ?? null,
  };
}

/** What the parse of the candidates left besides the tally: the files not or partly parsed. */
interface ParseNotes {
  unparsed: Map<string, Exclude<FileOutcome, { ok: true }>>;
  /** Partly parsed files: the line of the first syntax error (0 when not known). */
  partial: Map<string, number>;
}

/**
 * Parses the candidates (those the scan did not judge surely uses) and hands each file's
 * definitions of the name to the tally; for a qualified name, with their qualified paths.
 */
async function parseCandidates(
  ctx: ToolContext,
  query: Query,
  found: { candidates: string[]; surelyUses: Set<string>; release: () => void },
  tally: DefinitionTally,
): Promise<ParseNotes> {
  const ws = ctx.workspace;
  const { name, match, ignoreCase } = query;
  const { candidates, surelyUses } = found;
  const wanted = candidatePattern(name, match, ignoreCase);
  const test = nameTest(name, match, ignoreCase);
  const modules = query.parts.length > 0 ? new ModulePaths(ws) : null;
  const qualifying: Array<Promise<void>> = [];
  const notes: ParseNotes = { unparsed: new Map(), partial: new Map() };
  // The scan judged these: every hit surely a use, so nothing of the name is defined there.
  for (const path of surelyUses) tally.add(path, []);
  const toParse = surelyUses.size === 0
    ? candidates
    : candidates.filter((path) => !surelyUses.has(path));
  // The index hears of the scan once the parse is done (symbolCandidates).
  await ctx.session.symbols.eachFile(ws, toParse, {
    // An exact name's few possible definitions: only the items around them are parsed.
    ...definitionsParse(ctx, wanted, match === "exact"),
    progress: (n) => ctx.progress(surelyUses.size + n, candidates.length, "files parsed"),
  }, (path, outcome) => {
    if (!outcome.ok) {
      notes.unparsed.set(path, outcome);
      tally.add(path, []);
      return;
    }
    if (outcome.partial) notes.partial.set(path, outcome.errorLine ?? 0);
    const named = collect(path, outcome.symbols, (s) => test(s.name));
    if (modules === null || named.length === 0) tally.add(path, named);
    else qualifying.push(qualify(modules, path, named).then(() => tally.add(path, named)));
  }).finally(found.release);
  await Promise.all(qualifying);
  return notes;
}

/** The candidates named in the notes: partly parsed, and how many were not parsed. */
function fileNotes(
  candidates: readonly string[],
  notes: ParseNotes,
  scope: { single: boolean },
  maxBytes: number,
): { partial: string[]; skipped: number } {
  const partial: string[] = [];
  let skipped = 0;
  for (const path of candidates) {
    const refused = notes.unparsed.get(path);
    if (refused !== undefined) {
      if (scope.single) throw parseRefusal(path, refused, maxBytes);
      skipped++;
    } else if (notes.partial.has(path)) {
      const line = notes.partial.get(path)!;
      partial.push(line > 0 ? `${path}:${line}` : path);
    }
  }
  return { partial, skipped };
}

/** The line of an answer without definitions: what there is instead. */
async function emptyLine(
  ctx: ToolContext,
  query: Query,
  tally: Tally,
  found: { scope: SearchScope; candidates: string[]; narrowed: boolean },
): Promise<{ line: string; other: string[] | null }> {
  const { name, match, ignoreCase, kind } = query;
  if (tally.total > 0) return { line: "No more definitions", other: null };
  if (tally.placedKinds.size > 0) {
    const kinds = kindCounts(tally.placedKinds);
    return { line: `No ${kind} named "${name}"; its definitions are: ${kinds}`, other: null };
  }
  if (tally.elsewhereTotal > 0) {
    const shown = tally.elsewhere.map(qualifiedPlace).join(", ");
    const more = tally.elsewhereTotal - tally.elsewhere.length;
    return {
      line: `No definitions of "${name}" in "${query.container}"; "${name}" is defined as ` +
        `${shown}${more > 0 ? `, and ${more} more` : ""}`,
      other: null,
    };
  }
  const { scope, candidates, narrowed } = found;
  const other = await otherMentions(ctx, scope, { name, match, ignoreCase });
  // The index left out files that mention the name without defining it: counted now.
  const mentions = narrowed
    ? await sourceMentions(ctx, scope, { name, match, ignoreCase })
    : candidates.length;
  const sources = `${mentions} source files mention it`;
  const others = other.length === 0
    ? scope.single || scope.typeGlobs.length > 0 ? "" : "; no other files do"
    : `; ${other.length} other files do: ${someFiles(other)}`;
  return { line: `No definitions of "${name}" found (${sources}${others})`, other };
}

async function run(input: FindSymbolInput, ctx: ToolContext): Promise<ToolResult> {
  const query = queryOf(input);
  const { name, match, ignoreCase, kind, parts } = query;
  // The parser workers start while the candidate scan runs.
  ctx.session.symbols.warm(ctx.workspace);
  const found = await symbolCandidates(ctx, input, { name, match, ignoreCase }, {
    definitions: true,
  });
  // Each file's definitions of the name go to the tally as its outcome arrives, which keeps only
  // the page and counts the rest (the symbol trees are not held either: a prefix over the whole
  // kernel tree parses every file and matches a million definitions).
  const inContainer = (f: Found) => inAskedContainer(f, parts, ignoreCase);
  const tally = new DefinitionTally(found.candidates, { inContainer, kind }, {
    request: {
      offset: input.offset,
      limit: input.head_limit ?? null,
      defaultLimit: Infinity,
      budgetChars: ctx.config.maxOutputChars,
    },
    size: sizeOf,
  });
  const notes = await parseCandidates(ctx, query, found, tally);
  const { partial, skipped } = fileNotes(
    found.candidates,
    notes,
    found.scope,
    ctx.config.maxReadBytes,
  );
  const result = tally.finish();
  const { page } = result;
  // With --write, each symbol's line counts as read for edit_file while it holds the name.
  await recordLinesAt(ctx, page.items.map((f) => ({ path: f.path, line: f.line, word: f.name })));
  const lines = page.items.map(textLine);
  if (page.nextOffset !== undefined) {
    const remaining = `${result.total - page.nextOffset} more definitions`;
    lines.push(hintLine(remaining, page.nextOffset, capNote(page.cutBy)));
  }
  let other: string[] | null = null;
  if (lines.length === 0) {
    const empty = await emptyLine(ctx, query, result, found);
    lines.push(empty.line);
    other = empty.other;
  }
  lines.push(...parseNoteLines(partial, skipped));
  const structured: Record<string, unknown> = {
    symbols: page.items.map(structuredLine),
    total: result.total,
    files_parsed: found.candidates.length - skipped,
    skipped,
    partial_files: partial.length,
  };
  if (other !== null) structured.other_files = other.length;
  structured.offset = input.offset;
  if (page.nextOffset !== undefined) structured.next_offset = page.nextOffset;
  structured.truncated = page.nextOffset !== undefined;
  return { content: [{ type: "text", text: lines.join("\n") }], structuredContent: structured };
}

/** The last lines: candidates partly parsed, and those not parsed at all. */
function parseNoteLines(partial: readonly string[], skipped: number): string[] {
  const lines: string[] = [];
  if (partial.length > 0) {
    lines.push(
      `[${partial.length} of the files that mention it could not be fully parsed, so ` +
        `definitions in them may be missing: ${someFiles(partial)}]`,
    );
  }
  if (skipped > 0) {
    lines.push(
      `[${skipped} files that mention it were not parsed: binary or over --max-read-bytes]`,
    );
  }
  return lines;
}

export const findSymbolTool: Tool<FindSymbolInput> = {
  name: "find_symbol",
  title: "Find symbol definitions",
  description:
    "Where a name is defined (function, class, struct, type, constant, macro, field...), from " +
    "syntax trees: not calls, comments or bodiless declarations. `path:line: kind name  (in " +
    "Container)` per line, by path and line. Exact totals. match: exact, prefix, substring; " +
    "-i; kind. A qualified name in the language's form (`pkg.module.Class.method`, Go " +
    "`pkg.Name`/`(*T).M`, `mod::Type::f`) keeps definitions whose module/container path ends so.",
  inputSchema,
  outputSchema,
  annotations: readOnlyAnnotations("Find symbol definitions"),
  run,
};
