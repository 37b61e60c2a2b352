/**
 * The stored start: the shards of the stored index are opened and checked, then one stat pass (a
 * walk with a stat per file, or with the stored folder table only the folders that changed) trusts
 * a stored file only when its device, inode, size, mtime and ctime are those stored and its mtime
 * is older than the moment it was read (racy timestamps count as changed); every other file is a
 * "scan" file (always searched) until read again in the background. Queries wait for the stat
 * pass, so the first answer is exact.
 *
 * The pass waits for the watcher (a change made during it is then an event), unless a query is
 * waiting already: then it runs at once, for that query, and once the watcher is up a second
 * pass confirms it for later queries.
 */
import { log } from "../../log.ts";
import { joinRoot } from "../../workspace/names.ts";
import { LayeredIndex } from "../live/layered_index.ts";
import type { FileRecord } from "../live/trigram_index.ts";
import type { StoredFile } from "../store/shard_format.ts";
import type { IndexStore } from "../store/index_store.ts";
import { decodeFolders, type FolderTable, RACY_MS } from "../store/folder_table.ts";
import type { IndexCache, IndexSettings } from "../protocol.ts";
import { parentOf, passFolders } from "./folder_pass.ts";
import type { Freshness } from "./freshness.ts";
import { PERSIST_IDLE_MS, type Persistence } from "./persistence.ts";
import { SLICE_MS, tick } from "./slices.ts";
import type { IndexState } from "./state.ts";
import type { Entry, Tree } from "./tree.ts";

/** What a stat pass compares of the files of folders it does not read again. */
interface PassLimits {
  /** Only these (the files a first pass compared before the watcher was up); else all. */
  recheck?: ReadonlySet<string>;
  /** Filled with the files compared while the watcher was not yet up. */
  beforeWatch?: Set<string>;
}

/** What a stat pass found: files changed or new, files gone, and how it went (for the log). */
interface PassResult {
  stale: number;
  gone: number;
  how: string;
  /** The folder table was used (not a walk of the whole tree). */
  fast: boolean;
}

interface PassCounts {
  stale: number;
  gone: number;
  checked: number;
}

type Compare = (e: Entry, known?: StoredFile | FileRecord) => void;

const GONE_INFO = { isFile: false, isSymlink: false } as Deno.FileInfo;

export class StoredStart {
  #state: IndexState;
  #tree: Tree;
  #freshness: Freshness;
  #persistence: Persistence;
  /** Resolves once a stored index was loaded and checked, or found absent. */
  #loaded: Promise<void> = Promise.resolve();
  /** Queries received so far; those after `passFrom` wait for `confirmed`. */
  #queriesIn = 0;
  #passFrom = Infinity;
  /** Resolves once the pass that ran before the watcher was up has been confirmed. */
  #confirmed: Promise<void> = Promise.resolve();
  #tellFirstQuery = () => {};
  #firstQuery = new Promise<void>((resolve) => this.#tellFirstQuery = resolve);

  constructor(state: IndexState, tree: Tree, freshness: Freshness, persistence: Persistence) {
    this.#state = state;
    this.#tree = tree;
    this.#freshness = freshness;
    this.#persistence = persistence;
  }

  /** Resolves once the stored index was loaded and checked, or found absent. */
  get loaded(): Promise<void> {
    return this.#loaded;
  }

  /**
   * Opens the root's stored index in the cache folder and runs the stat pass; the index in use
   * stays null when there is none (or it cannot be used).
   */
  async begin(cache: IndexCache, s: IndexSettings): Promise<void> {
    let resolve = () => {};
    this.#loaded = new Promise((r) => resolve = r);
    try {
      const store = await this.#persistence.open(cache, s);
      if (store !== null) await this.#load(store);
    } finally {
      resolve();
    }
  }

  /** A query arrived: it waits for the stat pass (and for its confirmation, when it came late). */
  async admit(): Promise<void> {
    const seq = ++this.#queriesIn;
    if (this.#state.phase === "checking") {
      log.debug("a query waits for the stat pass of the stored index");
      this.#state.repostChecked(); // its listener hears how far the pass is now
    }
    this.#tellFirstQuery();
    await this.#loaded;
    if (seq > this.#passFrom) await this.#confirmed;
  }

  /** Opens the stored index and runs the stat pass; leaves the index null when there is none. */
  async #load(store: IndexStore): Promise<void> {
    const state = this.#state;
    const started = performance.now();
    let shards;
    try {
      shards = store.load();
    } catch (error) {
      this.#persistence.noteBroken(error instanceof Error ? error.message : String(error));
      return;
    }
    if (shards === null) return;
    const gen = state.nextGeneration();
    const idx = new LayeredIndex();
    idx.addLayer(shards.base);
    if (shards.delta !== null) idx.addLayer(shards.delta);
    state.startChecking(idx.liveFiles);
    const opened = performance.now() - started;
    await Promise.race([this.#freshness.watching, this.#firstQuery]);
    if (this.#freshness.ended || !state.isCurrent(gen)) {
      idx.close();
      return;
    }
    const watchedBefore = this.#freshness.ready;
    this.#passFrom = this.#queriesIn;
    const newest = shards.delta ?? shards.base;
    const beforeWatch = new Set<string>();
    const done = await this.#statPass(
      gen,
      idx,
      decodeFolders(this.#tree.root, newest.folders),
      watchedBefore ? {} : { beforeWatch },
    );
    if (done === "stopped") {
      idx.close();
      this.#persistence.clearStale();
      return;
    }
    state.useIndex(idx);
    const took = performance.now() - started;
    state.setPhase("ready", "loaded from the cache");
    log.info(
      `Stored index loaded: ${idx.liveFiles} files, ${done.stale} changed or new and ${done.gone} ` +
        `gone since it was written (opened in ${Math.round(opened)} ms, stat pass ${
          Math.round(took)
        } ms: ${done.how})`,
    );
    // After a folder-table pass only what it compared before the watcher was up is compared
    // again.
    if (!watchedBefore) this.#confirmed = this.#confirmPass(gen, done.fast ? beforeWatch : null);
    else this.#passFrom = Infinity;
    if (this.#persistence.staleCount > 0) this.#persistence.rereadLater();
    else if (done.gone > 0) this.#persistence.schedule(PERSIST_IDLE_MS);
  }

  /**
   * The pass again, once the watcher watches the tree: what changed between the first pass's
   * look at a file and the watcher's start is seen now; what changes later is an event.
   */
  async #confirmPass(gen: number, recheck: ReadonlySet<string> | null): Promise<void> {
    const state = this.#state;
    const freshness = this.#freshness;
    await freshness.watching;
    // The queries the first pass answers go first.
    for (let i = 0; i < 4; i++) await tick();
    const idx = state.index;
    if (freshness.ended || !state.isCurrent(gen) || idx === null) return;
    const started = performance.now();
    freshness.hold();
    try {
      const done = await this.#statPass(
        gen,
        idx,
        this.#tree.table,
        recheck === null ? {} : { recheck },
      );
      if (done === "stopped") return;
      log.debug(
        `index confirmed once the watcher was up: ${done.stale} changed or new, ${done.gone} ` +
          `gone (${Math.round(performance.now() - started)} ms: ${done.how})`,
      );
    } finally {
      freshness.release();
      this.#passFrom = Infinity;
    }
    if (freshness.dirtyCount > 0) freshness.scheduleDirty();
    if (this.#persistence.staleCount > 0) this.#persistence.rereadLater();
  }

  /**
   * One stat pass of `idx` against the disk: with a folder table, only the folders that changed
   * are read again (folderPass); without one (or when it cannot be used), a walk of the tree.
   * Changed and new files become "scan" files (read again later), missing ones are removed.
   */
  async #statPass(
    gen: number,
    idx: LayeredIndex,
    table: FolderTable | null,
    only: PassLimits = {},
  ): Promise<PassResult | "stopped"> {
    const counts: PassCounts = { stale: 0, gone: 0, checked: 0 };
    const compare: Compare = (e, known) => {
      const stored = known ?? idx.get(e.rel);
      if (stored !== undefined && trusted(stored, e)) return;
      idx.add(e, null); // a "scan" file until read again
      this.#persistence.markStale(e.rel);
      counts.stale++;
    };
    const fast = table === null
      ? null
      : await this.#folderPass(gen, idx, table, { compare, counts, only });
    if (fast === "stopped") return "stopped";
    if (fast !== null) return { stale: counts.stale, gone: counts.gone, how: fast, fast: true };
    const seen = new Set<string>();
    const walked = await this.#tree.walkAll(gen, Infinity, {
      visit: (e) => {
        seen.add(e.rel);
        compare(e);
      },
    });
    if (walked === null || !this.#state.isCurrent(gen)) return "stopped";
    for (const r of idx.rels()) {
      if (!seen.has(r)) {
        idx.remove(r);
        counts.gone++;
      }
    }
    const how = table === null ? "a full walk (no folder table)" : "a full walk";
    return { stale: counts.stale, gone: counts.gone, how, fast: false };
  }

  /**
   * The stat pass with the stored folder table: the folders are decided first (folder_pass.ts),
   * then every stored file of a folder that was not read again is compared with the disk
   * (lstat); files of folders read again were compared as the walks saw them, the rest are gone.
   * Null when the table cannot be used (the caller walks everything); "stopped" when a newer
   * pass began.
   */
  async #folderPass(
    gen: number,
    idx: LayeredIndex,
    table: FolderTable,
    pass: { compare: Compare; counts: PassCounts; only: PassLimits },
  ): Promise<string | null | "stopped"> {
    const { compare, counts, only } = pass;
    const state = this.#state;
    const tree = this.#tree;
    const root = tree.root;
    const live = idx.liveRecords();
    // Every stored file must lie in a stored folder; otherwise the table is not the index's.
    for (const stored of live) if (!table.folders.has(parentOf(stored.rel))) return null;
    let last = performance.now();
    const pause = async (): Promise<boolean> => {
      if (performance.now() - last > SLICE_MS) {
        if (state.phase === "checking") state.postChecked(counts.checked);
        await tick();
        last = performance.now();
      }
      return state.isCurrent(gen);
    };
    const result = await passFolders({
      root,
      walk: (rel, oneLevel, into) => tree.quietWalk(rel, oneLevel ? { maxDepth: 1 } : {}, into),
      file: (e) => {
        counts.checked++;
        compare(tree.entryOf(e));
      },
      pause,
    }, table);
    if (!state.isCurrent(gen)) return "stopped";
    if (result === null) return null;
    const { trusted: sure, walked } = result;
    const early = only.beforeWatch;
    if (early !== undefined) { for (const rel of walked) early.add(rel); }
    for (let i = 0; i < live.length; i++) {
      const rel = live[i].rel;
      if (walked.has(rel)) continue;
      if (!sure.has(parentOf(rel))) {
        idx.remove(rel); // its folder was read again without it, or is gone
        counts.gone++;
        continue;
      }
      if (only.recheck !== undefined && !only.recheck.has(rel)) continue;
      if (early !== undefined && !this.#freshness.ready) early.add(rel);
      const stored = idx.get(rel);
      if (stored === undefined) continue; // removed meanwhile
      counts.checked++;
      if (!compareStat(idx, root, rel, stored, compare)) counts.gone++;
      if ((i & 511) === 0 && !(await pause())) return "stopped";
    }
    tree.setFolders(result.folders, table.above);
    return `${result.folders.size} folders, ${result.relisted} read again, ${result.rewalked} walked again`;
  }
}

/**
 * Compares the stored file `rel` with its lstat on disk: removed (false) when it is no longer a
 * plain file, else given to `compare`.
 */
function compareStat(
  idx: LayeredIndex,
  root: string,
  rel: string,
  stored: StoredFile | FileRecord,
  compare: Compare,
): boolean {
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(stored.real === "" ? joinRoot(root, rel) : stored.real);
  } catch {
    info = GONE_INFO;
  }
  if (!info.isFile || info.isSymlink) {
    idx.remove(rel);
    return false;
  }
  compare({
    rel,
    real: stored.real,
    size: info.size,
    mtimeMs: info.mtime?.getTime() ?? 0,
    dev: info.dev,
    ino: info.ino ?? 0,
    ctimeMs: info.ctime?.getTime() ?? 0,
  }, stored);
  return true;
}

/** A stored file is trusted only when nothing about it moved and its times are not racy. */
function trusted(stored: StoredFile | FileRecord, e: Entry): boolean {
  return stored.dev === e.dev && stored.ino === e.ino && stored.size === e.size &&
    stored.mtimeMs === e.mtimeMs && stored.ctimeMs === e.ctimeMs && stored.real === e.real &&
    e.mtimeMs + RACY_MS < stored.seenAt && (e.ctimeMs ?? 0) + RACY_MS < stored.seenAt;
}
