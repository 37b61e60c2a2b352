/** Where answers go: Deno.stdout, or an in-memory sink in tests. */
export interface ByteSink {
  write(bytes: Uint8Array): Promise<number>;
}

/**
 * The one writer of outgoing messages. Each message is a complete line; the lines that become
 * ready in the same tick are coalesced into one write, and writes never overlap, so a message
 * is never interleaved with or split by another.
 */

const encoder = new TextEncoder();

/** The largest reusable encode buffer kept between writes; bigger messages get their own. */
const MAX_SCRATCH = 32 * 1024 * 1024;

export class Output {
  #sink: ByteSink;
  #queue: string[] = [];
  #scheduled = false;
  #flushing: Promise<void> = Promise.resolve();
  #closed = false;
  #onClosed: () => void;
  /** Reused for every write: a fresh large buffer per message costs more than encoding it. */
  #scratch = new Uint8Array(64 * 1024);

  /** `onClosed` runs once if the stream fails (the client went away: EPIPE). */
  constructor(sink: ByteSink, onClosed: () => void) {
    this.#sink = sink;
    this.#onClosed = onClosed;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Queues one line (ending in "\n") for the next write. */
  send(line: string): void {
    if (this.#closed) return;
    this.#queue.push(line);
    if (!this.#scheduled) {
      this.#scheduled = true;
      queueMicrotask(() => this.#schedule());
    }
  }

  #schedule(): void {
    this.#flushing = this.#flushing.then(() => this.#drain());
  }

  async #drain(): Promise<void> {
    this.#scheduled = false;
    while (this.#queue.length > 0 && !this.#closed) {
      const text = this.#queue.length === 1 ? this.#queue[0] : this.#queue.join("");
      this.#queue = [];
      try {
        const bytes = this.#encode(text);
        let done = 0;
        while (done < bytes.length) done += await this.#sink.write(bytes.subarray(done));
      } catch {
        this.#closed = true;
        this.#queue = [];
        this.#onClosed();
      }
    }
  }

  /** UTF-8 of `text`, in the scratch buffer when it fits (valid until the next call). */
  #encode(text: string): Uint8Array {
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
    while (this.#scheduled || this.#queue.length > 0) {
      await new Promise<void>((resolve) => queueMicrotask(resolve));
      await this.#flushing;
    }
    await this.#flushing;
  }
}
