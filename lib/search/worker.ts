/**
 * A search worker: walks, matches globs, reads and scans files with synchronous calls (no async
 * round trip per small file), and posts results in batches. It checks the control block between
 * files, so a cancelled job stops at the next file; a stuck regex is ended by the pool
 * terminating this worker.
 */
/// <reference lib="deno.worker" />
import { joinRoot } from "../workspace/names.ts";
import { Workspace, type WorkspaceOptions } from "../workspace/workspace.ts";
import { forgetListings } from "../workspace/walk.ts";
import { scopeFilter } from "./scope.ts";
import { createMatcher, type Matcher } from "./matcher.ts";
import { CHUNK_BYTES, countInChunks, decodeForSearch } from "./decode.ts";
import { contentLines } from "./content_lines.ts";
import {
  CTL_CUTOFF,
  CTL_INTS,
  CTL_JOB,
  CTL_SCANNED,
  CTL_SLOT,
  CTL_STAMP_OFFSET,
  type FileResult,
  type FromWorker,
  type ListEntry,
  type ListMessage,
  type SearchMessage,
  type ToWorker,
  type WalkMessage,
} from "./protocol.ts";

let ints: Int32Array<ArrayBufferLike> = new Int32Array(new SharedArrayBuffer(CTL_INTS * 4));
let stamps: Float64Array<ArrayBufferLike> = new Float64Array(1);
let slot = 0;

const workspaces = new Map<string, Workspace>();
let matcherKey = "";
let matcher: Matcher | null = null;

function post(message: FromWorker): void {
  self.postMessage(message);
}

function current(job: number): boolean {
  return Atomics.load(ints, CTL_JOB) === job;
}

function workspaceFor(options: WorkspaceOptions): Workspace {
  const key = JSON.stringify(options);
  let ws = workspaces.get(key);
  if (ws === undefined) {
    ws = Workspace.openSync(options);
    if (workspaces.size > 8) workspaces.clear();
    workspaces.set(key, ws);
  }
  return ws;
}

function relativeTo(base: string, rel: string): string {
  return base === "" ? rel : rel.slice(base.length + 1);
}

function mtimeOf(abs: string): number | null {
  try {
    return Deno.statSync(abs).mtime?.getTime() ?? 0;
  } catch {
    return null;
  }
}

function walk(message: WalkMessage): void {
  const ws = workspaceFor(message.ws);
  const inScope = scopeFilter(message.base, message.globs, message.typeGlobs);
  const glob = message.kind === "glob";
  let batch: string[] = [];
  let batchReals: string[] = [];
  let globbed: [string, number][] = [];
  let batches = 0;
  let walked = 0;
  // glob sorts by mtime, but only the files that match need a stat: the walk itself stats none.
  for (const entry of ws.walk(message.base, { stat: false })) {
    if (entry.isDir) continue;
    if ((++walked & 255) === 0 && !current(message.job)) return;
    if (!inScope(entry.rel)) continue;
    if (glob) {
      const mtimeMs = mtimeOf(entry.abs);
      if (mtimeMs === null) continue; // vanished since the walk saw it
      globbed.push([entry.rel, mtimeMs]);
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
  if (globbed.length > 0) post({ t: "globbed", job: message.job, entries: globbed });
  if (batch.length > 0) {
    post({ t: "files", job: message.job, batch: batches++, files: batch, reals: batchReals });
  }
  post({ t: "walked", job: message.job, batches, walked });
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
const MAX_SCRATCH = 64 * 1024 * 1024;
let scratch = new Uint8Array(1024 * 1024);

/** The fully checked read, for a path that is not a walked plain file (a single file argument). */
function readChecked(ws: Workspace, rel: string): Uint8Array | null {
  try {
    return ws.readFileSync(rel);
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

function search(message: SearchMessage): void {
  const ws = workspaceFor(message.ws);
  const m = matcherFor(message);
  const collect = message.mode === "content" && message.batch <= Atomics.load(ints, CTL_CUTOFF);
  const results: FileResult[] = [];
  const base = CTL_SLOT + 4 * slot;
  ints[base] = message.job;
  ints[base + 1] = message.batch;
  let scanned = 0;
  for (let i = 0; i < message.files.length; i++) {
    if (!current(message.job)) break;
    const rel = message.files[i];
    ints[base + 2] = i;
    stamps[slot] = Date.now();
    const real = message.reals[i];
    const pieces = message.pieces?.[i];
    if (pieces && !collect && !message.spec.multiline) {
      // The index says only these pieces can match (while the file is unchanged).
      const abs = real === "" ? joinRoot(ws.root, rel) : real;
      const parts = ws.readRangesSync(
        abs,
        { size: pieces[0], mtimeMs: pieces[1] },
        pieces.slice(2),
      );
      if (parts !== null) {
        let count = 0;
        for (let k = 0; k < parts.length; k++) {
          const decoder = pieces[2 + 2 * k] === 0 ? firstPieceDecoder : laterPieceDecoder;
          count += m.scanText(decoder.decode(parts[k]), { wantLines: false }).count;
        }
        scanned++;
        if (count > 0) results.push([rel, count]);
        stamps[slot] = 0;
        continue;
      }
    }
    const bytes = ws.readWalkedSync(real === "" ? joinRoot(ws.root, rel) : real, scratch) ??
      (real === "" ? readChecked(ws, rel) : null);
    if (bytes === null) {
      stamps[slot] = 0;
      continue; // vanished or refused meanwhile: not served, so not searched
    }
    if (!collect && !message.spec.multiline && bytes.length > CHUNK_BYTES) {
      // Counting only: decode and scan a large file in line-aligned chunks (less memory).
      const count = countInChunks(bytes, m);
      done(bytes);
      scanned++;
      if (count > 0) results.push([rel, count]);
      stamps[slot] = 0;
      continue;
    }
    const text = decodeForSearch(bytes);
    done(bytes);
    scanned++;
    if (text !== null) {
      const r = m.scanText(text, { wantLines: collect });
      if (r.count > 0) {
        if (collect && r.lines !== undefined) {
          results.push([rel, r.count, contentLines(rel, text, r.lines, message.content)]);
        } else results.push([rel, r.count]);
      }
    }
    stamps[slot] = 0;
  }
  Atomics.add(ints, CTL_SCANNED, scanned);
  if (current(message.job)) {
    post({ t: "searched", job: message.job, batch: message.batch, results, scanned });
  }
}

function list(message: ListMessage): void {
  const ws = workspaceFor(message.ws);
  const entries: ListEntry[] = [];
  let n = 0;
  for (const entry of ws.walk(message.base, { dirs: true, stat: true, maxDepth: message.depth })) {
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
    entries.push([entry.rel, entry.isDir, entry.size, children]);
  }
  post({ t: "listed", job: message.job, entries });
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
    workspaces.clear();
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
    post({ t: "failed", job: message.job, message: text });
  }
};
