/**
 * diagnostics: the type engines' diagnostics of the files under a path (docs/tools.md
 * "diagnostics"): each engine of the session's router that handles files there is asked for them
 * (TypeScript's syntactic and semantic diagnostics, every project checking its own listed files,
 * as `tsc --noEmit -p` reports them); the files no engine handles are named by language and their
 * tree-sitter syntax errors reported (diagnostics_scope.ts); all merged: configuration problems
 * first, then by path, line, column and code. The text starts with the counts by code and by
 * file. A complete answer is kept by the engine until a file changes, so its pages are slices of
 * one list; a partial one (cut by `timeout_s` or a cancellation) says so and offers no next page.
 * It never says "No diagnostics" of files it did not check.
 */
import { type InputOf, type Tool, type ToolContext, type ToolResult } from "./tool.ts";
import { readOnlyAnnotations } from "./annotations.ts";
import { resolvePath } from "./path_arguments.ts";
import { askEngine } from "./semantic_support.ts";
import { capNote, entrySize, hintLine, takePage } from "./paging.ts";
import type { Answer, Diagnostic, Query } from "../semantic/engine.ts";
import { byDiagnostic } from "../semantic/diagnostic_order.ts";
import {
  type Census,
  censusOf,
  type SyntaxFindings,
  syntaxFindings,
  uncheckedWords,
} from "./diagnostics_scope.ts";

const inputSchema = {
  type: "object",
  properties: {
    path: { type: "string", description: "File or folder (default: root)" },
    head_limit: { type: "integer", minimum: 0, description: "Max diagnostics; 0 = all" },
    offset: { type: "integer", minimum: 0, default: 0, description: "Diagnostics to skip" },
    timeout_s: {
      type: "number",
      minimum: 0,
      description: "Stop after this many seconds (partial answer); default: no limit",
    },
  },
  required: [],
  additionalProperties: false,
} as const;

type DiagnosticsInput = InputOf<typeof inputSchema>;

const outputSchema = {
  type: "object",
  properties: {
    diagnostics: {
      type: "array",
      description: "Sorted",
      items: {
        type: "object",
        properties: {
          path: { type: "string", description: "Path" },
          line: { type: "integer", description: "Line" },
          column: { type: "integer", description: "Column (UTF-16)" },
          code: { type: "string", description: "TS2322, syntax..." },
          category: {
            type: "string",
            enum: ["error", "warning", "information", "suggestion", "message"],
            description: "Kind",
          },
          message: { type: "string", description: "Text" },
          source: { type: "string", description: "Engine id" },
        },
        required: ["path", "line", "column", "code", "category", "message", "source"],
      },
    },
    total: { type: "integer", description: "In scope" },
    files_checked: { type: "integer", description: "Type-checked" },
    files_left_out: { type: "integer", description: "Minified" },
    engine: { type: "string", description: "Engines" },
    unchecked: { type: "string", description: "By language" },
    by_code: { type: "array", description: "{code, count}, top 20" },
    by_file: { type: "array", description: "{path, count}, top 20" },
    projects: { type: "array", description: "Configs checked" },
    partial: { type: "boolean", description: "Not all checked" },
    reason: { type: "string", description: "Why partial" },
    offset: { type: "integer", description: "First shown" },
    next_offset: { type: "integer", description: "Next page" },
    truncated: { type: "boolean", description: "More follow" },
  },
  required: ["diagnostics", "total", "files_checked", "offset", "truncated"],
  additionalProperties: false,
};

function lineOf(d: Diagnostic): string {
  return `${d.path}:${d.line}:${d.column}: ${d.category} ${d.code}: ${d.message}`;
}

type Checked = Extract<Answer, { kind: "diagnostics" }>;

/** The answers of the engines that handle files of the scope, in table order. */
async function askEngines(
  ctx: ToolContext,
  rel: string,
  census: Census,
  timeoutMs: number | undefined,
): Promise<Checked[]> {
  const out: Checked[] = [];
  for (const engine of ctx.session.semantic.engines) {
    if ((census.byEngine.get(engine.id) ?? 0) === 0) continue;
    const query: Query = { kind: "diagnostics", path: rel };
    if (timeoutMs !== undefined) query.timeoutMs = timeoutMs;
    const answer = await askEngine(ctx, engine, query);
    if (answer.kind !== "diagnostics") {
      throw new TypeError("A diagnostics question got another answer");
    }
    out.push(answer);
  }
  return out;
}

/** `2 TypeScript/JavaScript files and 1 Python file`: what the engines checked. */
function checkedWords(ctx: ToolContext, answers: readonly Checked[]): string {
  const names = new Map(ctx.session.semantic.engines.map((e) => [e.id, e.name]));
  return answers.map((a) =>
    `${a.files} ${names.get(a.engine) ?? a.engine} file${a.files === 1 ? "" : "s"}`
  ).join(" and ");
}

/** The first line when nothing is listed: what was checked, never "No diagnostics" alone. */
function emptyLine(ctx: ToolContext, answers: readonly Checked[], census: Census): string {
  if (answers.length > 0) return `No diagnostics: ${checkedWords(ctx, answers)} checked`;
  if (census.unchecked.size > 0) {
    return "No type errors reported: no type engine checks these files";
  }
  return "No files here that a type engine or a parser checks";
}

/** The lines after the page: files left out, not type-checked, stopped checks. */
function notes(answers: readonly Checked[], census: Census, syntax: SyntaxFindings): string[] {
  const lines: string[] = [];
  for (const a of answers) if (a.leftOutNote !== undefined) lines.push(a.leftOutNote);
  if (census.unchecked.size > 0) {
    const found = syntax.diagnostics.length + syntax.unlisted;
    lines.push(
      `Not type-checked (no type engine for their language): ${
        uncheckedWords(census.unchecked)
      }; ` +
        `their syntax was checked with tree-sitter: ${
          found === 0 ? "no errors" : `${found} error region${found === 1 ? "" : "s"}`
        }${syntax.unlisted > 0 ? ` (the first ${syntax.diagnostics.length} listed)` : ""}${
          syntax.unparsed > 0 ? `; ${syntax.unparsed} not parsed (binary or too large)` : ""
        }`,
    );
  }
  for (const a of answers) if (a.stopped !== undefined) lines.push(a.stopped);
  if (syntax.stopped !== undefined) lines.push(syntax.stopped);
  return lines;
}

const SHOWN_COUNTS = 20;

/** Counts of `key` over the list, most first (then by key), at most SHOWN_COUNTS, and the rest. */
function countBy(list: readonly Diagnostic[], key: (d: Diagnostic) => string) {
  const counts = new Map<string, number>();
  for (const d of list) counts.set(key(d), (counts.get(key(d)) ?? 0) + 1);
  const sorted = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return { shown: sorted.slice(0, SHOWN_COUNTS), more: Math.max(0, sorted.length - SHOWN_COUNTS) };
}

/** The first lines: how many, by code and by file (one repeated cause reads as one line). */
function countLines(ctx: ToolContext, all: readonly Diagnostic[], answers: readonly Checked[]) {
  const byCode = countBy(all, (d) => d.code);
  const byFile = countBy(all, (d) => d.path);
  const files = new Set(all.map((d) => d.path)).size;
  const projects = answers.flatMap((a) => a.projects ?? []);
  const checked = `${checkedWords(ctx, answers)} checked${
    projects.length > 0
      ? ` in ${projects.length} project${projects.length === 1 ? "" : "s"} (${
        projects.map((p) => p || "default").join(", ")
      })`
      : ""
  }`;
  const lines = [
    `${all.length} diagnostic${all.length === 1 ? "" : "s"} in ${files} file${
      files === 1 ? "" : "s"
    }; ${checked}`,
  ];
  const more = (n: number) => n > 0 ? `, and ${n} more` : "";
  lines.push(
    `By code: ${byCode.shown.map(([k, n]) => `${k} ×${n}`).join(", ")}${more(byCode.more)}`,
    `By file: ${byFile.shown.map(([k, n]) => `${k} ${n}`).join(", ")}${more(byFile.more)}`,
  );
  return { lines, byCode, byFile };
}

async function run(input: DiagnosticsInput, ctx: ToolContext): Promise<ToolResult> {
  const rel = resolvePath(ctx.workspace, input.path);
  const timeoutMs = input.timeout_s === undefined ? undefined : input.timeout_s * 1000;
  const census = await censusOf(ctx, rel);
  const answers = await askEngines(ctx, rel, census, timeoutMs);
  const syntax = await syntaxFindings(ctx, census.unchecked);
  // Configuration problems first, then the files' entries.
  const all = [
    ...answers.flatMap((a) => a.config ?? []).sort(byDiagnostic),
    ...[...answers.flatMap((a) => a.diagnostics), ...syntax.diagnostics].sort(byDiagnostic),
  ];
  const leftOut = answers.reduce((n, a) => n + a.leftOut, 0);
  const stopped = [
    ...answers.flatMap((a) => a.stopped === undefined ? [] : [a.stopped]),
    ...(syntax.stopped === undefined ? [] : [syntax.stopped]),
  ];
  const partial = stopped.length > 0;
  const offset = input.offset;
  const page = takePage(all, {
    offset,
    limit: input.head_limit ?? null,
    defaultLimit: Infinity,
    budgetChars: ctx.config.maxOutputChars,
  }, (d) => entrySize(lineOf(d), d));
  const counts = all.length > 0 ? countLines(ctx, all, answers) : null;
  const lines = counts?.lines ?? [];
  lines.push(...page.items.map(lineOf));
  // A partial list would change when asked again: it offers no offset into it.
  const nextOffset = partial ? undefined : page.nextOffset;
  if (nextOffset !== undefined) {
    lines.push(
      hintLine(`${all.length - nextOffset} more diagnostics`, nextOffset, capNote(page.cutBy)),
    );
  } else if (partial && page.nextOffset !== undefined) {
    lines.push(
      `${all.length - page.nextOffset} more diagnostics of this partial answer not shown; ` +
        `call again without timeout_s for the complete answer, which pages`,
    );
  }
  if (page.items.length === 0) {
    lines.push(all.length > 0 ? "No more diagnostics" : emptyLine(ctx, answers, census));
  }
  lines.push(...notes(answers, census, syntax));
  const structured: Record<string, unknown> = {
    diagnostics: page.items,
    total: all.length,
    files_checked: answers.reduce((n, a) => n + a.files, 0),
    offset,
  };
  if (counts !== null) {
    structured.by_code = counts.byCode.shown.map(([code, count]) => ({ code, count }));
    structured.by_file = counts.byFile.shown.map(([path, count]) => ({ path, count }));
  }
  const projects = answers.flatMap((a) => a.projects ?? []);
  if (projects.length > 0) structured.projects = projects;
  if (leftOut > 0) structured.files_left_out = leftOut;
  if (partial) {
    structured.partial = true;
    structured.reason = stopped.join("\n");
  }
  if (nextOffset !== undefined) structured.next_offset = nextOffset;
  structured.truncated = page.nextOffset !== undefined;
  if (answers.length > 0) structured.engine = answers.map((a) => a.engine).join(", ");
  if (census.unchecked.size > 0) structured.unchecked = uncheckedWords(census.unchecked);
  return { content: [{ type: "text", text: lines.join("\n") }], structuredContent: structured };
}

export const diagnosticsTool: Tool<DiagnosticsInput> = {
  name: "diagnostics",
  title: "Type diagnostics",
  description: "Type errors of the TS/JS and Python files under path (default: all) as " +
    "`tsc --noEmit -p` (each tsconfig's own files) and pyright report them, config problems " +
    "first: use it after an edit, not a build. Counts by code and file, then " +
    "`path:line:column: error TS2322: message`; head_limit/offset page one kept answer.",
  inputSchema,
  outputSchema,
  annotations: readOnlyAnnotations("Type diagnostics"),
  run,
};
