/**
 * The index worker: builds the trigram index of the workspace off the main thread (in time
 * slices, so queries and watcher events are answered while it builds), keeps it fresh, stores it
 * in the cache folder and answers candidate queries. It serves exactly the files the walk
 * serves: it walks with the same Workspace, and every change is re-walked from the changed path.
 *
 * Start with a stored index: the shards are opened and checked, then one stat pass (a walk with
 * a stat per file) trusts a stored file only when its device, inode, size, mtime and ctime are
 * those stored and its mtime is older than the moment it was read (racy timestamps count as
 * changed); every other file is a "scan" file (always searched) until re-read in the background.
 * Queries wait for the stat pass, so the first answer is exact.
 *
 * Freshness: Deno.watchFs events are queued as dirty paths; before a query is answered every
 * dirty path is re-walked and its files re-indexed. Events are a hint, not the truth: before
 * answering, every folder in the query's scope whose mtime moved since it was last listed (or
 * was listed too soon after its last change to tell) is listed again. A watcher error or
 * overflow ("rescan") or a changed ignore file makes every query a full scan until a stat pass
 * over the whole tree has caught up.
 *
 * Persistence: the first build is written as the base shard as soon as it is done; later
 * changes are written as one delta shard once they settle; when the shards are mostly superseded
 * the index is rebuilt (and written as a new base). Only while this process holds the root's
 * lock; otherwise it keeps its changes in memory.
 */
/// <reference lib="deno.worker" />
import { Workspace } from "../../workspace/workspace.ts";
import { joinRoot, relativeUnder } from "../../workspace/names.ts";
import { isUnder, scopeFilter } from "../../search/scope.ts";
import { log, setLogLevel } from "../../log.ts";
import { freeNow } from "../../free_buffer.ts";
import { planQuery } from "../query/planner.ts";
import { LayeredIndex } from "../live/layered_index.ts";
import { IndexStore, rootKey } from "../store/index_store.ts";
import { StoredShard } from "../store/stored_shard.ts";
import { type FileEntry, SCAN } from "../live/trigram_index.ts";
import { nameHash } from "../lists/name_hashes.ts";
import type { StoredFile } from "../store/shard_format.ts";
import type { FileRecord } from "../live/trigram_index.ts";
import type { ListedFolder, WalkEntry, WalkOptions } from "../../workspace/walk.ts";
import {
  aboveRootRules,
  decodeFolders,
  encodeFolders,
  type FolderRecord,
  type FolderTable,
  RACY_MS,
  recordOf,
} from "../store/folder_table.ts";
import { parentOf, passFolders } from "./folder_pass.ts";
import type { FromWatcher, ToWatcher } from "../watch_worker.ts";
import type {
  FromIndex,
  IndexCache,
  IndexPhase,
  IndexQuery,
  IndexSettings,
  ToIndex,
} from "../protocol.ts";

/** Work done between two looks at the message queue, in ms. */
const SLICE_MS = 25;
/** Dirty paths re-walked while a query waits; more make that query a full scan. */
const MAX_SYNC_DIRTY = 2000;
/** Candidate files above this share of the indexed files: the full scan is as good. */
const TOO_MANY = 0.9;
/** Estimated index bytes per text byte and per file (measured on the kernel: ~11%). */
const BYTES_PER_TEXT_BYTE = 0.13;
const BYTES_PER_FILE = 300;
const FIXED_BYTES = 8 * 1024 * 1024;
const RULE_FILES = new Set([".gitignore", ".ignore", ".rgignore", ".git"]);
/** A folder listed less than this after its last change is listed again before a query. */
const RACY_DIR_MS = 50;
/** Changes are written to the cache once none came for this long. */
const PERSIST_IDLE_MS = 3000;
/** ... or at the latest this long after the first unwritten change. */
const PERSIST_MAX_DELAY_MS = 30_000;

interface Entry extends FileEntry {
  rel: string;
  real: string;
  size: number;
  mtimeMs: number;
}

let settings: IndexSettings | null = null;
let ws: Workspace | null = null;
let index: LayeredIndex | null = null;
let phase: IndexPhase = "idle";
let note = "";
let leftOut = 0;
/** Build generation: a newer build (or a stop) makes an older one give up. */
let generation = 0;
/** Paths (absolute) reported changed and not yet re-walked. */
const dirty = new Set<string>();
/** The tree may have changed unseen: full scans until a stat pass catches up. */
let untrusted = false;
let deaf = false;
/** A grep asked for the index (a large tree builds only then). */
let buildWanted = false;
/** The watch worker (watch_worker.ts); null once it ended. */
let watcher: MessagePort | null = null;
/** Ends the wait for the watcher (its failure can reach us from the main thread). */
let watchSettled: () => void = () => {};
/** Resolves once every folder is watched, or the watcher could not start (then `watchEnded`). */
let watching: Promise<void> = Promise.resolve();
let watchEnded = false;
let watchReady = false;
/** Folders reached through an inside symlink: [named rel, real rel]. */
let aliases: [string, string][] = [];
/**
 * Folders of the tree (a change at one re-walks its subtree), with their last listing: the
 * folder table stored with the index (folder_table.ts).
 */
let dirs = new Map<string, FolderRecord>();
/** The state of the ignore files above the root when the root was last walked. */
let above = "!";
/** Files up to 4 MiB are read into this one buffer; larger ones get their own. */
const scratch = new Uint8Array(4 * 1024 * 1024);
/** The stored index, when the session has a cache folder. */
let store: IndexStore | null = null;
/** The stored index could not be used: the folder is emptied once this process holds the lock. */
let brokenStore = false;
/** Resolves once a stored index was loaded and checked, or found absent. */
let loaded: Promise<void> = Promise.resolve();
/** Paths to read again in the background (stale after the stat pass, or changed in a persist). */
const reread = new Set<string>();
let persisting = false;
let persistTimer: ReturnType<typeof setTimeout> | null = null;
let firstUnwritten = 0;
let persistedCount = 0;
/** Files of the stored index being checked by the stat pass, and how many are checked so far. */
let checkingTotal = 0;
let checkedSoFar = 0;

/** Tells the queries waiting on the stat pass how far it is (the main thread passes it on). */
function postChecked(checked: number): void {
  checkedSoFar = checked;
  post({ t: "state", status: { ...status(), files: checkingTotal, checked } });
}

function post(message: FromIndex): void {
  self.postMessage(message);
}

function status() {
  return {
    phase,
    files: index?.liveFiles ?? 0,
    textBytes: index?.textBytes ?? 0,
    bytes: index?.bytes ?? 0,
    leftOut,
    note,
    diskBytes: index?.diskBytes ?? 0,
    persisted: persistedCount,
  };
}

function setPhase(next: IndexPhase, why = ""): void {
  phase = next;
  note = why;
  post({ t: "state", status: status() });
}

function tick(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

function realOf(rel: string, abs: string): string {
  return ws !== null && abs === joinRoot(ws.root, rel) ? "" : abs;
}

function entryOf(e: {
  rel: string;
  abs: string;
  size: number;
  mtimeMs: number;
  dev?: number;
  ino?: number;
  ctimeMs?: number;
}): Entry {
  return {
    rel: e.rel,
    real: realOf(e.rel, e.abs),
    size: e.size,
    mtimeMs: e.mtimeMs,
    dev: e.dev ?? 0,
    ino: e.ino ?? 0,
    ctimeMs: e.ctimeMs ?? 0,
  };
}

/** Reads and (re-)indexes one file; a large file's buffer is freed at once, not by the GC. */
function indexFile(idx: LayeredIndex, e: Entry, skip = false): void {
  const seenAt = Date.now();
  const bytes = skip ? null : ws!.readWalkedSync(joinRootOr(e), scratch);
  idx.add({ ...e, seenAt }, bytes);
  if (bytes !== null && bytes.buffer !== scratch.buffer) freeNow(bytes);
  noteUnwritten();
}

/**
 * Walks the whole tree with stats; yields to the event loop between slices. With `visit`, each
 * file goes to it and the answer is empty (the stat pass holds no list of the tree).
 */
async function walkAll(
  gen: number,
  limit: number,
  visit?: (e: Entry) => void,
): Promise<Entry[] | null> {
  const entries: Entry[] = [];
  let files = 0;
  const newDirs = new Map<string, FolderRecord>();
  let last = performance.now();
  for (const e of recordedWalk("", {}, newDirs)) {
    if (e.isDir) continue;
    if (visit === undefined) entries.push(entryOf(e));
    else visit(entryOf(e));
    if (++files > limit) return null;
    if ((files & 127) === 0 && performance.now() - last > SLICE_MS) {
      if (phase === "checking") {
        postChecked(files);
      }
      await tick();
      if (gen !== generation) return null;
      last = performance.now();
    }
  }
  setFolders(newDirs, aboveRootRules(ws!.root, newDirs.get("")?.listedAt ?? 0));
  return entries;
}

/** The folder table is now `folders`: the aliases (folders reached through a link) follow it. */
function setFolders(folders: Map<string, FolderRecord>, aboveRoot: string): void {
  dirs = folders;
  above = aboveRoot;
  const next: [string, string][] = [];
  for (const [rel, r] of folders) {
    const realRel = relativeUnder(r.real, ws!.root);
    if (realRel !== null && realRel !== rel) next.push([rel, realRel]);
  }
  aliases = next;
}

/**
 * A walk of `rel` with stats and folders, recording in `into` every folder it reads (with its
 * listing: folder_table.ts) and every folder it only sees (unreadable: recorded as not listed,
 * so that the next start walks it again); with `maxDepth` the subfolders are not recorded.
 */
function* recordedWalk(
  rel: string,
  options: WalkOptions,
  into: Map<string, FolderRecord>,
): Generator<WalkEntry> {
  const listed = new Set<string>();
  const onFolder = (f: ListedFolder) => {
    const record = recordOf(f.real, f.readAt, f.entries);
    if (record === null) return;
    into.set(f.rel, record);
    listed.add(f.rel);
  };
  const seenAt = Date.now();
  for (const e of ws!.walk(rel, { ...options, stat: true, dirs: true, onFolder })) {
    if (e.isDir && options.maxDepth === undefined && !listed.has(e.rel)) {
      into.set(e.rel, unlistedRecord(e.abs, seenAt));
    }
    yield e;
  }
  if (!listed.has(rel) && options.maxDepth === undefined) {
    let real: string | null = null;
    try {
      real = Deno.realPathSync(joinRoot(ws!.root, rel));
    } catch {
      // gone
    }
    const record = real === null ? null : recordOf(real, seenAt, null);
    if (record !== null) into.set(rel, record);
  }
}

function unlistedRecord(real: string, seenAt: number): FolderRecord {
  return recordOf(real, seenAt, null) ??
    {
      real,
      dev: 0,
      ino: 0,
      mtimeMs: -1,
      ctimeMs: -1,
      listedAt: seenAt,
      listed: false,
      links: "",
      rules: "",
    };
}

/** Estimated index bytes for these files. */
function estimate(bytes: number, files: number): number {
  return FIXED_BYTES + bytes * BYTES_PER_TEXT_BYTE + files * BYTES_PER_FILE;
}

async function build(): Promise<void> {
  await watching;
  if (watchEnded) return;
  const gen = ++generation;
  const s = settings!;
  setPhase("building");
  ws = Workspace.openSync(s.ws);
  dirty.clear();
  reread.clear();
  untrusted = false;
  const entries = await walkAll(gen, Infinity);
  if (entries === null || gen !== generation) return;
  // The memory cap: leave the largest files out (always scanned) until the estimate fits.
  let total = 0;
  for (const e of entries) total += e.size;
  const skip = new Set<Entry>();
  if (estimate(total, entries.length) > s.maxBytes) {
    const bySize = [...entries].sort((a, b) => b.size - a.size);
    for (const e of bySize) {
      if (estimate(total, entries.length) <= s.maxBytes) break;
      skip.add(e);
      total -= e.size;
    }
    if (skip.size > entries.length / 10) {
      index?.close();
      index = null;
      setPhase("off", `the index would need more than --index-max-mib (${mib(s.maxBytes)} MiB)`);
      return;
    }
  }
  const next = new LayeredIndex();
  const started = performance.now();
  let last = performance.now();
  leftOut = 0;
  // Each entry is let go once indexed (popped from the reversed list, so the walk's order holds):
  // the walk's entries for the whole tree (about 11 MiB on the kernel) are not held to the end.
  entries.reverse();
  while (entries.length > 0) {
    const e = entries.pop()!;
    const over = skip.has(e) || next.bytes > s.maxBytes;
    if (over) leftOut++;
    indexFile(next, e, over);
    if (performance.now() - last > SLICE_MS) {
      await tick();
      if (gen !== generation) return;
      last = performance.now();
    }
  }
  next.overlay.ordered = next.overlay.files.length;
  next.overlay.compact();
  index?.close();
  index = next;
  setPhase(
    "ready",
    `read and indexed in ${((performance.now() - started) / 1000).toFixed(1)} s, ${
      mib(next.textBytes)
    } MiB of text, ${next.overlay.postings.trigrams} trigrams`,
  );
  if (untrusted) catchUp().catch(fail);
  else if (store !== null) schedulePersist(0);
}

function joinRootOr(e: Entry): string {
  return e.real === "" ? joinRoot(ws!.root, e.rel) : e.real;
}

function mib(bytes: number): number {
  return Math.round(bytes / (1024 * 1024));
}

/** Root-relative paths that an event at `path` (absolute) may change, aliases included. */
function relsOf(path: string): string[] {
  const root = ws!.root;
  const rel = relativeUnder(path, root);
  if (rel === null) return [];
  const out = [rel];
  for (const [named, real] of aliases) {
    if (isUnder(rel, real)) out.push(named + rel.slice(real.length));
  }
  return out;
}

/** Re-walks the subtree at `rel` and re-indexes what changed in it. */
function refresh(rel: string): void {
  const idx = index!;
  const seen = new Set<string>();
  const wasFile = idx.get(rel) !== undefined;
  let walked = false;
  const folders = new Map<string, FolderRecord>();
  try {
    for (const e of recordedWalk(rel, {}, folders)) {
      if (e.isDir) continue;
      seen.add(e.rel);
      const entry = entryOf(e);
      // The changed file itself is always re-read: a write may keep its size and mtime (ms).
      if (e.rel === rel) indexFile(idx, entry);
      else upsert(idx, entry);
    }
    walked = true;
  } catch {
    // missing, refused or not servable any more: nothing below it is served
  }
  const isFile = seen.has(rel);
  if (!isFile && wasFile) idx.remove(rel);
  // Files indexed below `rel` that the walk did not see are gone (a folder deleted, renamed away,
  // replaced by a file, or no longer served).
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
function relist(rel: string): void {
  const idx = index!;
  const seen = new Set<string>();
  const newDirs: string[] = [];
  const listed = new Map<string, FolderRecord>();
  try {
    for (const e of recordedWalk(rel, { maxDepth: 1 }, listed)) {
      if (e.isDir) {
        seen.add(e.rel);
        if (!dirs.has(e.rel)) newDirs.push(e.rel);
        continue;
      }
      seen.add(e.rel);
      upsert(idx, entryOf(e));
    }
  } catch {
    refresh(rel); // the folder itself went: its subtree is dropped
    return;
  }
  const now = listed.get(rel);
  const before = dirs.get(rel);
  if (now === undefined || before === undefined || now.rules !== before.rules) {
    refresh(rel); // unreadable, new, or its ignore files came or went: walked whole
    return;
  }
  dirs.set(rel, now);
  const depth = rel === "" ? 1 : rel.split("/").length + 1;
  for (const r of idx.rels()) {
    if (isUnder(r, rel) && r.split("/").length === depth && !seen.has(r)) idx.remove(r);
  }
  for (const d of [...dirs.keys()]) {
    if (d !== rel && isUnder(d, rel) && d.split("/").length === depth && !seen.has(d)) {
      refresh(d); // gone (or no longer a folder): drops what was below it
    }
  }
  for (const d of newDirs) refresh(d);
}

function upsert(idx: LayeredIndex, e: Entry): void {
  const old = idx.get(e.rel);
  if (
    old !== undefined && old.state !== SCAN && old.size === e.size &&
    old.mtimeMs === e.mtimeMs && old.real === e.real
  ) return;
  indexFile(idx, e);
}

/** Re-walks every dirty path (up to `max`); false when more remain. */
function applyDirty(max: number): boolean {
  if (index === null || dirty.size === 0) return true;
  if (dirty.size > max) return false;
  const paths = [...dirty];
  dirty.clear();
  applyPaths(paths);
  return true;
}

function applyPaths(paths: string[]): void {
  const rels = new Set<string>();
  for (const path of paths) for (const r of relsOf(path)) rels.add(r);
  // A folder and something below it: the folder's walk covers both.
  const sorted = [...rels].sort((a, b) => a.length - b.length);
  const done: string[] = [];
  for (const r of sorted) {
    if (done.some((d) => isUnder(r, d))) continue;
    refresh(r);
    done.push(r);
  }
  maybeRebuild();
}

/**
 * The watcher-race guard: every folder in scope whose mtime moved since it was listed (or that
 * was listed within RACY_DIR_MS of its last change) is listed again before the query is answered.
 */
function checkFolders(base: string): void {
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
  for (const rel of stale) if (dirs.has(rel)) relist(rel);
  if (stale.length > 0) maybeRebuild();
}

function maybeRebuild(): void {
  const idx = index;
  if (idx === null || phase !== "ready") return;
  if (idx.wornOut) build().catch(fail);
}

/** A stat pass: re-walks the whole tree, re-indexing what changed; then the index is trusted. */
async function catchUp(): Promise<void> {
  const gen = ++generation;
  setPhase("catching-up");
  ws = Workspace.openSync(settings!.ws); // ignore rules may have changed
  dirty.clear();
  untrusted = false;
  const entries = await walkAll(gen, Infinity);
  if (entries === null || gen !== generation || index === null) return;
  const idx = index;
  const seen = new Set<string>();
  let last = performance.now();
  for (const e of entries) {
    seen.add(e.rel);
    upsert(idx, e);
    if (performance.now() - last > SLICE_MS) {
      await tick();
      if (gen !== generation) return;
      last = performance.now();
    }
  }
  for (const r of idx.rels()) if (!seen.has(r)) idx.remove(r);
  if (untrusted) {
    // Another overflow meanwhile: go again.
    catchUp().catch(fail);
    return;
  }
  setPhase("ready");
  maybeRebuild();
  if (reread.size > 0) rereadLater();
}

function distrust(why: string): void {
  untrusted = true;
  if (phase === "ready" || phase === "catching-up") {
    note = why;
    catchUp().catch(fail);
  }
}

function onEvent(event: Deno.FsEvent): void {
  if (deaf || ws === null) return;
  if (event.flag === "rescan") {
    distrust("the file watcher overflowed");
    return;
  }
  for (const path of event.paths) noteChanged(path);
}

/** Queues a changed path (absolute) for re-walking; an ignore file means a stat pass. */
function noteChanged(path: string): void {
  const rel = relativeUnder(path, ws!.root);
  if (rel === null) return;
  const segments = rel.split("/");
  const name = segments[segments.length - 1];
  if (RULE_FILES.has(name) || rel.endsWith(".git/info/exclude")) {
    distrust("ignore rules changed");
    return;
  }
  if (segments.includes(".git")) return;
  dirty.add(path);
}

let dirtyTimer: ReturnType<typeof setTimeout> | null = null;

/** Re-indexes dirty paths in the background (500 at a time), so a query finds few left. */
function scheduleDirty(): void {
  if (dirtyTimer !== null) return;
  dirtyTimer = setTimeout(() => {
    dirtyTimer = null;
    if (phase !== "ready" || untrusted || index === null || confirming) return;
    if (dirty.size > MAX_SYNC_DIRTY * 10) {
      distrust("too many changes at once");
      return;
    }
    const batch: string[] = [];
    for (const p of dirty) {
      batch.push(p);
      if (batch.length >= 500) break;
    }
    for (const p of batch) dirty.delete(p);
    applyPaths(batch);
    if (dirty.size > 0) scheduleDirty();
  }, 20);
}

/**
 * Starts the watcher on its own thread (adding a watch to every folder of a large tree takes a
 * while, and the stored index's shards load meanwhile) through the port the main thread gave us;
 * resolves once every folder is watched: a change made after that is an event. A walk trusted
 * for later queries starts only then.
 */
function watch(port: MessagePort | null): Promise<void> {
  if (port === null) {
    stopWatching("no file watcher was started");
    return Promise.resolve();
  }
  watcher = port;
  return new Promise((resolve) => {
    watchSettled = resolve;
    port.onmessage = (event: MessageEvent<FromWatcher>) => {
      const m = event.data;
      if (m.t === "ready") {
        watchReady = true;
        resolve();
      } else if (m.t === "events") {
        for (const e of m.events) onEvent(e as Deno.FsEvent);
        if (dirty.size > 0 && dirtyTimer === null) scheduleDirty();
      } else {
        stopWatching(m.why);
        resolve();
      }
    };
    port.postMessage({ t: "watch", root: ws!.root } satisfies ToWatcher);
  });
}

/** The watcher ended: nothing is seen any more, so the index can no longer be trusted. */
function stopWatching(why: string): void {
  watcher?.postMessage({ t: "stop" } satisfies ToWatcher);
  watcher?.close();
  watcher = null;
  watchSettled();
  watchEnded = true;
  untrusted = true;
  ++generation; // a pass or build under way gives up
  index?.close();
  index = null;
  setPhase("off", why);
}

function answer(id: number, q: IndexQuery): void {
  const none = (why: string) => post({ t: "answer", id, candidates: null, why });
  if (index === null || phase !== "ready") return none(`index ${phase}`);
  if (untrusted) return none("index catching up");
  if (!applyDirty(MAX_SYNC_DIRTY)) {
    scheduleDirty();
    return none("too many changed files");
  }
  checkFolders(q.base);
  if (index === null || phase !== "ready") return none(`index ${phase}`);
  const query = planQuery(q.source, q.flags);
  if (query.op === "all") return none("no usable trigram");
  const inScope = scopeFilter(q.base, q.globs, q.typeGlobs);
  const keep = (rel: string) => isUnder(rel, q.base) && inScope(rel);
  let candidates;
  try {
    const defines = q.defines === undefined ? null : nameHash(q.defines);
    candidates = index.candidates(query, q.multiline, keep, defines);
  } catch (error) {
    // A stored list failed its check: the stored index is dropped (rebuilt), this query scans.
    storeFailed(error);
    return none("the stored index failed a check");
  }
  if (candidates === null) return none("no usable trigram");
  if (q.defines !== undefined) candidates.byNames = true;
  if (candidates.files.length > TOO_MANY * index.liveFiles && index.liveFiles > 100) {
    return none("too many candidates");
  }
  post({ t: "answer", id, candidates, why: "" });
}

function fail(error: unknown): void {
  index?.close();
  index = null;
  setPhase("off", `index failed: ${error instanceof Error ? error.message : String(error)}`);
}

// ---- The stored index ----

/** A stored file is trusted only when nothing about it moved and its times are not racy. */
function trusted(stored: StoredFile | FileRecord, e: Entry): boolean {
  return stored.dev === e.dev && stored.ino === e.ino && stored.size === e.size &&
    stored.mtimeMs === e.mtimeMs && stored.ctimeMs === e.ctimeMs && stored.real === e.real &&
    e.mtimeMs + RACY_MS < stored.seenAt && (e.ctimeMs ?? 0) + RACY_MS < stored.seenAt;
}

function noteBroken(why: string): void {
  log.warn(`The stored index of this folder was not used (${why}): it is rebuilt`);
  brokenStore = true;
  if (store?.locked) store.reset().then(() => brokenStore = false).catch(() => {});
}

/** A stored list failed its check mid-session: drop the stored index and build again. */
function storeFailed(error: unknown): void {
  noteBroken(error instanceof Error ? error.message : String(error));
  index?.close();
  index = null;
  build().catch(fail);
}

/** Opens the stored index and runs the stat pass; leaves `index` null when there is none. */
async function loadStored(s: IndexStore): Promise<void> {
  const started = performance.now();
  let shards;
  try {
    shards = s.load();
  } catch (error) {
    noteBroken(error instanceof Error ? error.message : String(error));
    return;
  }
  if (shards === null) return;
  const gen = ++generation;
  const idx = new LayeredIndex();
  idx.addLayer(shards.base);
  if (shards.delta !== null) idx.addLayer(shards.delta);
  checkingTotal = idx.liveFiles;
  phase = "checking";
  note = "";
  // A query already waiting hears at once that the check began (0 of all), later ones as it goes.
  postChecked(0);
  const opened = performance.now() - started;
  // The pass waits for the watcher (a change made during it is then an event), unless a query
  // is waiting already: then it runs at once, for that query (everything it compares is newer
  // than the query), and once the watcher is up a second pass confirms it for later queries.
  await Promise.race([watching, firstQuery]);
  if (watchEnded || gen !== generation) {
    idx.close();
    return;
  }
  const watchedBefore = watchReady;
  passFrom = queriesIn;
  const newest = shards.delta ?? shards.base;
  const beforeWatch = new Set<string>();
  const done = await statPass(
    gen,
    idx,
    decodeFolders(ws!.root, newest.folders),
    watchedBefore ? {} : { beforeWatch },
  );
  if (done === "stopped") {
    idx.close();
    reread.clear();
    return;
  }
  index = idx;
  const took = performance.now() - started;
  setPhase("ready", "loaded from the cache");
  log.info(
    `Stored index loaded: ${idx.liveFiles} files, ${done.stale} changed or new and ${done.gone} ` +
      `gone since it was written (opened in ${Math.round(opened)} ms, stat pass ${
        Math.round(took)
      } ms: ${done.how})`,
  );
  // After a folder-table pass only what it compared before the watcher was up is compared again.
  if (!watchedBefore) confirmed = confirmPass(gen, done.fast ? beforeWatch : null);
  else passFrom = Infinity;
  if (reread.size > 0) rereadLater();
  else if (done.gone > 0) schedulePersist(PERSIST_IDLE_MS);
}

/** Queries received so far; those after `passFrom` wait for `confirmed`. */
let queriesIn = 0;
let passFrom = Infinity;
/** Resolves once the pass that ran before the watcher was up has been confirmed. */
let confirmed: Promise<void> = Promise.resolve();
let tellFirstQuery = () => {};
const firstQuery = new Promise<void>((resolve) => tellFirstQuery = resolve);
/** A confirming pass runs: watcher events wait (they are applied after it). */
let confirming = false;

/**
 * The pass again, once the watcher watches the tree: what changed between the first pass's
 * look at a file and the watcher's start is seen now; what changes later is an event.
 */
async function confirmPass(gen: number, recheck: ReadonlySet<string> | null): Promise<void> {
  await watching;
  // The queries the first pass answers go first.
  for (let i = 0; i < 4; i++) await tick();
  const idx = index;
  if (watchEnded || gen !== generation || idx === null) return;
  const started = performance.now();
  confirming = true;
  try {
    const done = await statPass(
      gen,
      idx,
      { above, folders: dirs },
      recheck === null ? {} : { recheck },
    );
    if (done === "stopped") return;
    log.debug(
      `index confirmed once the watcher was up: ${done.stale} changed or new, ${done.gone} gone ` +
        `(${Math.round(performance.now() - started)} ms: ${done.how})`,
    );
  } finally {
    confirming = false;
    passFrom = Infinity;
  }
  if (dirty.size > 0) scheduleDirty();
  if (reread.size > 0) rereadLater();
}

/**
 * One stat pass of `idx` against the disk: with a folder table, only the folders that changed
 * are read again (folderPass); without one (or when it cannot be used), a walk of the tree.
 * Changed and new files become "scan" files (read again later), missing ones are removed.
 */
async function statPass(
  gen: number,
  idx: LayeredIndex,
  table: FolderTable | null,
  only: PassLimits = {},
): Promise<{ stale: number; gone: number; how: string; fast: boolean } | "stopped"> {
  const counts = { stale: 0, gone: 0, checked: 0 };
  const compare = (e: Entry, known?: StoredFile | FileRecord) => {
    const stored = known ?? idx.get(e.rel);
    if (stored !== undefined && trusted(stored, e)) return;
    idx.add(e, null); // a "scan" file until read again
    reread.add(e.rel);
    counts.stale++;
  };
  const fast = table === null ? null : await folderPass(gen, idx, table, compare, counts, only);
  if (fast === "stopped") return "stopped";
  if (fast !== null) return { stale: counts.stale, gone: counts.gone, how: fast, fast: true };
  const seen = new Set<string>();
  const walked = await walkAll(gen, Infinity, (e) => {
    seen.add(e.rel);
    compare(e);
  });
  if (walked === null || gen !== generation) return "stopped";
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
 * then every stored file of a folder that was not read again is compared with the disk (lstat);
 * files of folders read again were compared as the walks saw them, the rest are gone. Null when
 * the table cannot be used (the caller walks everything); "stopped" when a newer pass began.
 */
async function folderPass(
  gen: number,
  idx: LayeredIndex,
  table: FolderTable,
  compare: (e: Entry, known?: StoredFile | FileRecord) => void,
  counts: { stale: number; gone: number; checked: number },
  only: PassLimits,
): Promise<string | null | "stopped"> {
  const root = ws!.root;
  const live = idx.liveRecords();
  // Every stored file must lie in a stored folder; otherwise the table is not the index's.
  for (const stored of live) if (!table.folders.has(parentOf(stored.rel))) return null;
  let last = performance.now();
  const pause = async (): Promise<boolean> => {
    if (performance.now() - last > SLICE_MS) {
      if (phase === "checking") {
        postChecked(counts.checked);
      }
      await tick();
      last = performance.now();
    }
    return gen === generation;
  };
  const result = await passFolders({
    root,
    walk: (rel, oneLevel, into) => quietWalk(rel, oneLevel ? { maxDepth: 1 } : {}, into),
    file: (e) => {
      counts.checked++;
      compare(entryOf(e));
    },
    pause,
  }, table);
  if (gen !== generation) return "stopped";
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
    if (early !== undefined && !watchReady) early.add(rel);
    const stored = idx.get(rel);
    if (stored === undefined) continue; // removed meanwhile
    let info: Deno.FileInfo;
    try {
      info = Deno.lstatSync(stored.real === "" ? joinRoot(root, rel) : stored.real);
    } catch {
      info = GONE_INFO;
    }
    counts.checked++;
    if (!info.isFile || info.isSymlink) {
      idx.remove(rel);
      counts.gone++;
    } else {
      compare({
        rel,
        real: stored.real,
        size: info.size,
        mtimeMs: info.mtime?.getTime() ?? 0,
        dev: info.dev,
        ino: info.ino ?? 0,
        ctimeMs: info.ctime?.getTime() ?? 0,
      }, stored);
    }
    if ((i & 511) === 0 && !(await pause())) return "stopped";
  }
  setFolders(result.folders, table.above);
  return `${result.folders.size} folders, ${result.relisted} read again, ${result.rewalked} walked again`;
}

const GONE_INFO = { isFile: false, isSymlink: false } as Deno.FileInfo;

/** What a stat pass compares of the files of folders it does not read again. */
interface PassLimits {
  /** Only these (the files a first pass compared before the watcher was up); else all. */
  recheck?: ReadonlySet<string>;
  /** Filled with the files compared while the watcher was not yet up. */
  beforeWatch?: Set<string>;
}

/** recordedWalk that ends quietly where the folder cannot be walked (gone, refused). */
function* quietWalk(
  rel: string,
  options: WalkOptions,
  into: Map<string, FolderRecord>,
): Generator<WalkEntry> {
  try {
    yield* recordedWalk(rel, options, into);
  } catch {
    // missing or refused: nothing below it is served
  }
}

let rereading = false;

/** Reads the "scan" files of `reread` again, in slices; then the result is persisted. */
async function rereadLater(): Promise<void> {
  if (rereading) return;
  rereading = true;
  try {
    let last = performance.now();
    while (reread.size > 0 && index !== null && phase === "ready") {
      const rel = reread.values().next().value as string;
      reread.delete(rel);
      const idx = index;
      const old = idx.get(rel);
      if (old !== undefined && old.state !== SCAN) continue; // re-read meanwhile
      let found = false;
      try {
        for (const e of ws!.walk(rel, { stat: true, maxDepth: 0 })) {
          if (e.isDir || e.rel !== rel) continue;
          indexFile(idx, entryOf(e));
          found = true;
        }
      } catch {
        // gone or refused
      }
      if (!found && old !== undefined) idx.remove(rel);
      if (performance.now() - last > SLICE_MS) {
        await tick();
        last = performance.now();
      }
    }
  } finally {
    rereading = false;
  }
  if (index !== null) schedulePersist(PERSIST_IDLE_MS);
}

function noteUnwritten(): void {
  if (store === null || phase !== "ready") return;
  if (firstUnwritten === 0) firstUnwritten = Date.now();
  schedulePersist(PERSIST_IDLE_MS);
}

function schedulePersist(delayMs: number): void {
  if (store === null) return;
  if (persistTimer !== null) clearTimeout(persistTimer);
  const wait = firstUnwritten === 0
    ? delayMs
    : Math.max(0, Math.min(delayMs, firstUnwritten + PERSIST_MAX_DELAY_MS - Date.now()));
  persistTimer = setTimeout(() => {
    persistTimer = null;
    persist().catch((error) => {
      log.warn(`The index could not be written to the cache (${error.message ?? error})`);
    });
  }, wait);
}

/**
 * Writes what changed since the stored state: the whole index as a new base when there is no
 * stored base (after a build), else one delta shard of every file that differs from the base.
 * The file records are a snapshot taken at once; the lists are encoded as the writer takes them
 * (paced, so that the shard is never queued whole in memory), and documents added meanwhile are
 * left out; changes made while the bytes are written are kept and carried over to the index that
 * replaces this one.
 */
async function persist(): Promise<void> {
  const s = store;
  const idx = index;
  if (s === null || idx === null || phase !== "ready" || untrusted || persisting) return;
  if (!s.locked || brokenStore) return;
  if (reread.size > 0) return; // the background re-read persists when it is done
  const hasBase = idx.layers.length > 0;
  if (hasBase && idx.changedSinceSnapshot.size === 0) return;
  persisting = true;
  firstUnwritten = 0;
  try {
    const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
    // Another server may have replaced the stored base since this one read it: then the whole
    // index is written as a new base.
    const base = hasBase && stillThere(idx.layers[0].path) ? idx.layers[0] : null;
    const name = base !== null ? `delta-${stamp}.shard` : `base-${stamp}.shard`;
    const started = performance.now();
    const input = idx.shardInput(s.key, base !== null ? 1 : 0);
    input.meta.folders = encodeFolders(ws!.root, { above, folders: dirs });
    idx.snapshot();
    await s.writeShard(name, input);
    const baseName = base === null ? name : base.path.slice(base.path.lastIndexOf("/") + 1);
    await s.commit(baseName, base !== null ? name : null);
    persistedCount++;
    log.debug(
      `index written: ${name.slice(0, name.indexOf("-"))} shard of ${input.meta.files.length} ` +
        `files in ${Math.round(performance.now() - started)} ms`,
    );
    if (index !== idx) return; // rebuilt meanwhile
    // The written shard replaces the overlay: the lists go to disk, out of the heap.
    // A fresh build's records were written as they are (input.cols is their snapshot): the
    // shard takes them over instead of parsing copies of the same.
    const shard = StoredShard.open(
      `${s.folder}/${name}`,
      s.key,
      input.cols !== undefined ? input.meta : undefined,
    );
    const next = new LayeredIndex();
    if (base !== null) next.addLayer(base);
    next.addLayer(shard);
    for (const rel of idx.changedSinceSnapshot) {
      const now = idx.get(rel);
      if (now === undefined) next.remove(rel);
      else {
        next.add({ ...now, seenAt: 0 }, null);
        reread.add(rel);
      }
    }
    for (const old of idx.layers) if (old !== base) old.close();
    index = next;
    idx.overlay.release();
    post({ t: "state", status: status() });
    if (reread.size > 0) rereadLater();
  } finally {
    persisting = false;
  }
}

function stillThere(path: string): boolean {
  try {
    return Deno.lstatSync(path).isFile;
  } catch {
    return false;
  }
}

async function openStore(cache: IndexCache, s: IndexSettings): Promise<IndexStore | null> {
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(ws!.root);
  } catch {
    return null;
  }
  const identity = {
    root: ws!.root,
    dev: info.dev,
    ino: info.ino ?? 0,
    noIgnore: s.ws.noIgnore,
    allowSecrets: s.ws.allowSecrets,
  };
  const key = await rootKey(identity);
  return new IndexStore(cache.port, cache.dir, key, identity);
}

function onLocked(): void {
  const s = store;
  if (s === null) return;
  if (brokenStore) {
    s.reset().then(() => {
      brokenStore = false;
      if (index !== null && phase === "ready") schedulePersist(0);
    }).catch(() => {});
    return;
  }
  s.sweep().catch(() => {});
  if (index !== null && phase === "ready") schedulePersist(0);
}

async function open(
  s: IndexSettings,
  cache: IndexCache | null,
  watchPort: MessagePort | null,
): Promise<void> {
  settings = s;
  if (s.logLevel !== undefined) setLogLevel(s.logLevel);
  ws = Workspace.openSync(s.ws);
  if (!s.watch) {
    untrusted = true;
    setPhase("off", "no file watcher");
    return;
  }
  // The watcher starts first (on its own thread): every walk that later queries trust waits
  // until it watches the whole tree, so that a change made during the walk is an event.
  watching = watch(watchPort);
  if (cache !== null) {
    let resolve = () => {};
    loaded = new Promise((r) => resolve = r);
    try {
      store = await openStore(cache, s);
      if (store !== null) {
        store.lock(onLocked);
        await loadStored(store);
      }
    } finally {
      resolve();
    }
    if (index !== null) return;
  }
  await watching;
  if (watchEnded) return;
  if (s.eagerMaxFiles !== Infinity) {
    const gen = generation;
    setPhase("building");
    const small = await walkAll(gen, s.eagerMaxFiles);
    if (gen !== generation) return;
    if (small === null && !buildWanted) {
      setPhase("waiting", "large tree: the index is built after the first grep");
      return;
    }
  }
  await build();
}

/** Lets watcher events that are already queued arrive before a query is answered. */
async function settle(): Promise<void> {
  await tick();
  await tick();
}

self.onmessage = async (event: MessageEvent<ToIndex>) => {
  const m = event.data;
  try {
    switch (m.t) {
      case "open":
        await open(m.settings, m.cache, m.watch);
        break;
      case "unwatched":
        if (!watchEnded) stopWatching(m.why);
        break;
      case "build":
        buildWanted = true;
        if (phase === "waiting") await build();
        break;
      case "query": {
        const seq = ++queriesIn;
        if (phase === "checking") {
          log.debug("a query waits for the stat pass of the stored index");
          postChecked(checkedSoFar); // its listener hears how far the pass is now
        }
        tellFirstQuery();
        await loaded;
        if (seq > passFrom) await confirmed;
        await settle();
        answer(m.id, m.query);
        break;
      }
      case "touch":
        if (ws !== null) {
          for (const p of m.paths) noteChanged(p.startsWith("/") ? p : joinRoot(ws.root, p));
          if (index !== null && phase === "ready" && !untrusted && !confirming) {
            applyDirty(Infinity);
          }
        }
        break;
      case "overflow":
        distrust("the file watcher overflowed");
        break;
      case "deafen":
        deaf = true;
        break;
      case "status":
        post({ t: "status", id: m.id, status: status() });
        break;
      case "persist": {
        let error = "";
        try {
          await loaded;
          if (reread.size > 0) await rereadLater();
          if (persistTimer !== null) clearTimeout(persistTimer);
          persistTimer = null;
          await persist();
        } catch (e) {
          error = e instanceof Error ? e.message : String(e);
        }
        post({ t: "persisted", id: m.id, error });
        break;
      }
    }
  } catch (error) {
    if (m.t === "query") post({ t: "answer", id: m.id, candidates: null, why: String(error) });
    fail(error);
  }
};
