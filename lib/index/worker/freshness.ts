/**
 * Freshness and watching: Deno.watchFs events (from the watch worker, watch_worker.ts) are
 * queued as dirty paths; before a query is answered every dirty path is re-walked and its files
 * re-indexed. Events are a hint, not the truth: before answering, every folder in the query's
 * scope whose mtime moved since it was last listed (or was listed too soon after its last change
 * to tell) is listed again. A watcher error or overflow ("rescan") or a changed ignore file makes
 * every query a full scan until a stat pass over the whole tree has caught up.
 */
import { joinRoot, relativeUnder } from "../../workspace/names.ts";
import { isUnder } from "../../search/scope.ts";
import type { LayeredIndex } from "../live/layered_index.ts";
import { SCAN } from "../live/trigram_index.ts";
import type { FolderRecord } from "../store/folder_table.ts";
import type { FromWatcher, ToWatcher } from "../watch_worker.ts";
import type { Persistence } from "./persistence.ts";
import { SLICE_MS } from "./slices.ts";
import type { IndexState } from "./state.ts";
import type { Entry, Tree } from "./tree.ts";

/** Dirty paths re-walked while a query waits; more make that query a full scan. */
export const MAX_SYNC_DIRTY = 2000;
const RULE_FILES = new Set([".gitignore", ".ignore", ".rgignore", ".git"]);
/** A folder listed less than this after its last change is listed again before a query. */
const RACY_DIR_MS = 50;

export class Freshness {
  #state: IndexState;
  #tree: Tree;
  #persistence: Persistence;
  /** Builds the index again (it is worn out: mostly superseded). */
  #rebuild: () => void;
  /** Paths (absolute) reported changed and not yet re-walked. */
  #dirty = new Set<string>();
  #dirtyTimer: ReturnType<typeof setTimeout> | null = null;
  /** Tests: watcher events are dropped (as if lost). */
  #deaf = false;
  /** A confirming pass runs: watcher events wait (they are applied after it). */
  #held = false;
  /** The watch worker (watch_worker.ts); null once it ended. */
  #watcher: MessagePort | null = null;
  /** Ends the wait for the watcher (its failure can reach us from the main thread). */
  #settled: () => void = () => {};
  /** Resolves once every folder is watched, or the watcher could not start (then `ended`). */
  #watching: Promise<void> = Promise.resolve();
  #ended = false;
  #ready = false;

  constructor(state: IndexState, tree: Tree, persistence: Persistence, rebuild: () => void) {
    this.#state = state;
    this.#tree = tree;
    this.#persistence = persistence;
    this.#rebuild = rebuild;
  }

  /** Resolves once the watcher watches the whole tree, or ended. */
  get watching(): Promise<void> {
    return this.#watching;
  }

  /** The watcher ended (or never started): nothing is seen. */
  get ended(): boolean {
    return this.#ended;
  }

  /** The watcher watches the whole tree. */
  get ready(): boolean {
    return this.#ready;
  }

  /**
   * Starts the watcher on its own thread (adding a watch to every folder of a large tree takes a
   * while, and the stored index's shards load meanwhile) through the port the main thread gave
   * us; `watching` resolves once every folder is watched: a change made after that is an event.
   * A walk trusted for later queries starts only then.
   */
  start(port: MessagePort | null): void {
    this.#watching = this.#watch(port);
  }

  #watch(port: MessagePort | null): Promise<void> {
    if (port === null) {
      this.stop("no file watcher was started");
      return Promise.resolve();
    }
    this.#watcher = port;
    return new Promise((resolve) => {
      this.#settled = resolve;
      port.onmessage = (event: MessageEvent<FromWatcher>) => {
        const m = event.data;
        if (m.t === "ready") {
          this.#ready = true;
          resolve();
        } else if (m.t === "events") {
          for (const e of m.events) this.#onEvent(e as Deno.FsEvent);
          if (this.#dirty.size > 0 && this.#dirtyTimer === null) this.scheduleDirty();
        } else {
          this.stop(m.why);
          resolve();
        }
      };
      port.postMessage({ t: "watch", root: this.#tree.root } satisfies ToWatcher);
    });
  }

  /** The watcher ended: nothing is seen any more, so the index can no longer be trusted. */
  stop(why: string): void {
    this.#watcher?.postMessage({ t: "stop" } satisfies ToWatcher);
    this.#watcher?.close();
    this.#watcher = null;
    this.#settled();
    this.#ended = true;
    const state = this.#state;
    state.distrust();
    state.nextGeneration(); // a pass or build under way gives up
    state.dropIndex();
    state.setPhase("off", why);
  }

  /** Tests: watcher events are dropped from now on. */
  deafen(): void {
    this.#deaf = true;
  }

  /** Watcher events wait until `release` (a confirming pass runs). */
  hold(): void {
    this.#held = true;
  }

  release(): void {
    this.#held = false;
  }

  get held(): boolean {
    return this.#held;
  }

  /** A build or a stat pass walks everything: the dirty paths are covered. */
  forgetDirty(): void {
    this.#dirty.clear();
  }

  get dirtyCount(): number {
    return this.#dirty.size;
  }

  #onEvent(event: Deno.FsEvent): void {
    if (this.#deaf || !this.#tree.opened) return;
    if (event.flag === "rescan") {
      this.distrust(); // the file watcher overflowed
      return;
    }
    for (const path of event.paths) this.#noteChanged(path);
  }

  /** Paths (absolute or root-relative) the server itself changed: applied at once if it can. */
  touch(paths: string[]): void {
    const tree = this.#tree;
    if (!tree.opened) return;
    for (const p of paths) this.#noteChanged(p.startsWith("/") ? p : joinRoot(tree.root, p));
    const state = this.#state;
    if (state.index !== null && state.phase === "ready" && !state.untrusted && !this.#held) {
      this.applyDirty(Infinity);
    }
  }

  /** Queues a changed path (absolute) for re-walking; an ignore file means a stat pass. */
  #noteChanged(path: string): void {
    const rel = relativeUnder(path, this.#tree.root);
    if (rel === null) return;
    const segments = rel.split("/");
    const name = segments[segments.length - 1];
    if (RULE_FILES.has(name) || rel.endsWith(".git/info/exclude")) {
      this.distrust(); // ignore rules changed
      return;
    }
    if (segments.includes(".git")) return;
    this.#dirty.add(path);
  }

  /** The tree may have changed unseen: full scans until a stat pass over it has caught up. */
  distrust(): void {
    const state = this.#state;
    state.distrust();
    if (state.phase === "ready" || state.phase === "catching-up") {
      this.catchUp().catch((error) => state.fail(error));
    }
  }

  /** Re-indexes dirty paths in the background (500 at a time), so a query finds few left. */
  scheduleDirty(): void {
    if (this.#dirtyTimer !== null) return;
    this.#dirtyTimer = setTimeout(() => {
      this.#dirtyTimer = null;
      const state = this.#state;
      if (state.phase !== "ready" || state.untrusted || state.index === null || this.#held) {
        return;
      }
      if (this.#dirty.size > MAX_SYNC_DIRTY * 10) {
        this.distrust(); // too many changes at once
        return;
      }
      const batch: string[] = [];
      for (const p of this.#dirty) {
        batch.push(p);
        if (batch.length >= 500) break;
      }
      for (const p of batch) this.#dirty.delete(p);
      this.#applyPaths(batch);
      if (this.#dirty.size > 0) this.scheduleDirty();
    }, 20);
  }

  /** Re-walks every dirty path (up to `max`); false when more remain. */
  applyDirty(max: number): boolean {
    if (this.#state.index === null || this.#dirty.size === 0) return true;
    if (this.#dirty.size > max) return false;
    const paths = [...this.#dirty];
    this.#dirty.clear();
    this.#applyPaths(paths);
    return true;
  }

  #applyPaths(paths: string[]): void {
    const rels = new Set<string>();
    for (const path of paths) for (const r of this.#tree.relsOf(path)) rels.add(r);
    // A folder and something below it: the folder's walk covers both.
    const sorted = [...rels].sort((a, b) => a.length - b.length);
    const done: string[] = [];
    for (const r of sorted) {
      if (done.some((d) => isUnder(r, d))) continue;
      this.#refresh(r);
      done.push(r);
    }
    this.#maybeRebuild();
  }

  /**
   * The watcher-race guard: every folder in scope whose mtime moved since it was listed (or that
   * was listed within RACY_DIR_MS of its last change) is listed again before the query is
   * answered.
   */
  checkFolders(base: string): void {
    const dirs = this.#tree.dirs;
    const stale: string[] = [];
    for (const [rel, d] of dirs) {
      if (!isUnder(rel, base) && !isUnder(base, rel)) continue;
      let mtimeMs: number;
      try {
        mtimeMs = Deno.statSync(d.real).mtime?.getTime() ?? -1;
      } catch {
        mtimeMs = -1;
      }
      if (mtimeMs !== d.mtimeMs || d.listedAt - d.mtimeMs <= RACY_DIR_MS) stale.push(rel);
    }
    stale.sort((a, b) => a.length - b.length);
    for (const rel of stale) if (this.#tree.dirs.has(rel)) this.#relist(rel);
    if (stale.length > 0) this.#maybeRebuild();
  }

  #maybeRebuild(): void {
    const idx = this.#state.index;
    if (idx === null || this.#state.phase !== "ready") return;
    if (idx.wornOut) this.#rebuild();
  }

  /** Re-walks the subtree at `rel` and re-indexes what changed in it. */
  #refresh(rel: string): void {
    const idx = this.#state.index!;
    const tree = this.#tree;
    const seen = new Set<string>();
    const wasFile = idx.get(rel) !== undefined;
    let walked = false;
    const folders = new Map<string, FolderRecord>();
    try {
      for (const e of tree.recordedWalk(rel, {}, folders)) {
        if (e.isDir) continue;
        seen.add(e.rel);
        const entry = tree.entryOf(e);
        // The changed file itself is always re-read: a write may keep its size and mtime (ms).
        if (e.rel === rel) tree.indexFile(idx, entry);
        else this.#upsert(idx, entry);
      }
      walked = true;
    } catch {
      // missing, refused or not servable any more: nothing below it is served
    }
    const isFile = seen.has(rel);
    if (!isFile && wasFile) idx.remove(rel);
    // Files indexed below `rel` that the walk did not see are gone (a folder deleted, renamed
    // away, replaced by a file, or no longer served).
    const dirs = tree.dirs;
    if (dirs.has(rel) || (!walked && !wasFile)) {
      for (const r of idx.rels()) {
        if (r.length > rel.length && isUnder(r, rel) && !seen.has(r)) idx.remove(r);
      }
    }
    // The folders below `rel` are those the walk recorded now.
    for (const d of [...dirs.keys()]) if (isUnder(d, rel) && !folders.has(d)) dirs.delete(d);
    for (const [d, record] of folders) dirs.set(d, record);
  }

  /**
   * Lists the folder `rel` again (one level): new and changed files are indexed, missing ones
   * dropped, new subfolders walked whole. For a folder whose mtime moved without an event.
   */
  #relist(rel: string): void {
    const idx = this.#state.index!;
    const tree = this.#tree;
    const seen = new Set<string>();
    const newDirs: string[] = [];
    const listed = new Map<string, FolderRecord>();
    try {
      for (const e of tree.recordedWalk(rel, { maxDepth: 1 }, listed)) {
        if (e.isDir) {
          seen.add(e.rel);
          if (!tree.dirs.has(e.rel)) newDirs.push(e.rel);
          continue;
        }
        seen.add(e.rel);
        this.#upsert(idx, tree.entryOf(e));
      }
    } catch {
      this.#refresh(rel); // the folder itself went: its subtree is dropped
      return;
    }
    const dirs = tree.dirs;
    const now = listed.get(rel);
    const before = dirs.get(rel);
    if (now === undefined || before === undefined || now.rules !== before.rules) {
      this.#refresh(rel); // unreadable, new, or its ignore files came or went: walked whole
      return;
    }
    dirs.set(rel, now);
    const depth = rel === "" ? 1 : rel.split("/").length + 1;
    for (const r of idx.rels()) {
      if (isUnder(r, rel) && r.split("/").length === depth && !seen.has(r)) idx.remove(r);
    }
    for (const d of [...dirs.keys()]) {
      if (d !== rel && isUnder(d, rel) && d.split("/").length === depth && !seen.has(d)) {
        this.#refresh(d); // gone (or no longer a folder): drops what was below it
      }
    }
    for (const d of newDirs) this.#refresh(d);
  }

  /** Indexes `e` again unless its record is unchanged. */
  #upsert(idx: LayeredIndex, e: Entry): void {
    const old = idx.get(e.rel);
    if (
      old !== undefined && old.state !== SCAN && old.size === e.size &&
      old.mtimeMs === e.mtimeMs && old.real === e.real
    ) return;
    this.#tree.indexFile(idx, e);
  }

  /** A stat pass: re-walks the whole tree, re-indexing what changed; then the index is trusted. */
  async catchUp(): Promise<void> {
    const state = this.#state;
    const gen = state.nextGeneration();
    state.setPhase("catching-up");
    this.#tree.open(state.settings.ws); // ignore rules may have changed
    this.#dirty.clear();
    state.trust();
    const entries = await this.#tree.walkAll(gen, Infinity, { giveWay: true });
    if (entries === null || !state.isCurrent(gen) || state.index === null) return;
    const idx = state.index;
    const seen = new Set<string>();
    let last = performance.now();
    for (const e of entries) {
      seen.add(e.rel);
      this.#upsert(idx, e);
      if (performance.now() - last > SLICE_MS) {
        await state.giveWay.turn();
        if (!state.isCurrent(gen)) return;
        last = performance.now();
      }
    }
    for (const r of idx.rels()) if (!seen.has(r)) idx.remove(r);
    if (state.untrusted) {
      // Another overflow meanwhile: go again.
      this.catchUp().catch((error) => state.fail(error));
      return;
    }
    state.setPhase("ready");
    this.#maybeRebuild();
    if (this.#persistence.staleCount > 0) this.#persistence.rereadLater();
  }
}
