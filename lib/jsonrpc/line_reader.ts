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

/**
 * The splitting state machine, fed chunk by chunk: `push` returns the events a chunk completes,
 * `end` the event of a last line without LF.
 */
export class LineSplitter {
  readonly #max: number;
  readonly #decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });
  #parts: Uint8Array[] = [];
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
        this.#parts = [];
        this.#buffered = 0;
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
    this.#discarding = false;
    return events;
  }

  #emit(events: LineEvent[], tail: Uint8Array): void {
    let bytes = tail;
    if (this.#parts.length > 0) {
      bytes = new Uint8Array(this.#buffered + tail.length);
      let at = 0;
      for (const part of this.#parts) {
        bytes.set(part, at);
        at += part.length;
      }
      bytes.set(tail, at);
      this.#parts = [];
    }
    this.#buffered = 0;
    let end = bytes.length;
    if (end > 0 && bytes[end - 1] === CR) end--;
    if (end > this.#max) {
      events.push({ kind: "too-long" });
      return;
    }
    const text = this.#decoder.decode(bytes.subarray(0, end));
    if (!isBlank(text)) events.push({ kind: "line", text });
  }

  #keep(events: LineEvent[], piece: Uint8Array): void {
    if (this.#discarding || piece.length === 0) return;
    if (this.#buffered + piece.length > this.#max + 1) {
      // Never buffer an over-long line whole: drop what came and skip to the next LF.
      this.#parts = [];
      this.#buffered = 0;
      this.#discarding = true;
      events.push({ kind: "too-long" });
      return;
    }
    // Copy: the producer may reuse its buffer once the chunk is handed over.
    this.#parts.push(piece.slice());
    this.#buffered += piece.length;
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
