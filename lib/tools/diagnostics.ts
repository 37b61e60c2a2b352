/**
 * diagnostics: the type engines' diagnostics of the files under a path (docs/tools.md
 * "diagnostics"): every engine of the session's router is asked for the files it handles there
 * (TypeScript's syntactic and semantic diagnostics, each file in its own project, as `tsc
 * --noEmit -p` reports them), the answers merged, sorted by path, line, column and code, and
 * paged like grep.
 */
import { type InputOf, type Tool, type ToolContext, type ToolResult } from "./tool.ts";
import { readOnlyAnnotations } from "./annotations.ts";
import { resolvePath } from "./path_arguments.ts";
import { askEngine } from "./semantic_support.ts";
import { capNote, entrySize, hintLine, takePage } from "./paging.ts";
import type { Answer, Diagnostic } from "../semantic/engine.ts";
import { byDiagnostic } from "../semantic/diagnostic_order.ts";

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
          message: { type: "string", description: "Lines joined by \\n" },
          source: { type: "string", description: "Engine id" },
        },
        required: ["path", "line", "column", "code", "category", "message", "source"],
      },
    },
    total: { type: "integer", description: "In scope" },
    files_checked: { type: "integer", description: "Files type-checked" },
    files_left_out: { type: "integer", description: "Minified, skipped" },
    engine: { type: "string", description: "Engine ids" },
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

/** Every engine's answer for the scope, in table order. */
async function askEngines(ctx: ToolContext, rel: string): Promise<Checked[]> {
  const out: Checked[] = [];
  for (const engine of ctx.session.semantic.engines) {
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
  const parts = answers.filter((a, k) => a.files > 0 || k === 0).map((a) =>
    `${a.files} ${names.get(a.engine) ?? a.engine} file${a.files === 1 ? "" : "s"}`
  );
  return parts.join(" and ");
}

async function run(input: DiagnosticsInput, ctx: ToolContext): Promise<ToolResult> {
  const rel = resolvePath(ctx.workspace, input.path);
  const answers = await askEngines(ctx, rel);
  const all = answers.flatMap((a) => a.diagnostics).sort(byDiagnostic);
  const files = answers.reduce((n, a) => n + a.files, 0);
  const leftOut = answers.reduce((n, a) => n + a.leftOut, 0);
  const stopped = answers.flatMap((a) => a.stopped === undefined ? [] : [a.stopped]);
  const offset = input.offset;
  const page = takePage(all, {
    offset,
    limit: input.head_limit ?? null,
    defaultLimit: Infinity,
    budgetChars: ctx.config.maxOutputChars,
  }, (d) => entrySize(lineOf(d), d));
  const lines = page.items.map(lineOf);
  if (page.nextOffset !== undefined) {
    lines.push(
      hintLine(
        `${all.length - page.nextOffset} more diagnostics`,
        page.nextOffset,
        capNote(page.cutBy),
      ),
    );
  }
  if (lines.length === 0) {
    lines.push(
      all.length > 0
        ? "No more diagnostics"
        : `No diagnostics: ${checkedWords(ctx, answers)} checked`,
    );
  }
  for (const a of answers) if (a.leftOutNote !== undefined) lines.push(a.leftOutNote);
  lines.push(...stopped);
  const structured: Record<string, unknown> = {
    diagnostics: page.items,
    total: all.length,
    files_checked: files,
    offset,
  };
  if (leftOut > 0) structured.files_left_out = leftOut;
  if (stopped.length > 0) structured.stopped = stopped.join("\n");
  if (page.nextOffset !== undefined) structured.next_offset = page.nextOffset;
  structured.truncated = page.nextOffset !== undefined;
  structured.engine = answers.map((a) => a.engine).join(", ");
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
