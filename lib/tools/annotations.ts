/** The two kinds of tool annotations: read-only tools and the edit tools. */
import type { ToolAnnotations } from "./tool.ts";

export function readOnlyAnnotations(title: string): ToolAnnotations {
  return { title, readOnlyHint: true, idempotentHint: true, openWorldHint: false };
}

/** Edit tools change files, destructively, and twice the same call is not the same as once. */
export function editAnnotations(title: string): ToolAnnotations {
  return {
    title,
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: false,
  };
}
