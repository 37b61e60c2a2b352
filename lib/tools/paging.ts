/**
 * Paging and the output budget shared by the tools (and only them: resources/list pages by
 * cursor, lib/resources/listing.ts). Without an explicit limit a page stays under
 * the character budget (measured on the larger of the text and the JSON of structuredContent);
 * an explicit limit is honoured exactly (0 = unlimited) under a hard safety cap.
 */

/** The hard cap on any one result, in characters, even with an explicit limit. */
export const HARD_CAP_CHARS = 8 * 1024 * 1024;

/** Room kept for the structuredContent wrapper and the hint line. */
const RESERVE = 400;

export interface PageRequest {
  offset: number;
  /** The caller's explicit limit (0 = unlimited), or null to use `defaultLimit` and the budget. */
  limit: number | null;
  /** Used when `limit` is null (Infinity when the tool has none). */
  defaultLimit: number;
  /** config.maxOutputChars; 0 = off. */
  budgetChars: number;
}

export interface Page<T> {
  items: T[];
  /** Index after the last item shown, when more remain. */
  nextOffset?: number;
  /** Why the page ended before the end: the limit, the budget or the hard cap. */
  cutBy: "limit" | "budget" | "cap" | null;
}

/** The page of `items` (all of them, from index 0) that the request allows. */
export function takePage<T>(
  items: readonly T[],
  request: PageRequest,
  size: (item: T) => { text: number; json: number },
): Page<T> {
  const explicit = request.limit !== null;
  const count = explicit ? (request.limit === 0 ? Infinity : request.limit!) : request.defaultLimit;
  const budget = explicit || request.budgetChars === 0 ? Infinity : request.budgetChars;
  const cap = Math.min(budget, HARD_CAP_CHARS);
  const out: T[] = [];
  let text = 0;
  let json = 0;
  let cutBy: Page<T>["cutBy"] = null;
  let i = request.offset;
  for (; i < items.length; i++) {
    if (out.length >= count) {
      cutBy = "limit";
      break;
    }
    const s = size(items[i]);
    // One entry always fits, so paging always moves on.
    if (Math.max(text + s.text, json + s.json) + RESERVE > cap && out.length > 0) {
      cutBy = cap === budget ? "budget" : "cap";
      break;
    }
    text += s.text;
    json += s.json;
    out.push(items[i]);
  }
  return i < items.length ? { items: out, nextOffset: i, cutBy } : { items: out, cutBy: null };
}

/** Size of a string entry shown as one text line and one JSON array element. */
export function lineSize(entry: string): { text: number; json: number } {
  return { text: entry.length + 1, json: JSON.stringify(entry).length + 1 };
}

/** The reason part of a hint line when the hard cap cut the page. */
export function capNote(cutBy: Page<unknown>["cutBy"]): string {
  return cutBy === "cap" ? " (stopped at the 8 MiB safety cap)" : "";
}

/** The next-page hint, the last text line of a cut result. */
export function hintLine(remaining: string, nextOffset: number, note = ""): string {
  return `[... ${remaining}${note}; call again with offset=${nextOffset}]`;
}

/** The page request of a listing call (`head_limit`, else the default limit and the budget). */
export function pageRequest(
  offset: number,
  args: { readonly head_limit?: number },
  options: { budgetChars: number; defaultLimit: number },
): PageRequest {
  return {
    offset,
    limit: args.head_limit ?? null,
    defaultLimit: options.defaultLimit,
    budgetChars: options.budgetChars,
  };
}
