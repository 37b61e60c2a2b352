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
  const builder = new PageBuilder(request, size);
  for (let i = request.offset; i < items.length && builder.open; i++) builder.offer(items[i], i);
  return builder.page();
}

/**
 * The page a request allows, built from the items offered one at a time in their order, each
 * with its index among all items (`takePage` over an array, for callers that never hold all the
 * items: find_symbol over a whole tree keeps only the page and counts the rest).
 */
export class PageBuilder<T> {
  readonly #request: PageRequest;
  readonly #size: (item: T) => EntrySize;
  readonly #count: number;
  readonly #budget: number;
  readonly #items: T[] = [];
  #text = 0;
  #json = 0;
  #wire = 0;
  #nextOffset: number | undefined;
  #cutBy: Page<T>["cutBy"] = null;

  constructor(request: PageRequest, size: (item: T) => EntrySize) {
    const explicit = request.limit !== null;
    this.#request = request;
    this.#size = size;
    this.#count = explicit
      ? (request.limit === 0 ? Infinity : request.limit!)
      : request.defaultLimit;
    this.#budget = explicit || request.budgetChars === 0 ? Infinity : request.budgetChars;
  }

  /** False once the page has ended: later items only count. */
  get open(): boolean {
    return this.#nextOffset === undefined;
  }

  /** The item at `index` (offered in index order, each index once). */
  offer(item: T, index: number): void {
    if (index < this.#request.offset || !this.open) return;
    if (this.#items.length >= this.#count) {
      this.#close(index, "limit");
      return;
    }
    const s = this.#size(item);
    // One entry always fits, so paging always moves on (the tools feature refuses a message
    // that one entry alone makes too large).
    if (this.#items.length > 0) {
      if (Math.max(this.#text + s.text, this.#json + s.json) + RESERVE > this.#budget) {
        this.#close(index, "budget");
        return;
      }
      if (this.#wire + s.wire + RESERVE_BYTES > MESSAGE_CAP_BYTES) {
        this.#close(index, "cap");
        return;
      }
    }
    this.#text += s.text;
    this.#json += s.json;
    this.#wire += s.wire;
    this.#items.push(item);
  }

  /** The page so far: with `nextOffset` when an item was offered past its end. */
  page(): Page<T> {
    return this.#nextOffset === undefined
      ? { items: this.#items, cutBy: null }
      : { items: this.#items, nextOffset: this.#nextOffset, cutBy: this.#cutBy };
  }

  #close(index: number, cutBy: Page<T>["cutBy"]): void {
    this.#nextOffset = index;
    this.#cutBy = cutBy;
  }
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
