/**
 * go_to_definition: where the symbol at a position is declared (docs/tools.md
 * "go_to_definition"). A file an engine handles (lib/semantic/router/engines.ts): that engine's
 * answer (`resolution: "types"`, `engine` named); other files: the name-based definitions of
 * the identifier at that position from syntax trees (`resolution: "names"`).
 */
import type { Tool, ToolContext, ToolResult } from "./tool.ts";
import { readOnlyAnnotations } from "./annotations.ts";
import {
  askEngine,
  engineFor,
  identifierOf,
  positionProperties,
  readPosition,
} from "./semantic_support.ts";
import { definitionsByName } from "./name_definitions.ts";
import type { Definition } from "../semantic/engine.ts";
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
      description: "Declarations",
      items: {
        type: "object",
        properties: {
          path: {
            type: ["string", "null"],
            description: "Relative path; null outside",
          },
          external: {
            type: "string",
            description: "Outside file: lib.es5.d.ts",
          },
          line: { type: "integer", description: "Line of the name" },
          column: { type: "integer", description: "Its column (UTF-16)" },
          end_line: { type: "integer", description: "Last line" },
          kind: { type: "string", description: "Kind" },
          name: { type: "string", description: "Name" },
          text: { type: "string", description: "Its line" },
        },
        required: ["path", "line", "column", "end_line", "kind", "name", "text"],
      },
    },
    resolution: {
      type: "string",
      enum: ["types", "names"],
      description: "types: by engine; names: by spelling",
    },
    engine: { type: "string", description: "Engine id" },
  },
  required: ["definitions", "resolution"],
  additionalProperties: false,
};

function textLine(d: Definition): string {
  const where = d.path ?? d.external ?? "(outside)";
  const span = d.end_line > d.line ? `, to line ${d.end_line}` : "";
  return `${where}:${d.line}:${d.column}: ${d.text}  [${d.kind} ${d.name}${span}]`;
}

async function run(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult> {
  const at = readPosition(ctx, args);
  const engine = engineFor(ctx, at.path);
  let definitions: Definition[];
  if (engine !== null) {
    const answer = await askEngine(ctx, engine, { kind: "definition", at });
    definitions = answer.kind === "definition" ? answer.definitions : [];
  } else definitions = await definitionsByName(ctx, identifierOf(ctx, at));
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
    structuredContent: engine !== null
      ? { definitions, resolution: "types", engine: engine.id }
      : { definitions, resolution: "names" },
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
