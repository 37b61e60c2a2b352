/**
 * A search worker: walks, matches globs, reads and scans files with synchronous calls (no async
 * round trip per small file), and posts results in batches. It checks the control block between
 * files, so a cancelled job stops at the next file; a stuck regex is ended by the pool
 * terminating this worker.
 */
/// <reference lib="deno.worker" />
import { joinRoot } from "../workspace/names.ts";
import { FolderGuard, FRESH_MS, isUnder, sleepSync } from "../workspace/folder_guard.ts";
import { log } from "../log.ts";
import { readFullySync, type Workspace } from "../workspace/workspace.ts";
import { forgetWorkspaces, workspaceFor } from "../workspace/worker_workspaces.ts";
import { forgetListings } from "../workspace/walk.ts";
import { scopeFilter } from "./scope.ts";
import { createMatcher, type Matcher } from "./matcher.ts";
import { CHUNK_BYTES, countInChunks, decodeForSearch } from "./decode.ts";
import {
  firstChunkIsBinary,
  MAX_HOLD_BYTES,
  scanStream,
  STREAM_FROM_BYTES,
} from "./stream_scan.ts";
import { contentLines } from "./content_lines.ts";
import { mayDefineAnywhere } from "../c_source/definition_sites.ts";
import { fileMayDefine } from "../c_source/definition_regions.ts";
import {
  CTL_CUTOFF,
  CTL_INTS,
  CTL_JOB,
  CTL_SCANNED,
  CTL_SLOT,
  CTL_STAMP_OFFSET,
  type FileResult,
  type FromWorker,
  type GlobbedFile,
  type ListEntry,
  type ListMessage,
  PHASE_READ,
  PHASE_REGEX,
  PHASE_WALK,
  type SearchMessage,
  type SkippedFile,
  type ToWorker,
  type WalkMessage,
} from "./protocol.ts";

let ints: Int32Array<ArrayBufferLike> = new Int32Array(new SharedArrayBuffer(CTL_INTS * 4));
let stamps: Float64Array<ArrayBufferLike> = new Float64Array(1);
let slot = 0;

let matcherKey = "";
let matcher: Matcher | null = null;

function post(message: FromWorker): void {
  self.postMessage(message);
}

/** This worker's JavaScript heap (FromWorker `heap`): asked once per unit of work, not per file. */
function javaScriptHeap(): number {
  const usage = Deno.memoryUsage();
  return usage.heapTotal + usage.external;
}

function current(job: number): boolean {
  return Atomics.load(ints, CTL_JOB) === job;
}

function relativeTo(base: string, rel: string): string {
  return base === "" ? rel : rel.slice(base.length + 1);
}

/** Marks this slot as walking for `job`: its stamp then times each step (PHASE_WALK). */
function walkStep(job: number): void {
  const base = CTL_SLOT + 4 * slot;
  ints[base] = job;
  ints[base + 1] = -1;
  ints[base + 3] = PHASE_WALK;
  stamps[slot] = Date.now();
}

function walk(message: WalkMessage): void {
  const ws = workspaceFor(message.ws);
  const inScope = scopeFilter(message.base, message.globs, message.typeGlobs);
  const glob = message.kind === "glob";
  let batch: string[] = [];
  let batchReals: string[] = [];
  let globbed: GlobbedFile[] = [];
  let batches = 0;
  let walked = 0;
  walkStep(message.job);
  // glob sorts by mtime, but only the files that match need a stat: the walk itself stats none.
  for (const entry of ws.walk(message.base, { stat: false })) {
    if ((walked & 15) === 0) stamps[slot] = Date.now();
    if (entry.isDir) continue;
    if ((++walked & 255) === 0 && !current(message.job)) return;
    if (!inScope(entry.rel)) continue;
    if (glob) {
      const mtimeMs = ws.walkedMtime(entry.abs);
      if (mtimeMs === null) continue; // vanished since the walk saw it
      globbed.push({ rel: entry.rel, mtimeMs });
      if (globbed.length >= 4096) {
        post({ t: "globbed", job: message.job, entries: globbed });
        globbed = [];
      }
    } else {
      batch.push(entry.rel);
      batchReals.push(entry.abs === joinRoot(ws.root, entry.rel) ? "" : entry.abs);
      if (batch.length >= message.batchSize) {
        post({ t: "files", job: message.job, batch: batches++, files: batch, reals: batchReals });
        batch = [];
        batchReals = [];
      }
    }
  }
  stamps[slot] = 0;
  if (globbed.length > 0) post({ t: "globbed", job: message.job, entries: globbed });
  if (batch.length > 0) {
    post({ t: "files", job: message.job, batch: batches++, files: batch, reals: batchReals });
  }
  post({ t: "walked", job: message.job, batches, walked, heap: javaScriptHeap() });
}

let usesKey = "";
let usesRegex: RegExp | null = null;
let usesExtensions = new Set<string>();

/**
 * The regex and extensions of a `uses` request when `rel` is one of those files, else null: the
 * pattern's own JavaScript regex, as the parser worker compiles it (without g or y).
 */
function usesFor(message: SearchMessage, rel: string): RegExp | null {
  const uses = message.uses;
  if (uses === undefined) return null;
  const spec = message.spec;
  const key = `${spec.flags}/${spec.source}/${uses.extensions.join(",")}`;
  if (usesRegex === null || key !== usesKey) {
    usesRegex = new RegExp(spec.source, spec.flags.replace(/[gy]/g, ""));
    usesExtensions = new Set(uses.extensions);
    usesKey = key;
  }
  const base = rel.slice(rel.lastIndexOf("/") + 1);
  const dot = base.lastIndexOf(".");
  return dot > 0 && usesExtensions.has(base.slice(dot).toLowerCase()) ? usesRegex : null;
}

/**
 * Marks `result` when no hit in these texts may be a definition (SearchMessage `uses`): the
 * whole file's text is judged with its function bodies, comments and preprocessor lines
 * (`fileMayDefine`); the index's pieces, each alone, by each hit's neighbours only.
 */
function judged(
  result: FileResult,
  texts: readonly string[],
  regex: RegExp | null,
  whole: boolean,
): FileResult {
  if (regex === null || result.count === 0) return result;
  regexStart();
  const maybe = whole && texts.length === 1
    ? fileMayDefine(texts[0], regex)
    : texts.some((text) => mayDefineAnywhere(text, regex));
  regexEnd();
  if (!maybe) result.uses = true;
  return result;
}

function matcherFor(message: SearchMessage): Matcher {
  const spec = message.spec;
  const key = `${spec.multiline}/${spec.flags}/${spec.source}`;
  if (matcher === null || key !== matcherKey) {
    matcher = createMatcher(spec);
    matcherKey = key;
  }
  return matcher;
}

/** Every file is read into this buffer (grown as needed up to MAX_SCRATCH), never a fresh one. */
const MAX_SCRATCH = STREAM_FROM_BYTES;
let scratch = new Uint8Array(1024 * 1024);

/** The fully checked open, for a path that is not a walked plain file (a single file argument). */
function openChecked(ws: Workspace, rel: string): { file: Deno.FsFile; size: number } | null {
  try {
    return ws.openFileSync(rel);
  } catch {
    return null; // vanished or refused: not served, so not searched
  }
}

/** After a file is scanned: a file too big for the scratch grows it for the next, then is freed. */
function done(bytes: Uint8Array): void {
  if (bytes.buffer === scratch.buffer) return;
  if (bytes.length > scratch.length && bytes.length <= MAX_SCRATCH) {
    scratch = new Uint8Array(bytes.length);
  }
  release(bytes);
}

/**
 * Frees a file buffer at once (detaching it), rather than when the garbage collector gets to it:
 * a search reads gigabytes, and lazily freed buffers would hold hundreds of MiB.
 */
function release(bytes: Uint8Array): void {
  const buffer = bytes.buffer as ArrayBuffer & { transfer?: (length: number) => ArrayBuffer };
  if (bytes.byteOffset !== 0 || buffer.byteLength !== bytes.byteLength) return; // not all ours
  if (typeof buffer.transfer === "function" && !(buffer instanceof SharedArrayBuffer)) {
    try {
      buffer.transfer(0);
    } catch {
      // not transferable: the collector frees it
    }
  }
}

const firstPieceDecoder = new TextDecoder("utf-8");
const laterPieceDecoder = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * C/C++ files up to this size are decoded whole when a `uses` verdict is asked, so that it is
 * given here rather than by a parser worker reading the file again (which reads it whole too).
 */
const JUDGED_BYTES = 1024 * 1024;

/** Scans one file's bytes (then releases them); null when it has no match or is binary. */
function scanBytes(
  bytes: Uint8Array,
  rel: string,
  m: Matcher,
  message: SearchMessage,
  collect: boolean,
): FileResult | null {
  const judging = bytes.length <= JUDGED_BYTES && usesFor(message, rel) !== null;
  if (!collect && !message.spec.multiline && bytes.length > CHUNK_BYTES && !judging) {
    // Counting only: decode and scan a large file in line-aligned chunks (less memory).
    regexStart();
    const count = countInChunks(bytes, m);
    regexEnd();
    done(bytes);
    return count > 0 ? { path: rel, count } : null;
  }
  const text = decodeForSearch(bytes);
  done(bytes);
  if (text === null) return null;
  regexStart();
  const r = m.scanText(text, { wantLines: collect });
  regexEnd();
  if (r.count === 0) return null;
  if (collect && r.lines !== undefined) {
    return {
      path: rel,
      count: r.count,
      lines: contentLines(rel, text, r.lines, message.content, m.locate),
    };
  }
  return judged({ path: rel, count: r.count }, [text], usesFor(message, rel), true);
}

/** The regex timeout times only the regex: the stamp is set around each scan (PHASE_REGEX). */
function regexStart(): void {
  ints[CTL_SLOT + 4 * slot + 3] = PHASE_REGEX;
  stamps[slot] = Date.now();
}

/** Back to reading: the stall deadline (PHASE_READ). */
function regexEnd(): void {
  ints[CTL_SLOT + 4 * slot + 3] = PHASE_READ;
  stamps[slot] = Date.now();
}

const streamHooks = { regexStart, regexEnd };

const notedLarge = new Set<string>();
/** Files of the current batch left unsearched because of MAX_HOLD_BYTES, and why. */
let skipped: SkippedFile[] = [];

/** A file not searched because it needs more than MAX_HOLD_BYTES held at once. */
function skipTooLarge(rel: string, reason: SkippedFile["reason"], size: number): void {
  skipped.push({ path: rel, reason, size });
  if (notedLarge.has(rel) || notedLarge.size > 1000) return;
  notedLarge.add(rel);
  const limit = `${MAX_HOLD_BYTES / 1024 / 1024} MiB`;
  log.warn(
    reason === "multiline"
      ? `Skipped "${rel}": a multiline pattern holds the whole file, and grep holds at most ${limit} of one file`
      : `Skipped "${rel}": it has a line longer than ${limit}, the most grep holds of one file`,
  );
}

/** Scans an opened walked file: read whole when small, else streamed (stream_scan.ts). */
function scanOpened(
  opened: { file: Deno.FsFile; size: number },
  rel: string,
  m: Matcher,
  message: SearchMessage,
  collect: boolean,
): FileResult | null {
  const size = opened.size;
  if (size <= STREAM_FROM_BYTES) {
    const bytes = readFullySync(
      opened.file,
      size <= scratch.length ? scratch.subarray(0, size) : new Uint8Array(size),
    );
    return scanBytes(bytes, rel, m, message, collect);
  }
  if (message.spec.multiline) {
    // A match may span lines, so the whole text is needed: binary files are still decided on
    // their first chunk, and nothing over MAX_HOLD_BYTES is held.
    if (firstChunkIsBinary(opened.file)) return null;
    if (size > MAX_HOLD_BYTES) {
      skipTooLarge(rel, "multiline", size);
      return null;
    }
    opened.file.seekSync(0, Deno.SeekMode.Start);
    return scanBytes(readFullySync(opened.file, new Uint8Array(size)), rel, m, message, collect);
  }
  // Context lines too: the collector keeps only a bounded window of earlier lines.
  const out = scanStream(opened.file, rel, m, {
    collect,
    content: message.content,
    hooks: streamHooks,
    maxLines: message.maxLines,
  });
  if (out.kind === "too-long") {
    skipTooLarge(rel, "line", size);
    return null;
  }
  if (out.kind === "binary" || out.count === 0) return null;
  return collect && out.lines !== undefined
    ? { path: rel, count: out.count, lines: out.lines }
    : { path: rel, count: out.count };
}

/**
 * The index's pieces of one file are read together: only when they add up to no more than a
 * file read whole (STREAM_FROM_BYTES); else the file is streamed, which holds a chunk at a time.
 */
function boundedPieces(pieces: readonly number[]): boolean {
  let total = 0;
  for (let k = 3; k < pieces.length; k += 2) total += pieces[k];
  return total <= STREAM_FROM_BYTES;
}

function parentOf(abs: string): string {
  const at = abs.lastIndexOf("/");
  return at <= 0 ? "/" : abs.slice(0, at);
}

const notedChanging = new Set<string>();

function noteChanging(dir: string): void {
  if (notedChanging.has(dir) || notedChanging.size > 1000) return;
  notedChanging.add(dir);
  log.warn(`Skipped files in ${JSON.stringify(dir)}: the folder kept changing while being read`);
}

/**
 * Searches one batch. Every open is covered by the folder guard (folder_guard.ts): the folders
 * on each file's path are recorded before its open and checked again after the batch; results
 * of files whose path changed meanwhile are dropped and those files read once more.
 */
function search(message: SearchMessage): void {
  const ws = workspaceFor(message.ws);
  const m = matcherFor(message);
  const collect = message.mode === "content" && message.batch <= Atomics.load(ints, CTL_CUTOFF);
  const base = CTL_SLOT + 4 * slot;
  ints[base] = message.job;
  ints[base + 1] = message.batch;
  let scanned = 0;
  skipped = [];
  const found = new Map<number, FileResult>();
  let todo = message.files.map((_, i) => i);
  for (let pass = 0; pass < 2 && todo.length > 0; pass++) {
    const guard = new FolderGuard(ws.root);
    const waited = new Set<string>();
    const dirOf = new Map<number, string>();
    for (const i of todo) {
      if (!current(message.job)) return;
      const rel = message.files[i];
      ints[base + 2] = i;
      ints[base + 3] = PHASE_READ;
      stamps[slot] = Date.now();
      const real = message.reals[i];
      const abs = real === "" ? joinRoot(ws.root, rel) : real;
      const dir = parentOf(abs);
      let state = guard.enter(dir);
      if (state === "fresh" && !waited.has(dir)) {
        waited.add(dir);
        sleepSync(FRESH_MS + 1);
        state = guard.enter(dir);
      }
      let result: FileResult | null = null;
      let read = false;
      const pieces = message.pieces?.[i];
      if (
        state === "ok" && pieces && !collect && !message.spec.multiline && boundedPieces(pieces)
      ) {
        // The index says only these pieces can match (while the file is unchanged).
        const parts = ws.readRangesSync(
          abs,
          { size: pieces[0], mtimeMs: pieces[1] },
          pieces.slice(2),
        );
        if (parts !== null) {
          let count = 0;
          const uses = usesFor(message, rel);
          const texts: string[] = [];
          regexStart();
          for (let k = 0; k < parts.length; k++) {
            const decoder = pieces[2 + 2 * k] === 0 ? firstPieceDecoder : laterPieceDecoder;
            const text = decoder.decode(parts[k]);
            count += m.scanText(text, { wantLines: false }).count;
            if (uses !== null) texts.push(text);
          }
          regexEnd();
          dirOf.set(i, dir);
          read = true;
          // Each piece is judged alone: a hit at a piece's edge, whose neighbours lie outside
          // it, is never ruled out (the test errs only towards "may define").
          result = count > 0 ? judged({ path: rel, count }, texts, uses, false) : null;
        }
      }
      if (state === "ok" && !read) {
        const opened = ws.openWalkedSync(abs);
        if (opened !== null) {
          dirOf.set(i, dir);
          read = true;
          try {
            result = scanOpened(opened, rel, m, message, collect);
          } finally {
            opened.file.close();
          }
        }
      } else if (state === "fresh") noteChanging(dir);
      if (!read && real === "") {
        // A named file reached through an inside link: the fully checked open (its own guard).
        const opened = openChecked(ws, rel);
        if (opened !== null) {
          read = true;
          try {
            result = scanOpened(opened, rel, m, message, collect);
          } finally {
            opened.file.close();
          }
        }
      }
      if (!read) {
        stamps[slot] = 0;
        continue; // vanished or refused meanwhile: not served, so not searched
      }
      if (pass === 0) scanned++;
      if (result !== null) found.set(i, result);
      else found.delete(i);
      stamps[slot] = 0;
    }
    const changed = guard.verify();
    if (changed.length === 0) break;
    todo = todo.filter((i) => {
      const dir = dirOf.get(i);
      return dir !== undefined && changed.some((c) => isUnder(dir, c));
    });
    for (const i of todo) found.delete(i);
    if (pass === 1) { for (const i of todo) noteChanging(dirOf.get(i)!); }
  }
  const results = [...found.entries()].sort((a, b) => a[0] - b[0]).map((e) => e[1]);
  Atomics.add(ints, CTL_SCANNED, scanned);
  if (current(message.job)) {
    const searched: FromWorker = {
      t: "searched",
      job: message.job,
      batch: message.batch,
      results,
      scanned,
      heap: javaScriptHeap(),
    };
    if (skipped.length > 0) {
      const once = new Map(skipped.map((s) => [s.path, s]));
      searched.skipped = [...once.values()];
    }
    post(searched);
  }
}

function list(message: ListMessage): void {
  const ws = workspaceFor(message.ws);
  const entries: ListEntry[] = [];
  let n = 0;
  walkStep(message.job);
  for (const entry of ws.walk(message.base, { dirs: true, stat: true, maxDepth: message.depth })) {
    if ((n & 15) === 0) stamps[slot] = Date.now();
    if ((++n & 255) === 0 && !current(message.job)) return;
    if (entry.rel === message.base) continue;
    let children = -1;
    if (entry.isDir) {
      const depth = message.base === "" ? entry.rel.split("/").length : relativeTo(
        message.base,
        entry.rel,
      ).split("/").length;
      if (depth >= message.depth) {
        children = 0;
        for (const _ of ws.walk(entry.rel, { dirs: true, maxDepth: 1 })) {
          if (_.rel !== entry.rel) children++;
        }
      }
    }
    entries.push({ rel: entry.rel, isDir: entry.isDir, size: entry.size, children });
  }
  stamps[slot] = 0;
  post({ t: "listed", job: message.job, entries, heap: javaScriptHeap() });
}

self.onmessage = (event: MessageEvent<ToWorker>) => {
  const message = event.data;
  if (message.t === "init") {
    ints = new Int32Array(message.control, 0, CTL_INTS);
    stamps = new Float64Array(message.control, CTL_STAMP_OFFSET);
    slot = message.slot;
    post({ t: "ready" });
    return;
  }
  if (message.t === "forget") {
    forgetWorkspaces();
    forgetListings();
    return;
  }
  if (!current(message.job)) return;
  try {
    if (message.t === "walk") walk(message);
    else if (message.t === "search") search(message);
    else list(message);
  } catch (error) {
    stamps[slot] = 0;
    const text = error instanceof Error ? error.message : String(error);
    const code = (error as { code?: unknown } | null)?.code;
    post(
      typeof code === "string"
        ? { t: "failed", job: message.job, message: text, code }
        : { t: "failed", job: message.job, message: text },
    );
  } finally {
    // Idle: a stale stamp would let the watchdog kill this worker during a later job.
    stamps[slot] = 0;
  }
};
