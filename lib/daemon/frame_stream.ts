/** Lines in and out over one Unix socket connection, for both ends of the relay-daemon wire. */

import type { JsonBytes } from "../jsonrpc/json_bytes.ts";
import { LineSplitter } from "../jsonrpc/line_reader.ts";
import { Output } from "../server/output.ts";
import { ByteLines } from "./byte_lines.ts";

/** A frame is never longer than this (the relay's own line cap is lower). */
const MAX_FRAME_BYTES = 2 ** 31;
const READ_SIZE = 256 * 1024;

export class FrameStream {
  readonly #conn: Deno.Conn;
  readonly #output: Output;
  #closed = false;

  constructor(conn: Deno.Conn) {
    this.#conn = conn;
    this.#output = new Output(conn, () => this.close());
  }

  /** Queues one line (ending in LF); `tag` lets it be retracted until it is written. */
  send(line: string, tag?: string): void {
    if (!this.#closed) this.#output.send(line, tag);
  }

  retract(tag: string): boolean {
    return this.#output.retract(tag);
  }

  /** Bytes waiting to be written (about). */
  get pendingChars(): number {
    return this.#output.pendingChars;
  }

  flush(): Promise<void> {
    return this.#output.flush();
  }

  /** Calls `onLine` for every line until the peer closes (or this end does); then resolves. */
  async read(onLine: (line: string) => void): Promise<void> {
    const splitter = new LineSplitter(MAX_FRAME_BYTES);
    const buffer = new Uint8Array(READ_SIZE);
    try {
      while (!this.#closed) {
        const n = await this.#conn.read(buffer);
        if (n === null) break;
        for (const event of splitter.push(buffer.subarray(0, n))) {
          if (event.kind === "line") onLine(event.text);
        }
      }
    } catch {
      // A reset connection ends the stream like a close.
    }
    this.close();
  }

  /** As read(), each line as the bytes it came in (the relay passes results on undecoded). */
  async readBytes(onLine: (line: JsonBytes) => void): Promise<void> {
    const lines = new ByteLines(MAX_FRAME_BYTES, READ_SIZE);
    try {
      while (!this.#closed) {
        const n = await this.#conn.read(lines.buffer());
        if (n === null) break;
        for (const line of lines.push(n)) onLine(line);
      }
    } catch {
      // A reset connection ends the stream like a close.
    }
    this.close();
  }

  get closed(): boolean {
    return this.#closed;
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    try {
      this.#conn.close();
    } catch {
      // Already closed.
    }
  }
}
