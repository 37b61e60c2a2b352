/**
 * Splits the bytes a relay reads from its daemon into lines, never decoding them: a line comes
 * out as the pieces it arrived in. A long piece is handed on as a view of the read buffer it was
 * read into (the next reads go after it, or into a new buffer), so a large answer is never copied
 * on its way through; a short one is copied out, and one buffer serves many small frames.
 */

import { JsonBytes } from "../jsonrpc/json_bytes.ts";

const LF = 0x0a;
/** Pieces at least this long are handed on as views instead of copies. */
const VIEW_MIN = 16 * 1024;
/** A buffer part of which was handed on takes further reads while this much of it is left. */
const MIN_READ = 64 * 1024;

export class ByteLines {
  readonly #max: number;
  readonly #readSize: number;
  #buffer: Uint8Array;
  /** Part of #buffer was handed on: reads go after #offset, or into a fresh buffer. */
  #given = false;
  #offset = 0;
  /** The start of a line that spans reads. */
  #pieces: Uint8Array[] = [];
  #held = 0;
  /** Inside a line longer than the cap: its bytes are dropped up to its LF. */
  #discarding = false;

  constructor(maxLineBytes: number, readSize: number) {
    this.#max = maxLineBytes;
    this.#readSize = readSize;
    this.#buffer = new Uint8Array(readSize);
  }

  /** Where the next read goes. */
  buffer(): Uint8Array {
    if (!this.#given) this.#offset = 0;
    else if (this.#buffer.length - this.#offset < MIN_READ) {
      this.#buffer = new Uint8Array(this.#readSize);
      this.#given = false;
      this.#offset = 0;
    }
    return this.#buffer.subarray(this.#offset);
  }

  /**
   * The lines (without their LF; empty ones skipped) that the `n` bytes just read into buffer()
   * complete. A line longer than the cap is dropped whole.
   */
  push(n: number): JsonBytes[] {
    const data = this.#buffer.subarray(this.#offset, this.#offset + n);
    const lines: JsonBytes[] = [];
    let start = 0;
    while (start <= n) {
      const lf = data.indexOf(LF, start);
      const end = lf === -1 ? n : lf;
      this.#keep(data, start, end);
      if (lf === -1) break;
      if (!this.#discarding && this.#held > 0) lines.push(new JsonBytes(this.#pieces));
      this.#pieces = [];
      this.#held = 0;
      this.#discarding = false;
      start = lf + 1;
    }
    if (this.#given) this.#offset += n;
    return lines;
  }

  #keep(data: Uint8Array, start: number, end: number): void {
    const size = end - start;
    if (this.#discarding || size === 0) return;
    if (this.#held + size > this.#max) {
      this.#pieces = [];
      this.#held = 0;
      this.#discarding = true;
      return;
    }
    if (size >= VIEW_MIN) {
      this.#pieces.push(data.subarray(start, end));
      this.#given = true;
    } else this.#pieces.push(data.slice(start, end));
    this.#held += size;
  }
}
