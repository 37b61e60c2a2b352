/**
 * diagnostics: the type engines' diagnostics of the files under a path (docs/tools.md
 * "diagnostics"): each engine of the session's router that handles files there is asked for them
 * (TypeScript's syntactic and semantic diagnostics, each file in its own project, as `tsc
 * --noEmit -p` reports them); the files no engine handles are named by language and their
 * tree-sitter syntax errors reported (diagnostics_scope.ts); all merged, sorted by path, line,
 * column and code, and paged like grep. It never says "No diagnostics" of files it did not check.
 */
import { type InputOf, type Tool, type ToolContext, type ToolResult } from "./tool.ts";
import { readOnlyAnnotations } from "./annotations.ts";
import { resolvePath } from "./path_arguments.ts";
import { askEngine } from "./semantic_support.ts";
import { capNote, entrySize, hintLine, takePage } from "./paging.ts";
import type { Answer, Diagnostic } from "../semantic/engine.ts";
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
    stopped: { type: "string", description: "Why stopped" },
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
async function askEngines(ctx: ToolContext, rel: string, census: Census): Promise<Checked[]> {
  const out: Checked[] = [];
  for (const engine of ctx.session.semantic.engines) {
    if ((census.byEngine.get(engine.id) ?? 0) === 0) continue;
    const answer = await askEngine(ctx, engine, { kind: "diagnostics", path: rel });
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

async function run(input: DiagnosticsInput, ctx: ToolContext): Promise<ToolResult> {
  const rel = resolvePath(ctx.workspace, input.path);
  const census = await censusOf(ctx, rel);
  const answers = await askEngines(ctx, rel, census);
  const syntax = await syntaxFindings(ctx, census.unchecked);
  const all = [...answers.flatMap((a) => a.diagnostics), ...syntax.diagnostics].sort(byDiagnostic);
  const leftOut = answers.reduce((n, a) => n + a.leftOut, 0);
  const stopped = [
    ...answers.flatMap((a) => a.stopped === undefined ? [] : [a.stopped]),
    ...(syntax.stopped === undefined ? [] : [syntax.stopped]),
  ];
  const offset = input.offset;
  const page = takePage(all, {
    offset,
    limit: input.head_limit ?? null,
    defaultLimit: Infinity,
    budgetChars: ctx.config.maxOutputChars,
  }, (d) => entrySize(lineOf(d), d));
  const lines = page.items.map(lineOf);
  if (page.nextOffset !== undefined) {
    const more = `${all.length - page.nextOffset} more diagnostics`;
    lines.push(hintLine(more, page.nextOffset, capNote(page.cutBy)));
  }
  if (lines.length === 0) {
    lines.push(all.length > 0 ? "No more diagnostics" : emptyLine(ctx, answers, census));
  }
  lines.push(...notes(answers, census, syntax));
  const structured: Record<string, unknown> = {
    diagnostics: page.items,
    total: all.length,
    files_checked: answers.reduce((n, a) => n + a.files, 0),
    offset,
  };
  if (leftOut > 0) structured.files_left_out = leftOut;
  if (stopped.length > 0) structured.stopped = stopped.join("\n");
  if (page.nextOffset !== undefined) structured.next_offset = page.nextOffset;
  structured.truncated = page.nextOffset !== undefined;
  if (answers.length > 0) structured.engine = answers.map((a) => a.engine).join(", ");
  if (census.unchecked.size > 0) structured.unchecked = uncheckedWords(census.unchecked);
  return { content: [{ type: "text", text: lines.join("\n") }], structuredContent: structured };
}

export const diagnosticsTool: Tool<DiagnosticsInput> = {
  name: "diagnostics",
  title: "Type diagnostics",
  description: "Type errors of the TS/JS and Python files under path (default: all) as " +
    "`tsc --noEmit -p` (each tsconfig) and pyright report them: use it after an edit, not a build. " +
    "`path:line:column: error TS2322: message`; head_limit/offset page.",
  inputSchema,
  outputSchema,
  annotations: readOnlyAnnotations("Type diagnostics"),
  run,
};
