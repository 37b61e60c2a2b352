/**
 * The build: the whole tree walked and every file read into a new index, in time slices (queries
 * and watcher events are answered meanwhile), under the memory cap (--index-max-mib: the largest
 * files are left out, always scanned). A build starts only once the watcher watches the tree, so
 * that a change made during it is an event.
 */
import { LayeredIndex } from "../live/layered_index.ts";
import type { Freshness } from "./freshness.ts";
import type { Persistence } from "./persistence.ts";
import { mib, SLICE_MS } from "./slices.ts";
import type { IndexState } from "./state.ts";
import type { Entry, Tree } from "./tree.ts";

/** Estimated index bytes per text byte and per file (measured on the kernel: ~11%). */
const BYTES_PER_TEXT_BYTE = 0.13;
const BYTES_PER_FILE = 300;
const FIXED_BYTES = 8 * 1024 * 1024;

export class Builder {
  #state: IndexState;
  #tree: Tree;
  #freshness: Freshness;
  #persistence: Persistence;

  constructor(state: IndexState, tree: Tree, freshness: Freshness, persistence: Persistence) {
    this.#state = state;
    this.#tree = tree;
    this.#freshness = freshness;
    this.#persistence = persistence;
  }

  async build(): Promise<void> {
    const state = this.#state;
    const freshness = this.#freshness;
    await freshness.watching;
    if (freshness.ended) return;
    const gen = state.nextGeneration();
    const s = state.settings;
    state.setPhase("building");
    this.#tree.open(s.ws);
    freshness.forgetDirty();
    this.#persistence.clearStale();
    state.trust();
    const entries = await this.#tree.walkAll(gen, Infinity, { giveWay: true });
    if (entries === null || !state.isCurrent(gen)) return;
    const skip = leftOutByCap(entries, s.maxBytes);
    if (skip === null) {
      state.dropIndex();
      state.setPhase(
        "off",
        `the index would need more than --index-max-mib (${mib(s.maxBytes)} MiB)`,
      );
      return;
    }
    const started = performance.now();
    const next = await this.#readAll(gen, entries, skip);
    if (next === null) return;
    state.dropIndex();
    state.useIndex(next);
    state.setPhase(
      "ready",
      `read and indexed in ${((performance.now() - started) / 1000).toFixed(1)} s, ${
        mib(next.textBytes)
      } MiB of text, ${next.overlay.postings.trigrams} trigrams`,
    );
    if (state.untrusted) freshness.catchUp().catch((error) => state.fail(error));
    else if (this.#persistence.enabled) this.#persistence.schedule(0);
  }

  /** Reads every entry into a new index (those in `skip`, or over the cap, left out). */
  async #readAll(
    gen: number,
    entries: Entry[],
    skip: Set<Entry>,
  ): Promise<LayeredIndex | null> {
    const state = this.#state;
    const maxBytes = state.settings.maxBytes;
    const next = new LayeredIndex();
    let last = performance.now();
    state.resetLeftOut();
    // Each entry is let go once indexed (popped from the reversed list, so the walk's order
    // holds): the walk's entries for the whole tree (about 11 MiB on the kernel) are not held to
    // the end.
    entries.reverse();
    while (entries.length > 0) {
      const e = entries.pop()!;
      const over = skip.has(e) || next.bytes > maxBytes;
      if (over) state.countLeftOut();
      this.#tree.indexFile(next, e, over);
      if (performance.now() - last > SLICE_MS) {
        await state.giveWay.turn();
        if (!state.isCurrent(gen)) return null;
        last = performance.now();
      }
    }
    next.overlay.ordered = next.overlay.files.length;
    next.overlay.compact();
    return next;
  }
}

/**
 * The memory cap: the largest files left out (always scanned) until the estimate fits; null when
 * that would leave out more than a tenth of the files (then the index is off).
 */
function leftOutByCap(entries: Entry[], maxBytes: number): Set<Entry> | null {
  let total = 0;
  for (const e of entries) total += e.size;
  const skip = new Set<Entry>();
  if (estimate(total, entries.length) > maxBytes) {
    const bySize = [...entries].sort((a, b) => b.size - a.size);
    for (const e of bySize) {
      if (estimate(total, entries.length) <= maxBytes) break;
      skip.add(e);
      total -= e.size;
    }
    if (skip.size > entries.length / 10) return null;
  }
  return skip;
}

/** Estimated index bytes for these files. */
function estimate(bytes: number, files: number): number {
  return FIXED_BYTES + bytes * BYTES_PER_TEXT_BYTE + files * BYTES_PER_FILE;
}
