/**
 * One line too long to hold, searched in overlapping windows as it streams by (docs/tools.md,
 * "How much of a file a call holds"). This is exact when every match is at most `maxWidth` UTF-16
 * units long and the pattern has no line anchor (regex_analysis.ts `maxWidth`): a literal, a
 * `fixed_strings` pattern, `-w` words, `foo\d{3}`. Each window is searched for matches that start
 * in its first part; the rest (at least the longest match) is carried into the next window, with
 * a few characters before it for lookbehinds and word boundaries, so no match is cut. Besides
 * whether the line matches, it keeps what a content line shows of it: the first MAX_LINE_CHARS
 * characters, or the window around the first match, and the line's length for the counts of the
 * cut forms (content_lines.ts `cutAround`).
 */
import { cutLine, MAX_LINE_CHARS } from "../read/long_lines.ts";
import { LEAD_CHARS } from "./content_lines.ts";

/** Characters kept before the next window's first possible match start (lookbehinds, lead). */
const BACK_CHARS = LEAD_CHARS + 56;
/** What a cut form can show of the line: its head, or the window around the match. */
const SHOWN_CHARS = MAX_LINE_CHARS + 2;

export class LongLineScan {
  readonly #regex: RegExp;
  /** Units held back at a window's end: the longest match plus its lookaround. */
  readonly #hold: number;
  readonly #decoder: TextDecoder;
  /** The held text: the end of the line so far. */
  #carry = "";
  /** The previous bytes ended with a CR: held back, since it is dropped if an LF follows. */
  #cr = false;
  /** Where in `#carry` the next match may start. */
  #from = 0;
  /** The line's first SHOWN_CHARS units. */
  #head = "";
  /** The line's length so far (UTF-16 units). */
  #length = 0;
  /** The first match's start in the line, or -1. */
  #at = -1;
  /** From `#shownFrom` on: the text a cut around the match shows. */
  #shown = "";
  #shownFrom = 0;

  /** `first`: the line starts the file (a byte order mark is dropped, as the decoders do). */
  constructor(source: string, flags: string, maxWidth: number, first: boolean) {
    this.#regex = new RegExp(source, flags.replace(/[gy]/g, "") + "g");
    this.#hold = maxWidth + 8;
    this.#decoder = new TextDecoder("utf-8", { ignoreBOM: !first });
  }

  /** True once a match was found (later bytes only count the line's length). */
  get matched(): boolean {
    return this.#at >= 0;
  }

  /** The next bytes of the line (no LF); `last`: they end it (a CR before its LF included). */
  push(bytes: Uint8Array, last: boolean): void {
    const cr = !last && bytes.length > 0 && bytes[bytes.length - 1] === 13;
    let text = (this.#cr ? "\r" : "") +
      this.#decoder.decode(cr ? bytes.subarray(0, bytes.length - 1) : bytes, { stream: !last });
    this.#cr = cr;
    if (last && text.endsWith("\r")) text = text.slice(0, -1);
    const start = this.#length;
    this.#length += text.length;
    if (this.#head.length < SHOWN_CHARS) {
      this.#head = (this.#head + text.slice(0, SHOWN_CHARS)).slice(0, SHOWN_CHARS);
    }
    if (this.#at >= 0) {
      if (this.#shown.length < SHOWN_CHARS + 1) {
        this.#shown = (this.#shown + text.slice(0, SHOWN_CHARS + 1)).slice(0, SHOWN_CHARS + 1);
      }
      return;
    }
    this.#search(this.#carry + text, last, start - this.#carry.length);
  }

  /** Searches `window` (the line from `offset` on) for a match starting in its first part. */
  #search(window: string, last: boolean, offset: number): void {
    const limit = last ? window.length + 1 : window.length - this.#hold;
    if (limit > this.#from) {
      this.#regex.lastIndex = this.#from;
      const m = this.#regex.exec(window);
      if (m !== null && m.index < limit) {
        this.#at = offset + m.index;
        this.#shownFrom = Math.max(offset, this.#at - LEAD_CHARS - 1);
        this.#shown = window.slice(
          this.#shownFrom - offset,
          this.#shownFrom - offset + SHOWN_CHARS + 1,
        );
        this.#carry = "";
        return;
      }
    }
    const keepFrom = Math.max(0, Math.min(limit, window.length) - BACK_CHARS);
    this.#carry = window.slice(keepFrom);
    this.#from = Math.max(this.#from, limit) - keepFrom;
  }

  /** The line as a content line shows it: cut around the first match, or at its head. */
  shown(): string {
    const unseen = this.#length - this.#head.length;
    if (this.#at < MAX_LINE_CHARS - LEAD_CHARS) return cutLine(this.#head, unseen);
    // As cutAround does on the whole line, from the held text around the match.
    let start = this.#at - LEAD_CHARS;
    const code = this.#charAt(start);
    if (code >= 0xdc00 && code <= 0xdfff && start > 0) start--;
    let end = Math.min(this.#length, start + MAX_LINE_CHARS);
    const last = this.#charAt(end - 1);
    if (end < this.#length && last >= 0xd800 && last <= 0xdbff) end--;
    const tail = end < this.#length ? `... [+${this.#length - end} chars]` : "";
    const body = this.#shown.slice(start - this.#shownFrom, end - this.#shownFrom);
    return `[... ${start} chars] ${body}${tail}`;
  }

  #charAt(at: number): number {
    return this.#shown.charCodeAt(at - this.#shownFrom);
  }
}
