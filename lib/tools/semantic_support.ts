/**
 * What the type-aware tools share (docs/tools.md "Type-aware tools"): the position arguments
 * (`path`, `line`, and `column` or `name` with `occurrence`), their checks, the identifier a
 * position names, and the question to the engine the session's router names for a file, with
 * its refusals as isError text. Nothing here names a language: the engines' table does.
 */
import { type ToolContext, ToolError } from "./tool.ts";
import { identifierAt } from "../semantic/positions.ts";
import {
  type Answer,
  type Engine,
  type FilePosition,
  type NavigationQuery,
  type Query,
  SemanticRefusal,
} from "../semantic/engine.ts";

/** The position properties of an inputSchema. */
export function positionProperties(what: string): Record<string, unknown> {
  return {
    path: { type: "string", description: `File of the ${what}` },
    line: { type: "integer", minimum: 1, description: "Line (1-based)" },
    name: { type: "string", description: "Identifier on the line" },
    occurrence: { type: "integer", minimum: 1, description: "Nth such name on the line" },
    column: { type: "integer", minimum: 1, description: "Column (1-based, UTF-16)" },
  };
}

/** True when the arguments carry a position (`line` given). */
export function hasPosition(args: Record<string, unknown>): boolean {
  return args.line !== undefined;
}

/**
 * The position the arguments name, with its root-relative served path; ToolError (or
 * WorkspaceError) for the model to fix.
 */
export function readPosition(ctx: ToolContext, args: Record<string, unknown>): FilePosition {
  if (typeof args.path !== "string" || args.path === "") {
    throw new ToolError(
      "Missing path: give the file of the position with line and name (or column)",
    );
  }
  if (typeof args.line !== "number") {
    throw new ToolError("Missing line: give line (1-based) with name or column");
  }
  const hasName = typeof args.name === "string";
  const hasColumn = typeof args.column === "number";
  if (hasName === hasColumn) {
    throw new ToolError(
      hasName
        ? "Give only one of name and column, not both"
        : "Missing name or column: give the identifier on the line (name) or its column",
    );
  }
  if (args.occurrence !== undefined && !hasName) {
    throw new ToolError("occurrence counts occurrences of name: give name with it");
  }
  const resolved = ctx.workspace.resolve(args.path);
  const position: FilePosition = { path: resolved.rel, line: args.line };
  if (hasName) {
    const name = args.name as string;
    if (name === "" || name.length > 256 || /\s/.test(name)) {
      throw new ToolError(`Invalid name ${JSON.stringify(name.slice(0, 80))}: give one identifier`);
    }
    position.name = name;
    if (typeof args.occurrence === "number") position.occurrence = args.occurrence;
  } else position.column = args.column as number;
  return position;
}

/** The engine that answers for a root-relative file, or null (name-based answers then). */
export function engineFor(ctx: ToolContext, path: string): Engine | null {
  return ctx.session.semantic.engineFor(path);
}

/** The languages the engines answer for, for sentences: "TypeScript/JavaScript or Python". */
export function engineLanguages(ctx: ToolContext): string {
  const names = ctx.session.semantic.engines.map((engine) => engine.name);
  return names.length <= 1
    ? names.join("")
    : `${names.slice(0, -1).join(", ")} or ${names[names.length - 1]}`;
}

/** Asks `engine`; its refusals and failures become ToolError. */
export async function askEngine(
  ctx: ToolContext,
  engine: Engine,
  query: Query | NavigationQuery,
): Promise<Answer> {
  try {
    return await engine.ask(ctx.workspace, query, {
      signal: ctx.signal,
      progress: (done, message) => ctx.progress(done, undefined, message),
    });
  } catch (error) {
    if (error instanceof SemanticRefusal) throw new ToolError(error.message);
    if (ctx.signal.aborted) throw error;
    throw new ToolError(
      `The type-aware answer failed (${(error as Error).message}); try again`,
    );
  }
}

/**
 * The identifier at a position, read from the file as read_file counts lines (the name-based
 * answers of go_to_definition and find_references start from it); ToolError when there is none.
 */
export function identifierOf(ctx: ToolContext, at: FilePosition): string {
  const bytes = ctx.workspace.readFileSync(at.path, { maxBytes: ctx.config.maxReadBytes });
  let text = new TextDecoder().decode(bytes);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const found = identifierAt(text, at.path, at);
  if (!found.ok) throw new ToolError(found.message);
  return found.word;
}

/** `path:line:column` of an entry. */
export function placeOf(e: { path: string | null; line: number; column: number }): string {
  return `${e.path ?? "(lib)"}:${e.line}:${e.column}`;
}
