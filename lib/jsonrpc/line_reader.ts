/**
 * Splits a byte stream, chunk by chunk, into text lines (one JSON-RPC message per line) with a byte cap.
 *
 * LF ends a line and one CR right before it is dropped; a last line without LF still counts;
 * blank and whitespace-only lines are skipped. Invalid UTF-8 becomes U+FFFD. A line longer than
 * the cap is never buffered whole: its bytes are dropped as they arrive and it is reported once.
 */

export type LineEvent = { kind: "line"; text: string } | { kind: "too-long" };

const LF = 0x0a;
const CR = 0x0d;
const INITIAL_HOLD = 64 * 1024;
/** A hold buffer grown past this (for a huge line) is dropped once that line is done. */
const MAX_KEPT_HOLD = 4 * 1024 * 1024;

/**
 * The splitting state machine, fed chunk by chunk: `push` returns the events a chunk completes,
 * `end` the event of a last line without LF.
 */
export class LineSplitter {
  readonly #max: number;
  readonly #decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });
  /** The start of a line that spans chunks, copied (the caller reuses its read buffer). */
  #held = new Uint8Array(INITIAL_HOLD);
  #buffered = 0;
  #discarding = false;

  constructor(maxLineBytes: number) {
    if (!Number.isSafeInteger(maxLineBytes) || maxLineBytes < 1) {
      throw new RangeError(`maxLineBytes must be a positive integer, got ${maxLineBytes}`);
    }
    this.#max = maxLineBytes;
  }

  push(chunk: Uint8Array): LineEvent[] {
    const events: LineEvent[] = [];
    let start = 0;
    while (start < chunk.length) {
      const lf = chunk.indexOf(LF, start);
      if (lf === -1) {
        this.#keep(events, chunk.subarray(start));
        break;
      }
      if (this.#discarding) {
        this.#discarding = false;
      } else if (this.#buffered + (lf - start) > this.#max + 1) {
        // +1: a CR right before the LF is dropped and does not count.
        this.#release();
        events.push({ kind: "too-long" });
      } else {
        this.#emit(events, chunk.subarray(start, lf));
      }
      start = lf + 1;
    }
    return events;
  }

  end(): LineEvent[] {
    const events: LineEvent[] = [];
    if (!this.#discarding && this.#buffered > 0) this.#emit(events, new Uint8Array(0));
    this.#release();
    this.#discarding = false;
    return events;
  }

  #emit(events: LineEvent[], tail: Uint8Array): void {
    let bytes = tail;
    if (this.#buffered > 0) {
      this.#hold(tail);
      bytes = this.#held.subarray(0, this.#buffered);
    }
    let end = bytes.length;
    if (end > 0 && bytes[end - 1] === CR) end--;
    if (end > this.#max) {
      events.push({ kind: "too-long" });
    } else {
      const text = this.#decoder.decode(bytes.subarray(0, end));
      if (!isBlank(text)) events.push({ kind: "line", text });
    }
    this.#release();
  }

  #keep(events: LineEvent[], piece: Uint8Array): void {
    if (this.#discarding || piece.length === 0) return;
    if (this.#buffered + piece.length > this.#max + 1) {
      // Never buffer an over-long line whole: drop what came and skip to the next LF.
      this.#release();
      this.#discarding = true;
      events.push({ kind: "too-long" });
      return;
    }
    this.#hold(piece);
  }

  #hold(piece: Uint8Array): void {
    const need = this.#buffered + piece.length;
    if (need > this.#held.length) {
      const grown = new Uint8Array(Math.max(need, this.#held.length * 2));
      grown.set(this.#held.subarray(0, this.#buffered));
      this.#held = grown;
    }
    this.#held.set(piece, this.#buffered);
    this.#buffered = need;
  }

  /** Forgets the held bytes; a buffer grown for a huge line is not kept. */
  #release(): void {
    this.#buffered = 0;
    if (this.#held.length > MAX_KEPT_HOLD) this.#held = new Uint8Array(INITIAL_HOLD);
  }
}

function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0x20 && c < 0x7f) return false;
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d && c !== 0x0b && c !== 0x0c) {
      return text.trim() === "";
    }
  }
  return true;
}
