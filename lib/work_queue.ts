/**
 * The one queue for heavy work of a process: a fixed number of units (two), granted in arrival
 * order. A search-pool job takes every unit (it drives all the workers); a lighter heavy task
 * (one process, one parse) takes one. A waiting request whose signal aborts leaves the queue at
 * once and rejects with the signal's reason.
 *
 * Where one process serves several sessions (the shared daemon), each waiter belongs to the
 * session whose call asked (lib/call_owner.ts), and the sessions are served in turn: the next
 * grant goes to the head of the next session in line that waits, so that a small call of one
 * session waits behind at most the jobs already running and one job of each other session, not
 * behind another session's whole burst. Within a session, and with one session, arrival order.
 */

import { currentOwner } from "./call_owner.ts";

interface Waiter {
  weight: number;
  owner: object | undefined;
  grant: () => void;
}

export class WorkQueue {
  readonly capacity: number;
  #free: number;
  #waiting: Waiter[] = [];
  /** The owner granted last: the next grant goes to the next owner after it that waits. */
  #lastOwner: object | undefined;
  /** Told the units in use after each grant and release (the index gives way to them). */
  readonly #onChange: (unitsInUse: number) => void;

  constructor(capacity: number, onChange: (unitsInUse: number) => void = () => {}) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError(`capacity must be >= 1, got ${capacity}`);
    }
    this.capacity = capacity;
    this.#free = capacity;
    this.#onChange = onChange;
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
      this.#lastOwner = currentOwner();
      this.#onChange(this.capacity - this.#free);
      return Promise.resolve(this.#releaser(want));
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        weight: want,
        owner: currentOwner(),
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
      this.#onChange(this.capacity - this.#free);
    };
  }

  #drain(): void {
    for (;;) {
      const next = this.#nextWaiter();
      if (next === undefined || this.#waiting[next].weight > this.#free) return;
      const [waiter] = this.#waiting.splice(next, 1);
      this.#free -= waiter.weight;
      this.#lastOwner = waiter.owner;
      this.#onChange(this.capacity - this.#free);
      waiter.grant();
    }
  }

  /**
   * The index of the waiter to serve next: the oldest waiter of the first owner after the last
   * one served (in order of each owner's oldest waiter), or the oldest when all are one owner's.
   * Nobody overtakes the chosen waiter, so a heavy request is never starved.
   */
  #nextWaiter(): number | undefined {
    if (this.#waiting.length === 0) return undefined;
    const first = this.#waiting[0].owner;
    if (this.#waiting.every((w) => w.owner === first)) return 0;
    // Each owner's oldest waiter, in order of age.
    const heads: number[] = [];
    const seen = new Set<object | undefined>();
    this.#waiting.forEach((w, i) => {
      if (!seen.has(w.owner)) {
        seen.add(w.owner);
        heads.push(i);
      }
    });
    const last = heads.findIndex((i) => this.#waiting[i].owner === this.#lastOwner);
    return heads[(last + 1) % heads.length];
  }
}
