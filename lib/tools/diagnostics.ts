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
          path: { type: "string", description: "Workspace-relative path" },
          line: { type: "integer", description: "Line (1-based)" },
          column: { type: "integer", description: "Column (1-based, UTF-16)" },
          code: { type: "integer", description: "TypeScript's code (2322 for TS2322)" },
          category: {
            type: "string",
            enum: ["error", "warning", "suggestion", "message"],
            description: "Category",
          },
          message: { type: "string", description: "The message, lines joined with \\n" },
        },
        required: ["path", "line", "column", "code", "category", "message"],
      },
    },
    total: { type: "integer", description: "Diagnostics in the whole scope" },
    files_checked: { type: "integer", description: "TS/JS files checked" },
    offset: { type: "integer", description: "First diagnostic shown" },
    next_offset: { type: "integer", description: "Next page's offset" },
    truncated: { type: "boolean", description: "More diagnostics follow" },
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
  const all = answer.kind === "diagnostics" ? answer.diagnostics : [];
  const files = answer.kind === "diagnostics" ? answer.files : 0;
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
  const structured: Record<string, unknown> = {
    diagnostics: page.items,
    total: all.length,
    files_checked: files,
    offset,
  };
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
