/**
 * Per-file serialisation of edits: calls on one path run one after another (read, check, write),
 * so two concurrent edits of one file never lose an update; edits of different files run at once.
 */
export class PathLocks {
  readonly #tails = new Map<string, Promise<void>>();

  /** Runs `fn` once every earlier call for `key` has finished. */
  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const before = this.#tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = before.then(() => mine);
    this.#tails.set(key, tail);
    await before;
    try {
      return await fn();
    } finally {
      release();
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    }
  }
}
