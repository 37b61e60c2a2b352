/**
 * Paging and the output budget shared by the tools (and only them: resources/list pages by
 * cursor, lib/resources/listing.ts). Without an explicit limit a page stays under
 * the character budget (measured on the larger of the text and the JSON of structuredContent);
 * an explicit limit is honoured exactly (0 = unlimited) under the message cap: the whole answer
 * (the text block and structuredContent, JSON-escaped, in UTF-8) stays under 6 MiB.
 */

import { MESSAGE_CAP_BYTES, utf8Length } from "../message_size.ts";

export { MESSAGE_CAP_BYTES };

/**
 * The largest page in characters of text carried twice (the text block and structuredContent):
 * under half the message cap; callers still check the UTF-8 bytes of what they send.
 */
export const HARD_CAP_CHARS = Math.floor(MESSAGE_CAP_BYTES * 0.45);

/** Room kept for the structuredContent wrapper and the hint line. */
const RESERVE = 400;
/** Room kept in a capped message for the envelope, the other fields and the hint lines. */
const RESERVE_BYTES = 16 * 1024;

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

/**
 * What one entry adds to a result: characters of its text line and of its JSON in
 * structuredContent (what the budget counts, as hosts count), and bytes on the wire (the text
 * line JSON-escaped plus its JSON, in UTF-8: what the message cap counts).
 */
export interface EntrySize {
  text: number;
  json: number;
  wire: number;
}

/** The page of `items` (all of them, from index 0) that the request allows. */
export function takePage<T>(
  items: readonly T[],
  request: PageRequest,
  size: (item: T) => EntrySize,
): Page<T> {
  const explicit = request.limit !== null;
  const count = explicit ? (request.limit === 0 ? Infinity : request.limit!) : request.defaultLimit;
  const budget = explicit || request.budgetChars === 0 ? Infinity : request.budgetChars;
  const out: T[] = [];
  let text = 0;
  let json = 0;
  let wire = 0;
  let cutBy: Page<T>["cutBy"] = null;
  let i = request.offset;
  for (; i < items.length; i++) {
    if (out.length >= count) {
      cutBy = "limit";
      break;
    }
    const s = size(items[i]);
    // One entry always fits, so paging always moves on (the tools feature refuses a message
    // that one entry alone makes too large).
    if (out.length > 0) {
      if (Math.max(text + s.text, json + s.json) + RESERVE > budget) {
        cutBy = "budget";
        break;
      }
      if (wire + s.wire + RESERVE_BYTES > MESSAGE_CAP_BYTES) {
        cutBy = "cap";
        break;
      }
    }
    text += s.text;
    json += s.json;
    wire += s.wire;
    out.push(items[i]);
  }
  return i < items.length ? { items: out, nextOffset: i, cutBy } : { items: out, cutBy: null };
}

/** Size of an entry shown as the text line `line` and as `structured` in structuredContent. */
export function entrySize(line: string, structured: unknown): EntrySize {
  const quoted = JSON.stringify(line);
  const json = JSON.stringify(structured);
  return {
    text: line.length + 1,
    json: json.length + 1,
    wire: utf8Length(quoted) - 2 + 2 + utf8Length(json) + 1,
  };
}

/** Size of a string entry shown as one text line and as the same string in structuredContent. */
export function lineSize(entry: string): EntrySize {
  const quoted = JSON.stringify(entry);
  const bytes = utf8Length(quoted);
  return { text: entry.length + 1, json: quoted.length + 1, wire: 2 * bytes + 1 };
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
/** The reason part of a hint line when the message cap cut the page. */
export function capNote(cutBy: Page<unknown>["cutBy"]): string {
  return cutBy === "cap" ? CAP_NOTE : "";
}

/** How a page cut by the message cap says so. */
export const CAP_NOTE = " (stopped at the 6 MiB message cap)";
