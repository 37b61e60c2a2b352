/**
 * go_to_definition: where the symbol at a position is declared (docs/tools.md
 * "go_to_definition"). A file an engine handles (lib/semantic/router/engines.ts): that engine's
 * answer (`resolution: "types"`, `engine` named); other files: the name-based definitions of
 * the identifier at that position from syntax trees (`resolution: "names"`). With `target`, an
 * engine's implementations or type definitions instead; every engine answer carries the type at
 * the position (quick info) when the engine gives it.
 */
import { type Tool, type ToolContext, ToolError, type ToolResult } from "./tool.ts";
import { readOnlyAnnotations } from "./annotations.ts";
import {
  askEngine,
  engineFor,
  engineLanguages,
  positionProperties,
  readPosition,
} from "./semantic_support.ts";
import { rankedByName } from "./ranked_definitions.ts";
import type { Definition, Engine, FilePosition, TypeInfo } from "../semantic/engine.ts";
import { typeAt, typeLines } from "./type_at.ts";
import { projectsLine } from "./call_hierarchy.ts";
import { recordLinesAt } from "./shown_lines.ts";

const inputSchema = {
  type: "object",
  properties: {
    ...positionProperties("position"),
    target: {
      type: "string",
      enum: ["definition", "implementations", "type"],
      default: "definition",
      description: "implementations: of an interface, abstract member or class; type: where " +
        "its type is declared",
    },
  },
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
            description: "null: outside",
          },
          external: {
            type: "string",
            description: "lib.es5.d.ts",
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
      description: "By types or by names",
    },
    engine: { type: "string", description: "Engine id" },
    type: { type: "string", description: "Quick info" },
    documentation: { type: "string", description: "Doc, first paragraph" },
    projects: { type: "array", description: "Configs" },
    note: { type: "string", description: "names: candidates, ranked by scope" },
  },
  required: ["definitions", "resolution"],
  additionalProperties: false,
};

function textLine(d: Definition): string {
  const where = d.path ?? d.external ?? "(outside)";
  const span = d.end_line > d.line ? `, to line ${d.end_line}` : "";
  // An implementation TypeScript gives no kind (an object literal) shows its name alone.
  const what = d.kind === "" ? d.name : `${d.kind} ${d.name}`;
  return `${where}:${d.line}:${d.column}: ${d.text}  [${what}${span}]`;
}

type Target = "definition" | "implementations" | "type";

/** What each target asks the engine, and its words. */
const TARGETS = {
  definition: { kind: "definition", none: "definition" },
  implementations: { kind: "implementations", none: "implementations" },
  type: { kind: "type_definitions", none: "type definition" },
} as const;

/** The engine's declarations for `target` at a position. */
async function askTarget(
  ctx: ToolContext,
  engine: Engine,
  asked: { at: FilePosition; target: Target },
): Promise<{ definitions: Definition[]; type: TypeInfo | null; projects?: string[] }> {
  const { at, target } = asked;
  const answer = await askEngine(
    ctx,
    engine,
    target === "definition" ? { kind: "definition", at } : { kind: TARGETS[target].kind, at },
  );
  if (!("definitions" in answer)) return { definitions: [], type: null };
  const projects = answer.projects;
  // An engine that gives the type with its answer saves a question.
  const type = answer.type !== undefined ? answer.type : await typeAt(ctx, engine, asked.at);
  return projects === undefined
    ? { definitions: answer.definitions, type }
    : { definitions: answer.definitions, type, projects };
}

async function run(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult> {
  const at = readPosition(ctx, args);
  const target = (args.target ?? "definition") as Target;
  const engine = engineFor(ctx, at.path);
  let definitions: Definition[];
  let type: TypeInfo | null = null;
  let note: string | null = null;
  let projects: string[] | undefined;
  if (engine !== null) {
    ({ definitions, type, projects } = await askTarget(ctx, engine, { at, target }));
  } else if (target !== "definition") {
    throw new ToolError(
      `target "${target}" needs a type engine, and "${at.path}" is not a ` +
        `${engineLanguages(ctx)} file; leave target out for the definitions by name`,
    );
  } else ({ definitions, note } = await rankedByName(ctx, at));
  const where = at.name !== undefined
    ? `"${at.name}" on line ${at.line}`
    : `line ${at.line} column ${at.column}`;
  // With --write, the definitions' lines count as read for edit_file.
  await recordLinesAt(ctx, definitions.map((d) => ({ path: d.path, line: d.line, text: d.text })));
  const lines = definitions.length > 0
    ? [...(note === null ? [] : [note]), ...definitions.map(textLine)]
    : [`No ${TARGETS[target].none} found for ${where} of "${at.path}"`];
  lines.push(...typeLines(type));
  if (projects !== undefined) lines.push(projectsLine(projects));
  const structured: Record<string, unknown> = engine !== null
    ? { definitions, resolution: "types", engine: engine.id }
    : { definitions, resolution: "names", ...(note === null ? {} : { note }) };
  if (type !== null && type.type !== "") {
    structured.type = type.type;
    if (type.documentation !== "") structured.documentation = type.documentation;
  }
  if (projects !== undefined) structured.projects = projects;
  return { content: [{ type: "text", text: lines.join("\n") }], structuredContent: structured };
}

export const goToDefinitionTool: Tool = {
  name: "go_to_definition",
  title: "Go to definition",
  description: "Where the symbol at a position is declared. TS/JS: " +
    "TypeScript's checker (imports, re-exports, overloads), with its type and doc; Python: " +
    "pyright; others: the name's definitions ranked by scope (params, locals, self.x, " +
    "imports, same package). Prefer it to grep for common names. " +
    "target: implementations or type declaration instead. `path:line:column: text  [kind " +
    "name, to line N]`; lib types: path null.",
  inputSchema,
  outputSchema,
  annotations: readOnlyAnnotations("Go to definition"),
  run,
};
