/** find_symbol: where names are defined, from syntax trees (docs/tools.md "find_symbol"). */
import { type InputOf, type Tool, type ToolContext, type ToolResult } from "./tool.ts";
import { capNote, type EntrySize, entrySize, hintLine } from "./paging.ts";
import { DefinitionTally, type Found } from "./definition_tally.ts";
import { readOnlyAnnotations } from "./annotations.ts";
import {
  checkName,
  otherMentions,
  parseRefusal,
  sourceMentions,
  symbolCandidates,
} from "./symbol_scope.ts";
import { ToolError } from "./tool.ts";
import { candidatePattern, type NameMatch } from "../symbols/candidates.ts";
import { type CodeSymbol, SYMBOL_KINDS } from "../symbols/types.ts";
import type { FileOutcome } from "../symbols/service.ts";
import { containerMatches, splitQualifiedName } from "../symbols/qualified_name.ts";
import { recordLinesAt } from "./shown_lines.ts";

const MATCHES: NameMatch[] = ["exact", "prefix", "substring"];

const inputSchema = {
  type: "object",
  properties: {
    name: {
      type: "string",
      description: "Identifier, or Container.name / Container::name",
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
      description: "Candidates with syntax errors",
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

/** The definitions in one file's symbol tree that pass, sorted by line (then column). */
function collect(
  path: string,
  symbols: readonly CodeSymbol[],
  keep: (s: CodeSymbol) => boolean,
): Found[] {
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
  return out.sort((a, b) => a.line - b.line || a.column - b.column)
    .map(({ column: _, ...found }) => found);
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

/** `Session (2), the file level (1)`: where definitions are, most frequent first. */
function containerCounts(byContainer: ReadonlyMap<string | undefined, number>): string {
  const counts = new Map<string, number>();
  for (const [container, n] of byContainer) {
    const where = container === undefined ? "the file level" : `"${container}"`;
    counts.set(where, (counts.get(where) ?? 0) + n);
  }
  const list = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const shown = list.slice(0, 5).map(([where, n]) => `${where} (${n})`).join(", ");
  return list.length > 5 ? `${shown}, and ${list.length - 5} more` : shown;
}

async function run(input: FindSymbolInput, ctx: ToolContext): Promise<ToolResult> {
  const ws = ctx.workspace;
  const { match, "-i": ignoreCase } = input;
  checkName(input.name);
  const qualified = splitQualifiedName(input.name);
  if (qualified === null) {
    throw new ToolError(
      `Invalid name "${input.name}": give an identifier, or Container.name / Container::name`,
    );
  }
  const { member: name, container } = qualified;
  const kind = input.kind ?? null;
  // The parser workers start while the candidate scan runs.
  ctx.session.symbols.warm(ws);
  const { scope, candidates, surelyUses, narrowed, release } = await symbolCandidates(
    ctx,
    input,
    { name, match, ignoreCase },
    { definitions: true },
  );
  const maxBytes = ctx.config.maxReadBytes;
  const wanted = candidatePattern(name, match, ignoreCase);
  const test = nameTest(name, match, ignoreCase);
  const inContainer = (f: Found) =>
    container === null || containerMatches(container, f.container, ignoreCase);
  // Each file's definitions of the name go to the tally as its outcome arrives, which keeps only
  // the page and counts the rest (the symbol trees are not held either: a prefix over the whole
  // kernel tree parses every file and matches a million definitions).
  const offset = input.offset;
  const tally = new DefinitionTally(candidates, { inContainer, kind }, {
    request: {
      offset,
      limit: input.head_limit ?? null,
      defaultLimit: Infinity,
      budgetChars: ctx.config.maxOutputChars,
    },
    size: sizeOf,
  });
  const unparsed = new Map<string, Exclude<FileOutcome, { ok: true }>>();
  const partialSet = new Set<string>();
  // The scan judged these: every hit surely a use, so nothing of the name is defined there.
  for (const path of surelyUses) tally.add(path, []);
  const toParse = surelyUses.size === 0
    ? candidates
    : candidates.filter((path) => !surelyUses.has(path));
  // The index hears of the scan once the parse is done (symbolCandidates).
  await ctx.session.symbols.eachFile(ws, toParse, {
    signal: ctx.signal,
    maxBytes,
    progress: (n) => ctx.progress(surelyUses.size + n, candidates.length, "files parsed"),
    definitionsOnly: true,
    definitionOf: { source: wanted.source, flags: wanted.flags },
    keep: { source: wanted.source, flags: wanted.flags },
    // An exact name's few possible definitions: only the items around them are parsed.
    regions: match === "exact",
  }, (path, outcome) => {
    if (!outcome.ok) {
      unparsed.set(path, outcome);
      tally.add(path, []);
      return;
    }
    if (outcome.partial) partialSet.add(path);
    tally.add(path, collect(path, outcome.symbols, (s) => test(s.name)));
  }).finally(release);
  const partial: string[] = [];
  let skipped = 0;
  for (const path of candidates) {
    const refused = unparsed.get(path);
    if (refused !== undefined) {
      if (scope.single) throw parseRefusal(path, refused, maxBytes);
      skipped++;
    } else if (partialSet.has(path)) partial.push(path);
  }
  const { page, total, placedKinds, namedContainers } = tally.finish();
  // With --write, each symbol's line counts as read for edit_file while it holds the name.
  await recordLinesAt(ctx, page.items.map((f) => ({ path: f.path, line: f.line, word: f.name })));
  const lines = page.items.map(textLine);
  if (page.nextOffset !== undefined) {
    const remaining = `${total - page.nextOffset} more definitions`;
    lines.push(hintLine(remaining, page.nextOffset, capNote(page.cutBy)));
  }
  let other: string[] | null = null;
  if (lines.length === 0 && total > 0) lines.push("No more definitions");
  else if (lines.length === 0 && placedKinds.size > 0) {
    lines.push(`No ${kind} named "${name}"; its definitions are: ${kindCounts(placedKinds)}`);
  } else if (lines.length === 0 && namedContainers.size > 0) {
    lines.push(
      `No definitions of "${name}" in "${container}"; "${name}" is defined in ${
        containerCounts(namedContainers)
      }`,
    );
  } else if (lines.length === 0) {
    other = await otherMentions(ctx, scope, { name, match, ignoreCase });
    // The index left out files that mention the name without defining it: counted now.
    const mentions = narrowed
      ? await sourceMentions(ctx, scope, { name, match, ignoreCase })
      : candidates.length;
    const sources = `${mentions} source files mention it`;
    const others = other.length === 0
      ? scope.single || scope.typeGlobs.length > 0 ? "" : "; no other files do"
      : `; ${other.length} other files do: ${someFiles(other)}`;
    lines.push(`No definitions of "${name}" found (${sources}${others})`);
  }
  if (partial.length > 0) {
    lines.push(
      `[${partial.length} of the files that mention it have syntax errors, so definitions in ` +
        `them may be missing: ${someFiles(partial)}]`,
    );
  }
  if (skipped > 0) {
    lines.push(
      `[${skipped} files that mention it were not parsed: binary or over --max-read-bytes]`,
    );
  }
  const structured: Record<string, unknown> = {
    symbols: page.items.map(structuredLine),
    total,
    files_parsed: candidates.length - skipped,
    skipped,
    partial_files: partial.length,
  };
  if (other !== null) structured.other_files = other.length;
  structured.offset = offset;
  if (page.nextOffset !== undefined) structured.next_offset = page.nextOffset;
  structured.truncated = page.nextOffset !== undefined;
  return { content: [{ type: "text", text: lines.join("\n") }], structuredContent: structured };
}

export const findSymbolTool: Tool<FindSymbolInput> = {
  name: "find_symbol",
  title: "Find symbol definitions",
  description:
    "Where a name is defined (function, class, struct, type, constant, macro, field...), from " +
    "syntax trees: not calls, comments or bodiless declarations. `path:line: kind name  (in " +
    "Container)` per line, by path and line. Exact totals. match: exact, prefix, substring; " +
    "-i; kind; `Class.method` or `ns::f` narrows to a container.",
  inputSchema,
  outputSchema,
  annotations: readOnlyAnnotations("Find symbol definitions"),
  run,
};
