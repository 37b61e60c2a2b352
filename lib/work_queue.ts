/**
 * The one queue for heavy work of a session: a fixed number of units (two), granted in arrival
 * order. A search-pool job takes every unit (it drives all the workers); a lighter heavy task
 * (one process, one parse) takes one. A waiting request whose signal aborts leaves the queue at
 * once and rejects with the signal's reason.
 */

interface Waiter {
  weight: number;
  grant: () => void;
}

export class WorkQueue {
  readonly capacity: number;
  #free: number;
  #waiting: Waiter[] = [];

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError(`capacity must be >= 1, got ${capacity}`);
    }
    this.capacity = capacity;
    this.#free = capacity;
  }

  /**
   * Waits for `weight` units (1 to capacity; "all" = capacity); resolves to the release function,
   * rejects with the signal's reason when it aborts first.
   */
  acquire(signal: AbortSignal, weight: number | "all" = 1): Promise<() => void> {
    const want = weight === "all" ? this.capacity : weight;
    if (!Number.isInteger(want) || want < 1 || want > this.capacity) {
      throw new RangeError(`weight must be 1..${this.capacity}, got ${weight}`);
    }
    signal.throwIfAborted();
    // Arrival order: nobody overtakes a waiter, so a heavy request is never starved.
    if (this.#waiting.length === 0 && this.#free >= want) {
      this.#free -= want;
      return Promise.resolve(this.#releaser(want));
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        weight: want,
        grant: () => {
          signal.removeEventListener("abort", onAbort);
          resolve(this.#releaser(want));
        },
      };
      const onAbort = () => {
        const at = this.#waiting.indexOf(waiter);
        if (at === -1) return;
        this.#waiting.splice(at, 1);
        reject(signal.reason);
        this.#drain(); // a large waiter leaving may let smaller ones behind it through
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.#waiting.push(waiter);
    });
  }

  /** Requests waiting for units. */
  get waiting(): number {
    return this.#waiting.length;
  }

  #releaser(weight: number): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#free += weight;
      this.#drain();
    };
  }

  #drain(): void {
    while (this.#waiting.length > 0 && this.#waiting[0].weight <= this.#free) {
      const next = this.#waiting.shift()!;
      this.#free -= next.weight;
      next.grant();
    }
  }
}
