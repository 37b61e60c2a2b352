/** At most N heavy calls (walks, searches) at once; the rest wait in a queue, cancellable. */

export class HeavySlots {
  #free: number;
  #waiting: Array<{ grant: () => void }> = [];

  constructor(slots: number) {
    if (!Number.isInteger(slots) || slots < 1) {
      throw new RangeError(`slots must be >= 1, got ${slots}`);
    }
    this.#free = slots;
  }

  /** Waits for a slot; resolves to its release function, rejects with the signal's reason. */
  acquire(signal: AbortSignal): Promise<() => void> {
    signal.throwIfAborted();
    if (this.#free > 0) {
      this.#free--;
      return Promise.resolve(this.#releaser());
    }
    return new Promise((resolve, reject) => {
      const waiter = {
        grant: () => {
          signal.removeEventListener("abort", onAbort);
          resolve(this.#releaser());
        },
      };
      const onAbort = () => {
        const at = this.#waiting.indexOf(waiter);
        if (at !== -1) this.#waiting.splice(at, 1);
        reject(signal.reason);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.#waiting.push(waiter);
    });
  }

  get waiting(): number {
    return this.#waiting.length;
  }

  #releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiting.shift();
      if (next) next.grant();
      else this.#free++;
    };
  }
}
