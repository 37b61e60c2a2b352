/**
 * What the type-aware tools share (docs/tools.md "Type-aware tools"): the position arguments
 * (`path`, `line`, and `column` or `name` with `occurrence`), their checks, and the question to
 * the session's semantic worker with its refusals as isError text.
 */
import { type ToolContext, ToolError } from "./tool.ts";
import { isScriptPath } from "../semantic/positions.ts";
import type { FilePosition } from "../semantic/protocol.ts";
import { type Answer, type Query, SemanticRefusal } from "../semantic/service.ts";

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

export { isScriptPath };

/** Asks the session's semantic worker; its refusals and failures become ToolError. */
export async function askSemantic(ctx: ToolContext, query: Query): Promise<Answer> {
  try {
    return await ctx.session.semantic.ask(ctx.workspace, query, {
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

/** `path:line:column` of an entry. */
export function placeOf(e: { path: string | null; line: number; column: number }): string {
  return `${e.path ?? "(lib)"}:${e.line}:${e.column}`;
}
