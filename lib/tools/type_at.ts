/**
 * The type at a position, for answers that carry it beside their own (go_to_definition): the
 * engine's quick info when it answers that question, else nothing. A refusal or failure here
 * never fails the answer it accompanies.
 */
import { type ToolContext, ToolError } from "./tool.ts";
import { askEngine } from "./semantic_support.ts";
import type { Engine, FilePosition, TypeInfo } from "../semantic/engine.ts";

export async function typeAt(
  ctx: ToolContext,
  engine: Engine,
  at: FilePosition,
): Promise<TypeInfo | null> {
  if (engine.navigation?.has("type") !== true) return null;
  try {
    const answer = await askEngine(ctx, engine, { kind: "type", at });
    return answer.kind === "type" ? answer.info : null;
  } catch (error) {
    if (error instanceof ToolError) return null;
    throw error;
  }
}

/** The type's lines of a text answer: `type: ...` and, when documented, `doc: ...`. */
export function typeLines(info: TypeInfo | null): string[] {
  if (info === null || info.type === "") return [];
  const lines = [`type: ${info.type}`];
  if (info.documentation !== "") lines.push(`doc: ${info.documentation}`);
  return lines;
}
