/**
 * A search worker: walks, matches globs, reads and scans files with synchronous calls (no async
 * round trip per small file), and posts results in batches. It checks the control block between
 * files, so a cancelled job stops at the next file; a stuck regex is ended by the pool
 * terminating this worker. The file is the dispatch; SearchWorker holds the state (the control
 * block's slot, worker_slot.ts, and the file scanner, file_scanner.ts).
 */
/// <reference lib="deno.worker" />
import { joinRoot } from "../workspace/names.ts";
import { FolderGuard, FRESH_MS, isUnder, sleepSync } from "../workspace/folder_guard.ts";
import { log } from "../log.ts";
import type { Workspace } from "../workspace/workspace.ts";
import { forgetWorkspaces, workspaceFor } from "../workspace/worker_workspaces.ts";
import { forgetListings } from "../workspace/walk.ts";
import { scopeFilter } from "./scope.ts";
import type { Matcher } from "./matcher.ts";
import { STREAM_FROM_BYTES } from "./stream_scan.ts";
import { FileScanner, type OpenedFile } from "./file_scanner.ts";
import { WorkerSlot } from "./worker_slot.ts";
import type {
  FileResult,
  FromWorker,
  GlobbedFile,
  ListEntry,
  ListMessage,
  SearchMessage,
  ToWorker,
  WalkMessage,
} from "./protocol.ts";

/** Files in the first batch a walk posts (later ones double up to the job's batch size). */
const FIRST_BATCH = 16;

function post(message: FromWorker): void {
  self.postMessage(message);
}

/** This worker's JavaScript heap (FromWorker `heap`): asked once per unit of work, not per file. */
function javaScriptHeap(): number {
  const usage = Deno.memoryUsage();
  return usage.heapTotal + usage.external;
}

function relativeTo(base: string, rel: string): string {
  return base === "" ? rel : rel.slice(base.length + 1);
}

/** The fully checked open, for a path that is not a walked plain file (a single file argument). */
function openChecked(ws: Workspace, rel: string): OpenedFile | null {
  try {
    return ws.openFileSync(rel);
  } catch {
    return null; // vanished or refused: not served, so not searched
  }
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

/**
 * True when `dir`, as this pass's guard recorded it before the open, still has the record the
 * walk took when it listed the file as a plain file ([inode, mtimeMs]): the file is then opened
 * without an lstat of its own (the guard's check after the pass covers the open itself).
 */
function listedUnchanged(guard: FolderGuard, dir: string, listed?: number[] | null): boolean {
  return listed != null && guard.matches(dir, { ino: listed[0], mtimeMs: listed[1] });
}

function filesMessage(
  job: number,
  batch: number,
  files: string[],
  reals: string[],
  folders: (number[] | null)[],
): FromWorker {
  return { t: "files", job, batch, files, reals, folders };
}

function parentOf(abs: string): string {
  const at = abs.lastIndexOf("/");
  return at <= 0 ? "/" : abs.slice(0, at);
}

/** One batch being searched: its message, matcher, and the results found so far. */
interface Batch {
  message: SearchMessage;
  ws: Workspace;
  m: Matcher;
  /** Content lines are still wanted (the batch is not past the page's cutoff). */
  collect: boolean;
  found: Map<number, FileResult>;
}

/** One pass over some files of a batch, under one folder guard (folder_guard.ts). */
interface Pass {
  guard: FolderGuard;
  /** Folders already waited for (changed within FRESH_MS when first seen). */
  waited: Set<string>;
  /** The folder each read file came from, for the guard's verdict. */
  dirOf: Map<number, string>;
}

/** What reading one file gave: whether it was read, and its result. */
interface FileOutcome {
  read: boolean;
  result: FileResult | null;
}

class SearchWorker {
  readonly #slot = new WorkerSlot();
  readonly #scanner = new FileScanner(this.#slot);
  readonly #notedChanging = new Set<string>();

  /** One message from the pool. */
  handle(message: ToWorker): void {
    if (message.t === "init") {
      this.#slot.attach(message.control, message.slot);
      post({ t: "ready" });
      return;
    }
    if (message.t === "forget") {
      forgetWorkspaces();
      forgetListings();
      return;
    }
    if (!this.#slot.current(message.job)) return;
    try {
      if (message.t === "walk") this.#walk(message);
      else if (message.t === "search") this.#search(message);
      else this.#list(message);
    } catch (error) {
      this.#slot.idle();
      const text = error instanceof Error ? error.message : String(error);
      const code = (error as { code?: unknown } | null)?.code;
      post(
        typeof code === "string"
          ? { t: "failed", job: message.job, message: text, code }
          : { t: "failed", job: message.job, message: text },
      );
    } finally {
      // Idle: a stale stamp would let the watchdog kill this worker during a later job.
      this.#slot.idle();
    }
  }

  #walk(message: WalkMessage): void {
    const slot = this.#slot;
    const ws = workspaceFor(message.ws);
    const inScope = scopeFilter(message.base, message.globs, message.typeGlobs);
    const glob = message.kind === "glob";
    let batch: string[] = [];
    let batchReals: string[] = [];
    let batchFolders: (number[] | null)[] = [];
    let globbed: GlobbedFile[] = [];
    let batches = 0;
    let walked = 0;
    // The first batches are small, so that the other workers start searching at once.
    let batchSize = message.rampUp ? Math.min(FIRST_BATCH, message.batchSize) : message.batchSize;
    slot.walking(message.job);
    // glob sorts by mtime, but only the files that match need a stat: the walk itself stats none.
    for (const entry of ws.walk(message.base, { stat: false, folders: !glob })) {
      if ((walked & 15) === 0) slot.touch();
      if (entry.isDir) continue;
      if ((++walked & 255) === 0 && !slot.current(message.job)) return;
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
        batchFolders.push(entry.folder ? [entry.folder.ino, entry.folder.mtimeMs] : null);
        if (batch.length >= batchSize) {
          post(filesMessage(message.job, batches++, batch, batchReals, batchFolders));
          batch = [];
          batchReals = [];
          batchFolders = [];
          batchSize = Math.min(message.batchSize, 2 * batchSize);
        }
      }
    }
    slot.idle();
    if (globbed.length > 0) post({ t: "globbed", job: message.job, entries: globbed });
    if (batch.length > 0) {
      post(filesMessage(message.job, batches++, batch, batchReals, batchFolders));
    }
    post({ t: "walked", job: message.job, batches, walked, heap: javaScriptHeap() });
  }

  /**
   * Searches one batch. Every open is covered by the folder guard (folder_guard.ts): the folders
   * on each file's path are recorded before its open and checked again after the batch; results
   * of files whose path changed meanwhile are dropped and those files read once more.
   */
  #search(message: SearchMessage): void {
    const slot = this.#slot;
    const batch: Batch = {
      message,
      ws: workspaceFor(message.ws),
      m: this.#scanner.matcherFor(message.spec),
      collect: message.mode === "content" && message.batch <= slot.cutoff(),
      found: new Map(),
    };
    slot.searching(message.job, message.batch);
    this.#scanner.takeSkipped();
    let scanned = 0;
    let todo = message.files.map((_, i) => i);
    for (let pass = 0; pass < 2 && todo.length > 0; pass++) {
      const run: Pass = {
        guard: new FolderGuard(batch.ws.root),
        waited: new Set(),
        dirOf: new Map(),
      };
      for (const i of todo) {
        if (!slot.current(message.job)) return;
        const { read, result } = this.#searchFile(batch, run, i);
        if (read) {
          if (pass === 0) scanned++;
          if (result !== null) batch.found.set(i, result);
          else batch.found.delete(i);
        }
        slot.idle();
      }
      todo = this.#changedFiles(run, todo);
      for (const i of todo) batch.found.delete(i);
      if (pass === 1) { for (const i of todo) this.#noteChanging(run.dirOf.get(i)!); }
    }
    this.#report(batch, scanned);
  }

  /** Reads and scans file `i` of the batch, its folder recorded in the pass's guard first. */
  #searchFile(batch: Batch, run: Pass, i: number): FileOutcome {
    const { message, ws } = batch;
    const rel = message.files[i];
    this.#slot.reading(i);
    const real = message.reals[i];
    const abs = real === "" ? joinRoot(ws.root, rel) : real;
    const dir = parentOf(abs);
    let state = run.guard.enter(dir);
    if (state === "fresh" && !run.waited.has(dir)) {
      run.waited.add(dir);
      sleepSync(FRESH_MS + 1);
      state = run.guard.enter(dir);
    }
    let outcome: FileOutcome = { read: false, result: null };
    if (state === "ok") {
      outcome = this.#readPieces(batch, i, abs);
      if (!outcome.read) {
        const listed = listedUnchanged(run.guard, dir, message.folders?.[i]);
        outcome = this.#readWalked(batch, abs, rel, listed);
      }
      if (outcome.read) run.dirOf.set(i, dir);
    } else if (state === "fresh") this.#noteChanging(dir);
    if (!outcome.read && real === "") {
      // A named file reached through an inside link: the fully checked open (its own guard).
      const opened = openChecked(ws, rel);
      if (opened !== null) outcome = this.#scanClosing(batch, opened, rel);
    }
    return outcome;
  }

  /** Only the pieces the index says can match, when it named them and they are few enough. */
  #readPieces(batch: Batch, i: number, abs: string): FileOutcome {
    const { message, ws, m, collect } = batch;
    const pieces = message.pieces?.[i];
    if (!pieces || collect || message.spec.multiline || !boundedPieces(pieces)) {
      return { read: false, result: null };
    }
    const result = this.#scanner.scanPieces(ws, abs, message.files[i], pieces, m, message);
    return result === undefined ? { read: false, result: null } : { read: true, result };
  }

  /**
   * The walked file at `abs`, opened without following links (null: vanished or refused); when
   * its folder is `unchanged` since the walk listed it as a plain file, without an lstat.
   */
  #readWalked(batch: Batch, abs: string, rel: string, unchanged: boolean): FileOutcome {
    const opened = unchanged ? batch.ws.openListedSync(abs) : batch.ws.openWalkedSync(abs);
    return opened === null ? { read: false, result: null } : this.#scanClosing(batch, opened, rel);
  }

  #scanClosing(batch: Batch, opened: OpenedFile, rel: string): FileOutcome {
    try {
      const result = this.#scanner.scanOpened(opened, rel, batch.m, batch.message, batch.collect);
      return { read: true, result };
    } finally {
      opened.file.close();
    }
  }

  /** The files of `todo` whose folders changed during the pass (to be read once more). */
  #changedFiles(run: Pass, todo: readonly number[]): number[] {
    const changed = run.guard.verify();
    if (changed.length === 0) return [];
    return todo.filter((i) => {
      const dir = run.dirOf.get(i);
      return dir !== undefined && changed.some((c) => isUnder(dir, c));
    });
  }

  /** Posts the batch's results in file order, with the files it had to leave out. */
  #report(batch: Batch, scanned: number): void {
    const message = batch.message;
    const results = [...batch.found.entries()].sort((a, b) => a[0] - b[0]).map((e) => e[1]);
    this.#slot.addScanned(scanned);
    const skipped = this.#scanner.takeSkipped();
    if (!this.#slot.current(message.job)) return;
    const searched: FromWorker = {
      t: "searched",
      job: message.job,
      batch: message.batch,
      results,
      scanned,
      heap: javaScriptHeap(),
    };
    if (skipped.length > 0) searched.skipped = skipped;
    post(searched);
  }

  #noteChanging(dir: string): void {
    if (this.#notedChanging.has(dir) || this.#notedChanging.size > 1000) return;
    this.#notedChanging.add(dir);
    log.warn(`Skipped files in ${JSON.stringify(dir)}: the folder kept changing while being read`);
  }

  #list(message: ListMessage): void {
    const slot = this.#slot;
    const ws = workspaceFor(message.ws);
    const entries: ListEntry[] = [];
    let n = 0;
    slot.walking(message.job);
    for (
      const entry of ws.walk(message.base, { dirs: true, stat: true, maxDepth: message.depth })
    ) {
      if ((n & 15) === 0) slot.touch();
      if ((++n & 255) === 0 && !slot.current(message.job)) return;
      if (entry.rel === message.base) continue;
      let children = -1;
      if (entry.isDir) {
        const depth = message.base === ""
          ? entry.rel.split("/").length
          : relativeTo(message.base, entry.rel).split("/").length;
        if (depth >= message.depth) {
          children = 0;
          for (const _ of ws.walk(entry.rel, { dirs: true, maxDepth: 1 })) {
            if (_.rel !== entry.rel) children++;
          }
        }
      }
      entries.push({ rel: entry.rel, isDir: entry.isDir, size: entry.size, children });
    }
    slot.idle();
    post({ t: "listed", job: message.job, entries, heap: javaScriptHeap() });
  }
}

const worker = new SearchWorker();
self.onmessage = (event: MessageEvent<ToWorker>) => worker.handle(event.data);
