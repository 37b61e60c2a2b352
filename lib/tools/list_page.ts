/** One page of a listing of lines (glob's files, list_dir's entries, git's lines). */
import type { ToolContext, ToolResult } from "./tool.ts";
import { capNote, hintLine, lineSize, pageRequest, takePage } from "./paging.ts";

/** The paging arguments of a listing: `offset` (a schema default) and `head_limit`. */
export interface PageArguments {
  readonly offset: number;
  readonly head_limit?: number;
}

/**
 * The text lines with the next-page hint, and `{[key]: items, total, offset, next_offset?,
 * truncated}`.
 */
export function listPage(
  items: string[],
  args: PageArguments,
  options: {
    ctx: ToolContext;
    key: string;
    noun: string;
    empty: string;
    defaultLimit: number;
    /** A text line after the entries (before the hint), e.g. list_dir's lowered depth. */
    note?: string;
    /** More structuredContent fields (before `truncated`). */
    extra?: Record<string, unknown>;
  },
): ToolResult {
  const offset = args.offset;
  const page = takePage(items, pageRequest(offset, args, budgetOf(options)), lineSize);
  const lines = [...page.items];
  if (options.note !== undefined) lines.push(options.note);
  if (page.nextOffset !== undefined) {
    const remaining = `${items.length - page.nextOffset} more ${options.noun}`;
    lines.push(hintLine(remaining, page.nextOffset, capNote(page.cutBy)));
  }
  if (lines.length === 0) lines.push(items.length > 0 ? `No more ${options.noun}` : options.empty);
  const structured: Record<string, unknown> = {
    [options.key]: page.items,
    total: items.length,
    offset,
  };
  if (page.nextOffset !== undefined) structured.next_offset = page.nextOffset;
  Object.assign(structured, options.extra);
  structured.truncated = page.nextOffset !== undefined;
  return { content: [{ type: "text", text: lines.join("\n") }], structuredContent: structured };
}

/** The budget and default limit of a listing call. */
export function budgetOf(
  options: { ctx: ToolContext; defaultLimit: number },
): { budgetChars: number; defaultLimit: number } {
  return { budgetChars: options.ctx.config.maxOutputChars, defaultLimit: options.defaultLimit };
}
