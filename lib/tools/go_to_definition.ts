/**
 * go_to_definition: where the symbol at a position is declared (docs/tools.md
 * "go_to_definition"). TypeScript and JavaScript files: TypeScript's language service
 * (`resolution: "types"`); other languages: find_symbol's name-based answer for the identifier
 * at that position (`resolution: "names"`).
 */
import { type Tool, type ToolContext, ToolError, type ToolResult } from "./tool.ts";
import { readOnlyAnnotations } from "./annotations.ts";
import { askSemantic, isScriptPath, positionProperties, readPosition } from "./semantic_support.ts";
import { findSymbolTool } from "./find_symbol.ts";
import { cutLine } from "../read/long_lines.ts";
import { lineStarts, lineText, wordAt, wordsOf } from "../semantic/positions.ts";
import type { Definition, FilePosition } from "../semantic/protocol.ts";
import { recordLinesAt } from "./shown_lines.ts";

const inputSchema = {
  type: "object",
  properties: positionProperties("position"),
  required: ["path", "line"],
  additionalProperties: false,
};

const outputSchema = {
  type: "object",
  properties: {
    definitions: {
      type: "array",
      description: "Declarations of the symbol",
      items: {
        type: "object",
        properties: {
          path: {
            type: ["string", "null"],
            description: "Workspace-relative path; null outside",
          },
          external: {
            type: "string",
            description: "File outside the workspace, e.g. lib.es5.d.ts",
          },
          line: { type: "integer", description: "Line of the name (1-based)" },
          column: { type: "integer", description: "Column of the name (1-based, UTF-16)" },
          end_line: { type: "integer", description: "Last line of the declaration" },
          kind: { type: "string", description: "Declaration kind" },
          name: { type: "string", description: "Declared name" },
          text: { type: "string", description: "The line of the name" },
        },
        required: ["path", "line", "column", "end_line", "kind", "name", "text"],
      },
    },
    resolution: {
      type: "string",
      enum: ["types", "names"],
      description: "types: TypeScript; names: spelled alike",
    },
  },
  required: ["definitions", "resolution"],
  additionalProperties: false,
};

function textLine(d: Definition): string {
  const where = d.path ?? d.external ?? "(outside)";
  const span = d.end_line > d.line ? `, to line ${d.end_line}` : "";
  return `${where}:${d.line}:${d.column}: ${d.text}  [${d.kind} ${d.name}${span}]`;
}

/** The identifier a position points at, read from the file as read_file counts lines. */
function identifierAt(ctx: ToolContext, at: FilePosition): string {
  const bytes = ctx.workspace.readFileSync(at.path, { maxBytes: ctx.config.maxReadBytes });
  const text = new TextDecoder().decode(bytes);
  const line = lineText(text, lineStarts(text), at.line);
  if (at.name !== undefined) {
    if (wordsOf(line).some((w) => w.word === at.name)) return at.name;
    throw new ToolError(
      `"${at.name}" is not on line ${at.line} of "${at.path}" (${
        JSON.stringify(line.slice(0, 200))
      })`,
    );
  }
  const word = wordAt(line, (at.column ?? 1) - 1);
  if (word === null) {
    throw new ToolError(
      `No identifier at line ${at.line} column ${at.column} of "${at.path}" ` +
        `(${JSON.stringify(line.slice(0, 200))}); give the name instead`,
    );
  }
  return word;
}

/** find_symbol's definitions of the identifier, each with its line's text. */
async function byName(ctx: ToolContext, at: FilePosition): Promise<Definition[]> {
  const name = identifierAt(ctx, at);
  const result = await findSymbolTool.run({
    name,
    head_limit: 100,
    match: "exact",
    offset: 0,
    "-i": false,
  }, ctx);
  // find_symbol's structured lines: `path:line-end_line: kind name  (in Container)`.
  const symbols = ((result.structuredContent?.symbols ?? []) as string[]).flatMap((entry) => {
    const m = /^(.*):(\d+)-(\d+): (\S+) (\S+)/.exec(entry);
    return m === null
      ? []
      : [{ path: m[1], line: Number(m[2]), end_line: Number(m[3]), kind: m[4], name: m[5] }];
  });
  const texts = new Map<string, { text: string; starts: number[] }>();
  const out: Definition[] = [];
  for (const s of symbols) {
    let file = texts.get(s.path);
    if (file === undefined) {
      const bytes = ctx.workspace.readFileSync(s.path, { maxBytes: ctx.config.maxReadBytes });
      const text = new TextDecoder().decode(bytes);
      file = { text, starts: lineStarts(text) };
      texts.set(s.path, file);
    }
    const line = lineText(file.text, file.starts, s.line);
    const hit = wordsOf(line).find((w) => w.word === s.name);
    out.push({
      path: s.path,
      line: s.line,
      column: (hit?.at ?? 0) + 1,
      end_line: s.end_line,
      kind: s.kind,
      name: s.name,
      text: cutLine(line),
    });
  }
  return out;
}

async function run(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult> {
  const at = readPosition(ctx, args);
  const types = isScriptPath(at.path);
  let definitions: Definition[];
  if (types) {
    const answer = await askSemantic(ctx, { kind: "definition", at });
    definitions = answer.kind === "definition" ? answer.definitions : [];
  } else definitions = await byName(ctx, at);
  const where = at.name !== undefined
    ? `"${at.name}" on line ${at.line}`
    : `line ${at.line} column ${at.column}`;
  // With --write, the definitions' lines count as read for edit_file.
  await recordLinesAt(ctx, definitions.map((d) => ({ path: d.path, line: d.line, text: d.text })));
  const lines = definitions.length > 0
    ? definitions.map(textLine)
    : [`No definition found for ${where} of "${at.path}"`];
  return {
    content: [{ type: "text", text: lines.join("\n") }],
    structuredContent: { definitions, resolution: types ? "types" : "names" },
  };
}

export const goToDefinitionTool: Tool = {
  name: "go_to_definition",
  title: "Go to definition",
  description: "Where the symbol at a position (path, line, name or column) is declared. TS/JS: " +
    "TypeScript's checker (imports, re-exports, overloads); other languages: find_symbol's " +
    "answer for the name. Prefer it to grep for common names. `path:line:column: text  [kind " +
    "name, to line N]`; lib types: path null.",
  inputSchema,
  outputSchema,
  annotations: readOnlyAnnotations("Go to definition"),
  run,
};
