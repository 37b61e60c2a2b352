/**
 * find_references: where a name occurs as an identifier in code, from syntax trees
 * (docs/tools.md "find_references"). Name-based (`resolution: "names"`), or, given a position in
 * a TypeScript or JavaScript file, TypeScript's own references of the symbol there
 * (`resolution: "types"`).
 */
import { type InputOf, type Tool, type ToolContext, ToolError, type ToolResult } from "./tool.ts";
import { capNote, type EntrySize, entrySize, hintLine, lineSize, takePage } from "./paging.ts";
import { readOnlyAnnotations } from "./annotations.ts";
import {
  askEngine,
  engineFor,
  engineLanguages,
  identifierOf,
  readPosition,
} from "./semantic_support.ts";
import { callHierarchy } from "./call_hierarchy.ts";
import { lineStarts, lineText } from "../semantic/positions.ts";
import { cutLine } from "../read/long_lines.ts";
import type { Answer, Engine, FilePosition } from "../semantic/engine.ts";
import { checkName, parseRefusal, symbolCandidates } from "./symbol_scope.ts";
import { recordContentLines, recordShownLines, type ShownLine } from "./shown_lines.ts";
import { splitQualifiedName } from "../symbols/qualified_name.ts";
import { qualifiedDefinitions, qualifiedPlace } from "./qualified_definitions.ts";
import { ELSEWHERE_SHOWN } from "./definition_tally.ts";

const MAX_CONTEXT = 10;
const DEFINITION_MARK = "  [definition]";

const inputSchema = {
  type: "object",
  properties: {
    name: { type: "string", description: "Identifier or Class.member; with line: on it" },
    path: { type: "string", description: "File or folder; with line: the file" },
    line: { type: "integer", minimum: 1, description: "Line of a position (1-based)" },
    occurrence: { type: "integer", minimum: 1, description: "Nth such name on the line" },
    column: { type: "integer", minimum: 1, description: "Column (1-based, UTF-16)" },
    glob: { type: "string", description: 'ripgrep -g glob, e.g. "!**/test/**"' },
    type: { type: "string", description: "ripgrep type: ts, py, go, c, cpp..." },
    include_definitions: {
      type: "boolean",
      default: true,
      description: "Also list definitions",
    },
    "-C": {
      type: "integer",
      minimum: 0,
      maximum: MAX_CONTEXT,
      description: "Context lines",
    },
    head_limit: { type: "integer", minimum: 0, description: "Max references; 0 = all" },
    offset: { type: "integer", minimum: 0, default: 0, description: "References to skip" },
    calls: {
      type: "string",
      enum: ["incoming", "outgoing"],
      description: "With a position: who calls it, or what it calls, instead",
    },
    depth: { type: "integer", minimum: 1, maximum: 3, default: 1, description: "Levels of calls" },
  },
  required: [],
  additionalProperties: false,
} as const;

export type FindReferencesInput = InputOf<typeof inputSchema>;

const outputSchema = {
  type: "object",
  properties: {
    lines: {
      type: "array",
      items: { type: "string" },
      description: "path:line:column:text",
    },
    total: { type: "integer", description: "In scope" },
    total_files: { type: "integer", description: "Files with references" },
    skipped: { type: "integer", description: "Candidates not parsed" },
    partial_files: { type: "integer", description: "Not fully parsed" },
    offset: { type: "integer", description: "First shown" },
    next_offset: { type: "integer", description: "Next page" },
    truncated: { type: "boolean", description: "More follow" },
    resolution: {
      type: "string",
      enum: ["types", "names"],
      description: "By types or by names",
    },
    engine: { type: "string", description: "Engine id" },
    partial: { type: "boolean", description: "Calls cut" },
    reason: { type: "string", description: "Why" },
    projects: { type: "array", description: "Configs" },
  },
  required: ["lines", "total", "total_files", "skipped", "offset", "truncated", "resolution"],
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
  const each = reference === columnLine;
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
    // One line per source line, or (with columns) one per reference.
    if (entry.line > shownUpTo || (each && entry.line === shownUpTo)) out.push(reference(entry));
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
  return (h: Held): EntrySize => {
    // The structured lines are the text lines, each reference with its column.
    const size = entrySize(matchLine(h.entry), columnLine(h.entry));
    for (let n = h.entry.line - context; n <= h.entry.line + context; n++) {
      if (n !== h.entry.line && h.lines[n] !== undefined) {
        const line = lineSize(`${h.entry.path}-${n}-${h.lines[n]}`);
        size.text += line.text;
        size.json += line.json;
        size.wire += line.wire;
      }
    }
    return size;
  };
}

async function run(input: FindReferencesInput, ctx: ToolContext): Promise<ToolResult> {
  if (input.calls !== undefined) return await calls(input, ctx);
  if (input.line !== undefined) {
    const at = readPosition(ctx, input);
    const engine = engineFor(ctx, at.path);
    if (engine !== null) {
      if (input.glob !== undefined || input.type !== undefined) {
        throw new ToolError(
          "glob and type narrow a search by name; a position's references come from its " +
            `${engine.name} project, so leave them out (or drop line to search by name)`,
        );
      }
      return await byTypes(input, ctx, { engine, at });
    }
    // No engine for this language: the identifier at that position, by name over the workspace.
    const { line: _l, column: _c, occurrence: _o, path: _p, ...rest } = input;
    return await byNames({ ...rest, name: identifierOf(ctx, at) }, ctx);
  }
  if (input.column !== undefined || input.occurrence !== undefined) {
    throw new ToolError("column and occurrence point into a line: give path and line with them");
  }
  if (input.name === undefined) {
    throw new ToolError(
      "Missing name: give the identifier to find, or a position (path, line, name)",
    );
  }
  return await byNames({ ...input, name: input.name }, ctx);
}

/** The call hierarchy at a position (call_hierarchy.ts); only an engine answers it. */
async function calls(input: FindReferencesInput, ctx: ToolContext): Promise<ToolResult> {
  if (input.line === undefined) {
    throw new ToolError("calls needs a position: give path, line and the function's name");
  }
  const at = readPosition(ctx, input);
  const engine = engineFor(ctx, at.path);
  if (engine === null) {
    throw new ToolError(
      `calls needs a type engine, and "${at.path}" is not a ${engineLanguages(ctx)} file; ` +
        `find_references by name lists where the name is used`,
    );
  }
  if (input.glob !== undefined || input.type !== undefined) {
    throw new ToolError(
      `glob and type narrow a search by name; calls come from the ${engine.name} engine's ` +
        `call hierarchy, so leave them out`,
    );
  }
  const direction = input.calls === "outgoing" ? "outgoing" : "incoming";
  return await callHierarchy(ctx, { engine, at }, {
    direction,
    depth: input.depth,
    head_limit: input.head_limit,
    offset: input.offset,
  });
}

/** An engine's references of the symbol at a position, with context lines read for the page. */
async function byTypes(
  input: FindReferencesInput,
  ctx: ToolContext,
  asked: { engine: Engine; at: FilePosition },
): Promise<ToolResult> {
  const { engine, at } = asked;
  const context = input["-C"] ?? 0;
  const answer = await askEngine(ctx, engine, { kind: "references", at });
  const found = answer.kind === "references" ? answer.references : [];
  const held: Held[] = found.filter((r) => input.include_definitions || !r.definition).map((
    entry,
  ) => ({ entry, lines: { [entry.line]: entry.text } }));
  if (context > 0) addContext(ctx, held, context);
  const where = at.name !== undefined ? `"${at.name}"` : `column ${at.column}`;
  return await finish(input, ctx, held, context, {
    files: new Set(held.map((h) => h.entry.path)).size,
    skipped: 0,
    resolution: "types",
    engine: engine.id,
    none: `No references found for ${where} on line ${at.line} of "${at.path}"`,
    ...projectsSearched(answer),
  });
}

/** The projects an answer merged (when several), named in a last line and in `projects`. */
function projectsSearched(answer: Answer): { projects?: string[]; notes?: string[] } {
  if (answer.kind !== "references") return {};
  const notes = [...answer.notes ?? []];
  if (answer.projects === undefined) return notes.length > 0 ? { notes } : {};
  const named = answer.projects.map((p) => p || "default project");
  notes.push(`Searched ${named.length} projects that hold the file: ${named.join(", ")}`);
  return { projects: answer.projects, notes };
}

/** Fills the context lines of every entry from its file (one read per file). */
function addContext(ctx: ToolContext, held: Held[], context: number): void {
  const byPath = new Map<string, Held[]>();
  for (const h of held) byPath.set(h.entry.path, [...(byPath.get(h.entry.path) ?? []), h]);
  for (const [path, list] of byPath) {
    let text: string;
    try {
      text = new TextDecoder().decode(
        ctx.workspace.readFileSync(path, { maxBytes: ctx.config.maxReadBytes }),
      );
    } catch {
      continue;
    }
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    const starts = lineStarts(text);
    const lines: Record<number, string> = {};
    for (const h of list) {
      for (let n = h.entry.line - context; n <= h.entry.line + context; n++) {
        if (n >= 1 && n <= starts.length) lines[n] = cutLine(lineText(text, starts, n));
      }
    }
    for (const h of list) h.lines = { ...lines, [h.entry.line]: h.entry.text };
  }
}

async function byNames(
  input: FindReferencesInput & { name: string },
  ctx: ToolContext,
): Promise<ToolResult> {
  const ws = ctx.workspace;
  checkName(input.name);
  const qualified = splitQualifiedName(input.name);
  if (qualified === null) {
    throw new ToolError(
      `Invalid name "${input.name}": give an identifier, or Container.name / Container::name`,
    );
  }
  const name = qualified.member;
  const withDefinitions = input.include_definitions;
  const context = input["-C"] ?? 0;
  // The parser workers start while the candidate scan runs.
  ctx.session.symbols.warm(ctx.workspace);
  const { scope, candidates, release } = await symbolCandidates(ctx, input, {
    name,
    match: "exact",
    ignoreCase: false,
  });
  const maxBytes = ctx.config.maxReadBytes;
  let narrowed: Narrowed | null = null;
  // The index hears of the scan once the parse is done (symbolCandidates).
  const files = await (async () => {
    if (qualified.container !== null) {
      narrowed = await narrowTo(ctx, { name, parts: qualified.parts }, candidates);
      if (narrowed.inside.size === 0) return [];
    }
    return await ctx.session.symbols.references(ws, candidates, { name, context }, {
      signal: ctx.signal,
      maxBytes,
      progress: (n) => ctx.progress(n, candidates.length, "files parsed"),
    });
  })().finally(release);
  const miss = narrowed === null ? null : narrowedMiss(narrowed, name, qualified.container!);
  const held: Held[] = [];
  const partial: string[] = [];
  let skipped = 0;
  let totalFiles = 0;
  for (const file of files) {
    if (!file.ok) {
      if (scope.single) throw parseRefusal(file.path, file, maxBytes);
      skipped++;
      continue;
    }
    if (file.partial) partial.push(`${file.path}${file.errorLine ? `:${file.errorLine}` : ""}`);
    const lines = file.lines ?? {};
    const before = held.length;
    for (const [line, column, definition] of file.references ?? []) {
      if (definition && !withDefinitions) continue;
      // A definition of the name in another container than the one asked for.
      if (definition && isOutside(narrowed, file.path, line)) continue;
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
  return await finish(input, ctx, held, context, {
    files: totalFiles,
    skipped,
    partial,
    resolution: "names",
    none: miss ??
      `No references to "${name}" found in code (${candidates.length} source files mention it)`,
    ...(narrowed === null ? {} : { notes: narrowedNotes(narrowed, name) }),
  });
}

/** A qualified name's definitions: those in the asked container, and those elsewhere. */
interface Narrowed {
  /** `path:line` of the definitions in the asked container. */
  inside: Set<string>;
  /** `path:line` of the definitions of the name in other containers. */
  outside: Set<string>;
  /** The first of those elsewhere, in their qualified form with file and line. */
  elsewhere: string[];
}

async function narrowTo(
  ctx: ToolContext,
  query: { name: string; parts: readonly string[] },
  candidates: readonly string[],
): Promise<Narrowed> {
  const { inside, outside } = await qualifiedDefinitions(ctx, query, candidates);
  const at = (f: { path: string; line: number }) => `${f.path}:${f.line}`;
  return {
    inside: new Set(inside.map(at)),
    outside: new Set(outside.map(at)),
    elsewhere: outside.map(qualifiedPlace),
  };
}

function isOutside(narrowed: Narrowed | null, path: string, line: number): boolean {
  if (narrowed === null) return false;
  const at = `${path}:${line}`;
  return narrowed.outside.has(at) && !narrowed.inside.has(at);
}

/** The answer when the asked container defines no such member: where the name is defined. */
function narrowedMiss(narrowed: Narrowed, name: string, container: string): string | null {
  if (narrowed.inside.size > 0) return null;
  if (narrowed.elsewhere.length === 0) {
    return `No definitions of "${name}" in "${container}" (nor anywhere else in scope), so no ` +
      `references; search the bare name "${name}" for every use`;
  }
  const shown = narrowed.elsewhere.slice(0, ELSEWHERE_SHOWN).join(", ");
  const more = narrowed.elsewhere.length - ELSEWHERE_SHOWN;
  return `No definitions of "${name}" in "${container}"; "${name}" is defined as ${shown}` +
    `${more > 0 ? `, and ${more} more` : ""}`;
}

/** The note of a narrowed answer: uses are by name; other containers' definitions left out. */
function narrowedNotes(narrowed: Narrowed, name: string): string[] {
  if (narrowed.inside.size === 0) return [];
  const left = narrowed.outside.size;
  const others = left === 0
    ? ""
    : `; ${left} definitions of "${name}" in other containers left out: ` +
      narrowed.elsewhere.slice(0, ELSEWHERE_SHOWN).join(", ") +
      (left > ELSEWHERE_SHOWN ? `, and ${left - ELSEWHERE_SHOWN} more` : "");
  return [`[uses of "${name}" are matched by name, not resolved to the container${others}]`];
}

async function finish(
  input: FindReferencesInput,
  ctx: ToolContext,
  held: Held[],
  context: number,
  about: {
    files: number;
    skipped: number;
    /** Candidates not fully parsed, each with the line of its first error when known. */
    partial?: string[];
    resolution: "types" | "names";
    engine?: string;
    /** The projects searched, when several. */
    projects?: string[];
    none: string;
    /** Lines after the references (a qualified name's narrowing). */
    notes?: string[];
  },
): Promise<ToolResult> {
  const { skipped } = about;
  const types = about.resolution === "types";
  const offset = input.offset;
  const page = takePage(held, {
    offset,
    limit: input.head_limit ?? null,
    defaultLimit: Infinity,
    budgetChars: ctx.config.maxOutputChars,
  }, sizeOf(context));
  const lines = render(page.items, context, types ? columnLine : matchLine);
  // With --write, the lines shown count as read for edit_file (read before write).
  if (types) {
    // Lines carry columns here: record each file's reference and context lines as held.
    const byFile = new Map<string, ShownLine[]>();
    for (const h of page.items) {
      const list = byFile.get(h.entry.path) ?? [];
      for (let n = h.entry.line - context; n <= h.entry.line + context; n++) {
        const text = h.lines[n];
        if (text !== undefined) list.push({ line: n, text });
      }
      byFile.set(h.entry.path, list);
    }
    for (const [path, shown] of byFile) await recordShownLines(ctx, path, shown);
  } else {
    await recordContentLines(
      ctx,
      lines.map((l) => l.endsWith(DEFINITION_MARK) ? l.slice(0, -DEFINITION_MARK.length) : l),
      [...new Set(page.items.map((h) => h.entry.path))],
    );
  }
  if (page.nextOffset !== undefined) {
    const remaining = `${held.length - page.nextOffset} more references`;
    lines.push(hintLine(remaining, page.nextOffset, capNote(page.cutBy)));
  }
  if (lines.length === 0) lines.push(held.length > 0 ? "No more references" : about.none);
  lines.push(...(about.notes ?? []));
  const partial = about.partial ?? [];
  if (partial.length > 0) {
    const shown = partial.slice(0, 3).join(", ") +
      (partial.length > 3 ? ` (+${partial.length - 3} more)` : "");
    lines.push(
      `[${partial.length} of the files that mention it could not be fully parsed, so ` +
        `references in them may be missing: ${shown}]`,
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
    total_files: about.files,
    skipped,
  };
  if (partial.length > 0) structured.partial_files = partial.length;
  structured.offset = offset;
  if (page.nextOffset !== undefined) structured.next_offset = page.nextOffset;
  structured.truncated = page.nextOffset !== undefined;
  structured.resolution = about.resolution;
  if (about.engine !== undefined) structured.engine = about.engine;
  if (about.projects !== undefined) structured.projects = about.projects;
  return { content: [{ type: "text", text: lines.join("\n") }], structuredContent: structured };
}

export const findReferencesTool: Tool<FindReferencesInput> = {
  name: "find_references",
  title: "Find references to a name",
  description:
    "Lines where a name occurs as an identifier in code, from syntax trees (not comments, " +
    "strings or longer names); name-based. With a position in a " +
    "TS/JS or Python file: that symbol's references only (prefer it to grep for common " +
    "names). Lines like grep content, `path:line:text`, definitions marked `  [definition]`; " +
    "-C adds context; head_limit/offset page. calls (TS/JS): callers or callees to depth 1-3.",
  inputSchema,
  outputSchema,
  annotations: readOnlyAnnotations("Find references to a name"),
  run,
};
