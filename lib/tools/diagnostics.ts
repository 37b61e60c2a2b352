/**
 * diagnostics: TypeScript's syntactic and semantic diagnostics of the TS/JS files under a path
 * (docs/tools.md "diagnostics"), each file checked in its own project, as `tsc --noEmit -p`
 * reports them; sorted by path, line, column and code, paged like grep.
 */
import { type InputOf, type Tool, type ToolContext, type ToolResult } from "./tool.ts";
import { readOnlyAnnotations } from "./annotations.ts";
import { resolvePath } from "./path_arguments.ts";
import { askSemantic } from "./semantic_support.ts";
import { capNote, entrySize, hintLine, takePage } from "./paging.ts";
import type { Diagnostic } from "../semantic/protocol.ts";

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
      description: "By path, line, column, code",
      items: {
        type: "object",
        properties: {
          path: { type: "string", description: "Relative path" },
          line: { type: "integer", description: "Line (1-based)" },
          column: { type: "integer", description: "Column (1-based, UTF-16)" },
          code: { type: "integer", description: "2322 for TS2322" },
          category: {
            type: "string",
            enum: ["error", "warning", "suggestion", "message"],
            description: "Kind",
          },
          message: { type: "string", description: "Lines joined by \\n" },
        },
        required: ["path", "line", "column", "code", "category", "message"],
      },
    },
    total: { type: "integer", description: "In the whole scope" },
    files_checked: { type: "integer", description: "TS/JS files checked" },
    files_left_out: { type: "integer", description: "Minified, skipped" },
    stopped: { type: "string", description: "Why it stopped early" },
    offset: { type: "integer", description: "First shown" },
    next_offset: { type: "integer", description: "Next offset" },
    truncated: { type: "boolean", description: "More follow" },
  },
  required: ["diagnostics", "total", "files_checked", "offset", "truncated"],
  additionalProperties: false,
};

function lineOf(d: Diagnostic): string {
  return `${d.path}:${d.line}:${d.column}: ${d.category} TS${d.code}: ${d.message}`;
}

async function run(input: DiagnosticsInput, ctx: ToolContext): Promise<ToolResult> {
  const rel = resolvePath(ctx.workspace, input.path);
  const answer = await askSemantic(ctx, { kind: "diagnostics", path: rel });
  if (answer.kind !== "diagnostics") {
    throw new TypeError("A diagnostics question got another answer");
  }
  const all = answer.diagnostics;
  const files = answer.files;
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
        : `No diagnostics: ${files} TypeScript/JavaScript file${files === 1 ? "" : "s"} checked`,
    );
  }
  if (answer.leftOut > 0) {
    lines.push(
      `${answer.leftOut} minified file${answer.leftOut === 1 ? "" : "s"} left out ` +
        `(no tsconfig includes ${answer.leftOut === 1 ? "it" : "them"})`,
    );
  }
  if (answer.stopped !== undefined) lines.push(answer.stopped);
  const structured: Record<string, unknown> = {
    diagnostics: page.items,
    total: all.length,
    files_checked: files,
    offset,
  };
  if (answer.leftOut > 0) structured.files_left_out = answer.leftOut;
  if (answer.stopped !== undefined) structured.stopped = answer.stopped;
  if (page.nextOffset !== undefined) structured.next_offset = page.nextOffset;
  structured.truncated = page.nextOffset !== undefined;
  return { content: [{ type: "text", text: lines.join("\n") }], structuredContent: structured };
}

export const diagnosticsTool: Tool<DiagnosticsInput> = {
  name: "diagnostics",
  title: "TypeScript diagnostics",
  description: "TypeScript's errors for the TS/JS files under path (default: all), each with its " +
    "tsconfig, as `tsc --noEmit -p` reports them: use it after an edit instead of a build. " +
    "`path:line:column: error TS2322: message`; head_limit/offset page.",
  inputSchema,
  outputSchema,
  annotations: readOnlyAnnotations("TypeScript diagnostics"),
  run,
};
