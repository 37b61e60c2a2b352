/**
 * The index worker: builds the trigram index of the workspace off the main thread (in time
 * slices, so queries and watcher events are answered while it builds), keeps it fresh, and
 * answers candidate queries. It serves exactly the files the walk serves: it walks with the same
 * Workspace, and every change is re-walked from the changed path.
 *
 * Freshness: Deno.watchFs events are queued as dirty paths; before a query is answered every
 * dirty path is re-walked and its files re-indexed (new documents at the end, tombstones for the
 * old ones). When tombstones pass a quarter of the documents the index is rebuilt. A watcher
 * error or overflow ("rescan") or a changed ignore file makes every query a full scan until a
 * stat pass over the whole tree has caught up.
 */
/// <reference lib="deno.worker" />
import { Workspace } from "../workspace/workspace.ts";
import { joinRoot, relativeUnder } from "../workspace/names.ts";
import { isUnder, scopeFilter } from "../search/scope.ts";
import { planQuery } from "./planner.ts";
import { SCAN, TrigramIndex } from "./trigram_index.ts";
import type { FromIndex, IndexPhase, IndexQuery, IndexSettings, ToIndex } from "./protocol.ts";

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

interface Entry {
  rel: string;
  real: string;
  size: number;
  mtimeMs: number;
}

let settings: IndexSettings | null = null;
let ws: Workspace | null = null;
let index: TrigramIndex | null = null;
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
let watcher: Deno.FsWatcher | null = null;
/** Folders reached through an inside symlink: [named rel, real rel]. */
let aliases: [string, string][] = [];
/** Folder rels of the tree (a change at one re-walks its subtree). */
let dirs = new Set<string>();
/** Files up to 4 MiB are read into this one buffer; larger ones get their own. */
const scratch = new Uint8Array(4 * 1024 * 1024);

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

/** Reads and (re-)indexes one file; a large file's buffer is freed at once, not by the GC. */
function indexFile(idx: TrigramIndex, e: Entry, skip = false): void {
  const bytes = skip ? null : ws!.readWalkedSync(joinRootOr(e), scratch);
  idx.add(e, bytes);
  if (bytes !== null && bytes.buffer !== scratch.buffer) release(bytes);
}

function release(bytes: Uint8Array): void {
  const buffer = bytes.buffer as ArrayBuffer & { transfer?: (length: number) => ArrayBuffer };
  if (bytes.byteOffset !== 0 || buffer.byteLength !== bytes.byteLength) return;
  try {
    buffer.transfer?.(0);
  } catch {
    // not transferable: the collector frees it
  }
}

/** Walks the whole tree with sizes; yields to the event loop between slices. */
async function walkAll(gen: number, limit: number): Promise<Entry[] | null> {
  const entries: Entry[] = [];
  const newDirs = new Set<string>();
  const newAliases: [string, string][] = [];
  let last = performance.now();
  for (const e of ws!.walk("", { stat: true, dirs: true })) {
    if (e.isDir) {
      newDirs.add(e.rel);
      const realRel = relativeUnder(e.abs, ws!.root);
      if (realRel !== null && realRel !== e.rel) newAliases.push([e.rel, realRel]);
      continue;
    }
    entries.push({ rel: e.rel, real: realOf(e.rel, e.abs), size: e.size, mtimeMs: e.mtimeMs });
    if (entries.length > limit) return null;
    if ((entries.length & 127) === 0 && performance.now() - last > SLICE_MS) {
      await tick();
      if (gen !== generation) return null;
      last = performance.now();
    }
  }
  dirs = newDirs;
  aliases = newAliases;
  return entries;
}

/** Estimated index bytes for these files. */
function estimate(bytes: number, files: number): number {
  return FIXED_BYTES + bytes * BYTES_PER_TEXT_BYTE + files * BYTES_PER_FILE;
}

async function build(): Promise<void> {
  const gen = ++generation;
  const s = settings!;
  setPhase("building");
  ws = Workspace.openSync(s.ws);
  dirty.clear();
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
      index = null;
      setPhase("off", `the index would need more than --index-max-mib (${mib(s.maxBytes)} MiB)`);
      return;
    }
  }
  const next = new TrigramIndex();
  const started = performance.now();
  let last = performance.now();
  leftOut = 0;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    const over = skip.has(e) || next.bytes > s.maxBytes;
    if (over) leftOut++;
    indexFile(next, e, over);
    if (performance.now() - last > SLICE_MS) {
      await tick();
      if (gen !== generation) return;
      last = performance.now();
    }
  }
  next.ordered = next.files.length;
  index = next;
  setPhase(
    "ready",
    `read and indexed in ${((performance.now() - started) / 1000).toFixed(1)} s, ${
      mib(next.textBytes)
    } MiB of text, ${next.postings.trigrams} trigrams`,
  );
  if (untrusted) catchUp().catch(fail);
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
  try {
    for (const e of ws!.walk(rel, { stat: true, dirs: true })) {
      if (e.isDir) {
        dirs.add(e.rel);
        continue;
      }
      seen.add(e.rel);
      const entry = { rel: e.rel, real: realOf(e.rel, e.abs), size: e.size, mtimeMs: e.mtimeMs };
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
    for (const r of [...idx.byRel.keys()]) {
      if (r.length > rel.length && isUnder(r, rel) && !seen.has(r)) idx.remove(r);
    }
  }
  if (walked && !isFile) dirs.add(rel);
  else {
    for (const d of [...dirs]) if (isUnder(d, rel)) dirs.delete(d);
  }
}

function upsert(idx: TrigramIndex, e: Entry): void {
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

function maybeRebuild(): void {
  const idx = index;
  if (idx === null || phase !== "ready") return;
  if (idx.docCount > 1000 && idx.deadDocs * 4 > idx.docCount) {
    index = null;
    build().catch(fail);
  }
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
  for (const r of [...idx.byRel.keys()]) if (!seen.has(r)) idx.remove(r);
  if (untrusted) {
    // Another overflow meanwhile: go again.
    catchUp().catch(fail);
    return;
  }
  setPhase("ready");
  maybeRebuild();
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
    if (phase !== "ready" || untrusted || index === null) return;
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

async function watch(): Promise<void> {
  try {
    watcher = Deno.watchFs(ws!.root, { recursive: true });
  } catch (error) {
    untrusted = true;
    note = `cannot watch the tree (${(error as Error).message}): full scans`;
    return;
  }
  try {
    for await (const event of watcher) {
      onEvent(event);
      if (dirty.size > 0 && dirtyTimer === null) scheduleDirty();
    }
  } catch (error) {
    distrust(`the file watcher failed (${(error as Error).message})`);
  }
  // The watcher ended: nothing is seen any more, so the index can no longer be trusted.
  watcher = null;
  untrusted = true;
  index = null;
  setPhase("off", "the file watcher stopped");
}

function answer(id: number, q: IndexQuery): void {
  const none = (why: string) => post({ t: "answer", id, candidates: null, why });
  if (index === null || phase !== "ready") return none(`index ${phase}`);
  if (untrusted) return none("index catching up");
  if (!applyDirty(MAX_SYNC_DIRTY)) {
    scheduleDirty();
    return none("too many changed files");
  }
  const query = planQuery(q.source, q.flags);
  if (query.op === "all") return none("no usable trigram");
  const inScope = scopeFilter(q.base, q.globs, q.typeGlobs);
  const keep = (rel: string) => isUnder(rel, q.base) && inScope(rel);
  const candidates = index.candidates(query, q.multiline, keep);
  if (candidates === null) return none("no usable trigram");
  if (candidates.files.length > TOO_MANY * index.liveFiles && index.liveFiles > 100) {
    return none("too many candidates");
  }
  post({ t: "answer", id, candidates, why: "" });
}

function fail(error: unknown): void {
  index = null;
  setPhase("off", `index failed: ${error instanceof Error ? error.message : String(error)}`);
}

async function open(s: IndexSettings): Promise<void> {
  settings = s;
  ws = Workspace.openSync(s.ws);
  if (s.watch) watch();
  else {
    untrusted = true;
    setPhase("off", "no file watcher");
    return;
  }
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
        await open(m.settings);
        break;
      case "build":
        buildWanted = true;
        if (phase === "waiting") await build();
        break;
      case "query":
        await settle();
        answer(m.id, m.query);
        break;
      case "touch":
        if (ws !== null) {
          for (const p of m.paths) noteChanged(p.startsWith("/") ? p : joinRoot(ws.root, p));
          if (index !== null && phase === "ready" && !untrusted) applyDirty(Infinity);
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
    }
  } catch (error) {
    if (m.t === "query") post({ t: "answer", id: m.id, candidates: null, why: String(error) });
    fail(error);
  }
};
