import type { JsonBytes } from "../jsonrpc/json_bytes.ts";

/** Where answers go: Deno.stdout, or an in-memory sink in tests. */
export interface ByteSink {
  write(bytes: Uint8Array): Promise<number>;
}

/**
 * The one writer of outgoing messages. Each message is a complete line; lines waiting together
 * are encoded one after the other into one reusable buffer (never joined into one string) and
 * written as one write of at most BATCH_BYTES, or alone when bigger. Writes never overlap, so a
 * message is never interleaved with or split by another. `pendingChars` tells the server how
 * much waits, so it can hold work back while the client does not read (docs/limits.md). A line
 * sent with a tag (the answer to a request) can be retracted until its write begins: a request
 * cancelled after it finished, while its answer still waits for the client, frees that memory.
 * A line may also come as UTF-8 bytes (a relay's answer, passed on as its daemon wrote it): it is
 * written as it is, copied into the batch buffer when small, else written piece by piece.
 */

const encoder = new TextEncoder();

/** Lines waiting together are coalesced into writes of at most this many bytes. */
const BATCH_BYTES = 1024 * 1024;
/** The largest reusable encode buffer kept between writes; bigger messages get their own. */
const MAX_SCRATCH = 32 * 1024 * 1024;

/** One complete line (ending in LF): text, or its UTF-8 bytes. */
export type OutLine = string | JsonBytes;

export class Output {
  #sink: ByteSink;
  #queue: OutLine[] = [];
  /** The tag of each queued line (parallel to #queue), or undefined. */
  #tags: Array<string | undefined> = [];
  /** How many queued lines carry each tag (most carry none: no scan on an untagged cancel). */
  #tagged = new Map<string, number>();
  #head = 0;
  /** Lines from #head on that the write in progress holds (they can no longer be retracted). */
  #writing = 0;
  #pendingChars = 0;
  #scheduled = false;
  #flushing: Promise<void> = Promise.resolve();
  #closed = false;
  #onClosed: () => void;
  /** Woken whenever a write completes (or the stream fails). */
  #waiters: Array<() => void> = [];
  /** Reused for every write: a fresh large buffer per message costs more than encoding it. */
  #scratch = new Uint8Array(BATCH_BYTES);

  /** `onClosed` runs once if the stream fails (the client went away: EPIPE). */
  constructor(sink: ByteSink, onClosed: () => void) {
    this.#sink = sink;
    this.#onClosed = onClosed;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /**
   * UTF-16 units (bytes, for lines given as bytes) of the lines queued and not yet written: about
   * their size in bytes.
   */
  get pendingChars(): number {
    return this.#pendingChars;
  }

  /** Resolves once at most `chars` wait to be written (or the stream failed). */
  async below(chars: number): Promise<void> {
    while (!this.#closed && this.#pendingChars > chars) {
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }

  /** Queues one line (ending in "\n") for the next write; `tag` lets retract() take it back. */
  send(line: OutLine, tag?: string): void {
    if (this.#closed) return;
    this.#queue.push(line);
    this.#tags.push(tag);
    if (tag !== undefined) this.#tagged.set(tag, (this.#tagged.get(tag) ?? 0) + 1);
    this.#pendingChars += line.length;
    if (!this.#scheduled) {
      this.#scheduled = true;
      queueMicrotask(() => this.#schedule());
    }
  }

  /**
   * Removes the newest queued line sent with `tag` whose write has not begun: true if one was
   * removed (it will never be written), false if there is none (written, being written, or never
   * sent).
   */
  retract(tag: string): boolean {
    if (!this.#tagged.has(tag)) return false;
    for (let k = this.#queue.length - 1; k >= this.#head + this.#writing; k--) {
      if (this.#tags[k] !== tag) continue;
      this.#pendingChars -= this.#queue[k].length;
      this.#queue[k] = "";
      this.#untag(k);
      this.#wakeAll();
      return true;
    }
    return false;
  }

  #untag(k: number): void {
    const tag = this.#tags[k];
    if (tag === undefined) return;
    this.#tags[k] = undefined;
    const count = this.#tagged.get(tag)! - 1;
    if (count === 0) this.#tagged.delete(tag);
    else this.#tagged.set(tag, count);
  }

  #schedule(): void {
    this.#flushing = this.#flushing.then(() => this.#drain());
  }

  #wakeAll(): void {
    for (const wake of this.#waiters.splice(0)) wake();
  }

  async #drain(): Promise<void> {
    this.#scheduled = false;
    while (this.#head < this.#queue.length && !this.#closed) {
      const { chunks, lines, chars } = this.#takeBatch();
      this.#writing = lines;
      try {
        for (const bytes of chunks) {
          let done = 0;
          while (done < bytes.length) done += await this.#sink.write(bytes.subarray(done));
        }
      } catch {
        this.#closed = true;
        this.#queue = [];
        this.#tags = [];
        this.#tagged.clear();
        this.#writing = 0;
        this.#head = 0;
        this.#pendingChars = 0;
        this.#wakeAll();
        this.#onClosed();
        return;
      }
      // Written lines are released at once: under a steady stream the queue is rarely empty,
      // and holding every answer until it is would keep hundreds of large strings alive.
      this.#queue.fill("", this.#head, this.#head + lines);
      for (let k = this.#head; k < this.#head + lines; k++) this.#untag(k);
      this.#writing = 0;
      this.#head += lines;
      this.#pendingChars -= chars;
      if (this.#head === this.#queue.length) {
        this.#queue = [];
        this.#tags = [];
        this.#head = 0;
      } else if (this.#head > 256 && this.#head * 2 > this.#queue.length) {
        this.#queue = this.#queue.slice(this.#head);
        this.#tags = this.#tags.slice(this.#head);
        this.#head = 0;
      }
      this.#wakeAll();
    }
  }

  /**
   * Encodes the next queued lines: as many as fit in the batch buffer, or the first one alone
   * when it does not fit (a line of bytes: its pieces as they are). The lines stay queued (and
   * counted) until their write completes.
   */
  #takeBatch(): { chunks: readonly Uint8Array[]; lines: number; chars: number } {
    const first = this.#queue[this.#head];
    if (typeof first !== "string" && first.length > BATCH_BYTES) {
      return { chunks: first.parts, lines: 1, chars: first.length };
    }
    if (typeof first === "string" && first.length * 3 > BATCH_BYTES) {
      return { chunks: [this.#encodeAlone(first)], lines: 1, chars: first.length };
    }
    if (this.#scratch.length < BATCH_BYTES) this.#scratch = new Uint8Array(BATCH_BYTES);
    const scratch = this.#scratch;
    let written = 0;
    let lines = 0;
    let chars = 0;
    for (let k = this.#head; k < this.#queue.length; k++) {
      const line = this.#queue[k];
      if (typeof line !== "string") {
        if (written + line.length > BATCH_BYTES) break;
        for (const part of line.parts) {
          scratch.set(part, written);
          written += part.length;
        }
      } else if (written + line.length * 3 > BATCH_BYTES) {
        // Might still fit (most text is ASCII); a line that does not waits for the next write.
        const r = encoder.encodeInto(line, scratch.subarray(written));
        if (r.read !== line.length) break;
        written += r.written;
      } else {
        written += encoder.encodeInto(line, scratch.subarray(written)).written;
      }
      lines++;
      chars += line.length;
    }
    return { chunks: [scratch.subarray(0, written)], lines, chars };
  }

  /** UTF-8 of one large line, in the scratch buffer when it fits (valid until the next call). */
  #encodeAlone(text: string): Uint8Array {
    if (this.#scratch.length < text.length && text.length <= MAX_SCRATCH) {
      this.#scratch = new Uint8Array(Math.ceil(text.length * 1.25));
    }
    if (this.#scratch.length >= text.length) {
      const { read, written } = encoder.encodeInto(text, this.#scratch);
      if (read === text.length) return this.#scratch.subarray(0, written);
    }
    return encoder.encode(text);
  }

  /** Resolves when everything queued so far has been written (or the stream failed). */
  async flush(): Promise<void> {
    while (this.#scheduled || this.#head < this.#queue.length) {
      if (this.#closed) return;
      await new Promise<void>((resolve) => queueMicrotask(resolve));
      await this.#flushing;
    }
    await this.#flushing;
  }
}
