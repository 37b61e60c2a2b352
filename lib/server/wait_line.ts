/**
 * A first-in first-out line of waiting items (requests held behind the in-flight limit, or lines
 * deferred while the client does not read). An item may carry a key (its request id) by which a
 * cancellation drops it; a dropped item is released at once and skipped. `size` and `chars`
 * count the live items only, so the bounds they guard see what a cancellation freed.
 */

interface Entry<T> {
  value: T | undefined;
  key: string | undefined;
  chars: number;
}

/** Dropped entries at the head are cut away once there are this many (and half the array). */
const COMPACT_AT = 256;

export class WaitLine<T> {
  #entries: Array<Entry<T> | undefined> = [];
  #head = 0;
  #byKey = new Map<string, Entry<T>>();
  #size = 0;
  #chars = 0;

  /** Live items waiting. */
  get size(): number {
    return this.#size;
  }

  /** The summed sizes (UTF-16 units of their text) of the live items. */
  get chars(): number {
    return this.#chars;
  }

  has(key: string): boolean {
    return this.#byKey.has(key);
  }

  /** Appends an item; `chars` is what it costs to hold. */
  push(value: T, key: string | undefined, chars: number): void {
    const entry: Entry<T> = { value, key, chars };
    this.#entries.push(entry);
    this.#track(entry);
  }

  /** Puts an item back at the front (it was taken and must wait again, ahead of the rest). */
  unshift(value: T, key: string | undefined, chars: number): void {
    const entry: Entry<T> = { value, key, chars };
    if (this.#head > 0) this.#entries[--this.#head] = entry;
    else this.#entries.unshift(entry);
    this.#track(entry);
  }

  /** Takes the oldest live item, or undefined when none waits. */
  shift(): T | undefined {
    while (this.#head < this.#entries.length) {
      const entry = this.#entries[this.#head];
      this.#entries[this.#head++] = undefined;
      if (entry === undefined || entry.value === undefined) continue;
      this.#untrack(entry);
      this.#compact();
      return entry.value;
    }
    this.#entries = [];
    this.#head = 0;
    return undefined;
  }

  /** Drops the waiting item with `key` (the newest, if several): true if there was one. */
  drop(key: string): boolean {
    const entry = this.#byKey.get(key);
    if (entry === undefined) return false;
    this.#untrack(entry);
    entry.value = undefined;
    this.#compact();
    return true;
  }

  /** Drops everything. */
  clear(): void {
    this.#entries = [];
    this.#head = 0;
    this.#byKey.clear();
    this.#size = 0;
    this.#chars = 0;
  }

  #track(entry: Entry<T>): void {
    if (entry.key !== undefined) this.#byKey.set(entry.key, entry);
    this.#size++;
    this.#chars += entry.chars;
  }

  #untrack(entry: Entry<T>): void {
    if (entry.key !== undefined && this.#byKey.get(entry.key) === entry) {
      this.#byKey.delete(entry.key);
    }
    this.#size--;
    this.#chars -= entry.chars;
  }

  /** Releases the array slots of taken and dropped items, so that a long storm cannot grow it. */
  #compact(): void {
    if (this.#size === 0) {
      this.#entries = [];
      this.#head = 0;
      return;
    }
    const dead = this.#entries.length - this.#size;
    if (dead >= COMPACT_AT && dead * 2 >= this.#entries.length) {
      this.#entries = this.#entries.filter((e) => e !== undefined && e.value !== undefined);
      this.#head = 0;
    }
  }
}
