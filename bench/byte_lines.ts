/**
 * Byte lines for the benches' stdio loops (bench/client.ts reading a server, bench/floor_server.ts
 * reading its client): chunks split at LF into lines, a line that spans chunks joined once.
 */

/** `parts` joined into one array of `length` bytes. */
export function concat(parts: readonly Uint8Array[], length: number): Uint8Array {
  const whole = new Uint8Array(length);
  let o = 0;
  for (const p of parts) {
    whole.set(p, o);
    o += p.length;
  }
  return whole;
}

/** Splits a stream of chunks into lines (without their LF), holding the start of the last one. */
export class LineSplitter {
  #pending: Uint8Array[] = [];
  #pendingLen = 0;
  readonly #copy: boolean;

  /** `copy`: the reader reuses its buffer, so the start of a line is copied out of it. */
  constructor(options: { copy: boolean }) {
    this.#copy = options.copy;
  }

  /** Hands `take` each line that `chunk` ends, the held start of the first joined on. */
  push(chunk: Uint8Array, take: (line: Uint8Array) => void): void {
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(10, start);
      if (nl < 0) {
        this.#pending.push(this.#copy ? chunk.slice(start) : chunk.subarray(start));
        this.#pendingLen += chunk.length - start;
        break;
      }
      let line = chunk.subarray(start, nl);
      if (this.#pendingLen > 0) {
        this.#pending.push(line);
        line = concat(this.#pending, this.#pendingLen + line.length);
        this.#pending = [];
        this.#pendingLen = 0;
      }
      take(line);
      start = nl + 1;
    }
  }

  /** The last line when the stream ended without its LF, else null. */
  rest(): Uint8Array | null {
    if (this.#pendingLen === 0) return null;
    const whole = concat(this.#pending, this.#pendingLen);
    this.#pending = [];
    this.#pendingLen = 0;
    return whole;
  }
}
