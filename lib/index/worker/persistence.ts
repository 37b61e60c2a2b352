/**
 * Persistence: the first build is written as the base shard as soon as it is done; later
 * changes are written as one delta shard once they settle (or at the latest PERSIST_MAX_DELAY_MS
 * after the first unwritten one); the files a stat pass found changed are read again in the
 * background first. Only while this process holds the root's lock; otherwise it keeps its
 * changes in memory.
 */
import { log } from "../../log.ts";
import { LayeredIndex } from "../live/layered_index.ts";
import { SCAN } from "../live/trigram_index.ts";
import { IndexStore } from "../store/index_store.ts";
import { rootIdentity } from "../store/root_key.ts";
import { StoredShard } from "../store/stored_shard.ts";
import { encodeFolders } from "../store/folder_table.ts";
import type { IndexCache, IndexSettings } from "../protocol.ts";
import { SLICE_MS } from "./slices.ts";
import type { IndexState } from "./state.ts";
import type { Tree } from "./tree.ts";

/** Changes are written to the cache once none came for this long. */
export const PERSIST_IDLE_MS = 3000;
/** ... or at the latest this long after the first unwritten change. */
const PERSIST_MAX_DELAY_MS = 30_000;

export class Persistence {
  #state: IndexState;
  #tree: Tree;
  /** The stored index, when the session has a cache folder. */
  #store: IndexStore | null = null;
  /** The stored index could not be used: the folder is emptied once this process holds the lock. */
  #broken = false;
  /** Paths to read again in the background (stale after the stat pass, or changed in a persist). */
  #reread = new Set<string>();
  #rereading = false;
  #persisting = false;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #firstUnwritten = 0;

  constructor(state: IndexState, tree: Tree) {
    this.#state = state;
    this.#tree = tree;
  }

  /**
   * Opens the root's stored index in the cache folder and asks for its lock (the lock may come
   * later: then what is pending is written); null when the root cannot be identified.
   */
  async open(cache: IndexCache, s: IndexSettings): Promise<IndexStore | null> {
    const id = await rootIdentity(this.#tree.root, s.ws);
    if (id === null) return null;
    const store = new IndexStore(cache.port, cache.dir, id.key, id.identity);
    this.#store = store;
    store.lock(() => this.#onLocked());
    return store;
  }

  #onLocked(): void {
    const s = this.#store;
    if (s === null) return;
    const state = this.#state;
    if (this.#broken) {
      s.reset().then(() => {
        this.#broken = false;
        if (state.index !== null && state.phase === "ready") this.schedule(0);
      }).catch(() => {});
      return;
    }
    s.sweep().catch(() => {});
    if (state.index !== null && state.phase === "ready") this.schedule(0);
  }

  /** The session writes a cache. */
  get enabled(): boolean {
    return this.#store !== null;
  }

  /** The stored index was not used (why): it is rebuilt, and the folder emptied once locked. */
  noteBroken(why: string): void {
    log.warn(`The stored index of this folder was not used (${why}): it is rebuilt`);
    this.#broken = true;
    if (this.#store?.locked) this.#store.reset().then(() => this.#broken = false).catch(() => {});
  }

  /** `rel` is a "scan" file, to read again in the background. */
  markStale(rel: string): void {
    this.#reread.add(rel);
  }

  /** Nothing is to be read again (a build reads everything). */
  clearStale(): void {
    this.#reread.clear();
  }

  get staleCount(): number {
    return this.#reread.size;
  }

  /** A file was (re-)indexed: the change is written once changes settle. */
  noteUnwritten(): void {
    if (this.#store === null || this.#state.phase !== "ready") return;
    if (this.#firstUnwritten === 0) this.#firstUnwritten = Date.now();
    this.schedule(PERSIST_IDLE_MS);
  }

  /** Writes what is pending in `delayMs` (sooner when the oldest unwritten change is old). */
  schedule(delayMs: number): void {
    if (this.#store === null) return;
    if (this.#timer !== null) clearTimeout(this.#timer);
    const first = this.#firstUnwritten;
    const wait = first === 0
      ? delayMs
      : Math.max(0, Math.min(delayMs, first + PERSIST_MAX_DELAY_MS - Date.now()));
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#persist().catch((error) => {
        log.warn(`The index could not be written to the cache (${error.message ?? error})`);
      });
    }, wait);
  }

  /** Writes what is pending now (the stale files read again first); resolves once on disk. */
  async flush(): Promise<void> {
    if (this.#reread.size > 0) await this.rereadLater();
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    await this.#persist();
  }

  /** Reads the "scan" files marked stale again, in slices; then the result is persisted. */
  async rereadLater(): Promise<void> {
    if (this.#rereading) return;
    this.#rereading = true;
    const state = this.#state;
    try {
      let last = performance.now();
      while (this.#reread.size > 0 && state.index !== null && state.phase === "ready") {
        const rel = this.#reread.values().next().value as string;
        this.#reread.delete(rel);
        this.#readAgain(state.index, rel);
        if (performance.now() - last > SLICE_MS) {
          await state.giveWay.turn();
          last = performance.now();
        }
      }
    } finally {
      this.#rereading = false;
    }
    if (state.index !== null) this.schedule(PERSIST_IDLE_MS);
  }

  /** Reads `rel` into `idx` again if it is still a "scan" file; drops it when it is gone. */
  #readAgain(idx: LayeredIndex, rel: string): void {
    const tree = this.#tree;
    const old = idx.get(rel);
    if (old !== undefined && old.state !== SCAN) return; // re-read meanwhile
    let found = false;
    try {
      for (const e of tree.ws.walk(rel, { stat: true, maxDepth: 0 })) {
        if (e.isDir || e.rel !== rel) continue;
        tree.indexFile(idx, tree.entryOf(e));
        found = true;
      }
    } catch {
      // gone or refused
    }
    if (!found && old !== undefined) idx.remove(rel);
  }

  /**
   * Writes what changed since the stored state: the whole index as a new base when there is no
   * stored base (after a build), else one delta shard of every file that differs from the base.
   * The file records are a snapshot taken at once; the lists are encoded as the writer takes them
   * (paced, so that the shard is never queued whole in memory), and documents added meanwhile are
   * left out; changes made while the bytes are written are kept and carried over to the index
   * that replaces this one.
   */
  async #persist(): Promise<void> {
    const s = this.#store;
    const state = this.#state;
    const idx = state.index;
    if (s === null || idx === null || state.phase !== "ready" || state.untrusted) return;
    if (this.#persisting || !s.locked || this.#broken) return;
    if (this.#reread.size > 0) return; // the background re-read persists when it is done
    const hasBase = idx.layers.length > 0;
    if (hasBase && idx.changedSinceSnapshot.size === 0) return;
    this.#persisting = true;
    this.#firstUnwritten = 0;
    try {
      const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
      // Another server may have replaced the stored base since this one read it: then the whole
      // index is written as a new base.
      const base = hasBase && stillThere(idx.layers[0].path) ? idx.layers[0] : null;
      const name = base !== null ? `delta-${stamp}.shard` : `base-${stamp}.shard`;
      const started = performance.now();
      const input = idx.shardInput(s.key, base !== null ? 1 : 0);
      input.meta.folders = encodeFolders(this.#tree.root, this.#tree.table);
      idx.snapshot();
      await s.writeShard(name, input);
      const baseName = base === null ? name : base.path.slice(base.path.lastIndexOf("/") + 1);
      await s.commit(baseName, base !== null ? name : null);
      state.notePersisted();
      log.debug(
        `index written: ${name.slice(0, name.indexOf("-"))} shard of ${input.meta.files.length} ` +
          `files in ${Math.round(performance.now() - started)} ms`,
      );
      if (state.index !== idx) return; // rebuilt meanwhile
      // The written shard replaces the overlay: the lists go to disk, out of the heap.
      // A fresh build's records were written as they are (input.cols is their snapshot): the
      // shard takes them over instead of parsing copies of the same.
      const shard = StoredShard.open(
        `${s.folder}/${name}`,
        s.key,
        input.cols !== undefined ? input.meta : undefined,
      );
      this.#replaceOverlay(idx, base, shard);
    } finally {
      this.#persisting = false;
    }
  }

  /**
   * The index in use becomes `base` (if any) and the `written` shard, with the changes made
   * while it was written carried over as "scan" files (read again in the background).
   */
  #replaceOverlay(idx: LayeredIndex, base: StoredShard | null, written: StoredShard): void {
    const next = new LayeredIndex();
    if (base !== null) next.addLayer(base);
    next.addLayer(written);
    for (const rel of idx.changedSinceSnapshot) {
      const now = idx.get(rel);
      if (now === undefined) next.remove(rel);
      else {
        next.add({ ...now, seenAt: 0 }, null);
        this.#reread.add(rel);
      }
    }
    for (const old of idx.layers) if (old !== base) old.close();
    this.#state.useIndex(next);
    idx.overlay.release();
    this.#state.postStatus();
    if (this.#reread.size > 0) this.rereadLater();
  }
}

function stillThere(path: string): boolean {
  try {
    return Deno.lstatSync(path).isFile;
  } catch {
    return false;
  }
}
