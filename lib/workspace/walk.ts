/**
 * The depth-first walk behind listings: directory-entry types first, a stat or realpath only
 * where needed (symlinks; sizes when asked), ignore matching only where ignore files exist.
 */
import {
  chainIgnores,
  EMPTY_CHAIN,
  extendChain,
  type IgnoreChain,
  type IgnorePresence,
  loadLevel,
} from "./ignore_rules.ts";
import {
  comparePaths,
  hasControlChar,
  isGitName,
  isSecretName,
  normalizeSegments,
  relativeUnder,
} from "./names.ts";
import { isTempName } from "./temp_names.ts";
import type { IgnoreIndex } from "./ignore_rules.ts";
import { log } from "../log.ts";
import { FolderGuard, FRESH_MS, sleepSync } from "./folder_guard.ts";
import { lstatOrNull } from "./lstat.ts";

/** What a walk needs of the workspace it walks. */
export interface WalkScope {
  /** The real root. */
  readonly root: string;
  readonly allowSecrets: boolean;
  /** The ignore rules, or null with --no-ignore. */
  readonly ignoreIndex: IgnoreIndex | null;
  /** Notes once per folder that names in it were skipped (not UTF-8, control characters). */
  noteBadNames(folderRel: string): void;
}

export interface WalkEntry {
  /** Root-relative path with `/`, as named (a file reached through a symlink is its own path). */
  rel: string;
  /** Real absolute path of the entry (of the target, when reached through a symlink). */
  abs: string;
  isDir: boolean;
  /** Of the (followed) target; 0 when stat was not asked. */
  size: number;
  mtimeMs: number;
  /** Identity and change time of the (followed) target, with `stat` (else 0): the stored index. */
  dev?: number;
  ino?: number;
  ctimeMs?: number;
  /**
   * With `folders`, for a plain file (not reached through a file link): the walk's record of the
   * folder it was listed in (WalkOptions `folders`), when the walk has one.
   */
  folder?: FolderRecord;
}

/**
 * A folder's inode and mtime as the walk's folder guard recorded them, older than the listing the
 * walk read by a clock tick (folder_guard.ts): while the folder still has both, none of its
 * entries was created, removed, renamed or replaced since, so a file the listing named as a plain
 * file is still that plain file, not a link.
 */
export interface FolderRecord {
  ino: number;
  mtimeMs: number;
}

export interface WalkOptions {
  /** Keyset resume: only entries strictly after this root-relative path (in walk order). */
  after?: string;
  /** Also yield folders (isDir true), each before its contents. */
  dirs?: boolean;
  /** 1 = only the direct children of the start folder. */
  maxDepth?: number;
  /** Fill size and mtimeMs (a stat per entry); otherwise both stay 0. */
  stat?: boolean;
  /**
   * Fill `folder` on plain files (an lstat per folder whose files are given and that the walk did
   * not record anyway): a search opens such files without an lstat of each (workspace.ts
   * openListedSync).
   */
  folders?: boolean;
  signal?: AbortSignal;
  /** Told of each temp file of an atomic write that the walk skips (the stale-temp sweep). */
  onTemp?: (folderReal: string, name: string) => void;
  /**
   * Told of each folder the walk reads from the disk, right after the read and before any of its
   * entries leaves (the stored index's folder table). Folders resumed from a position (`after`)
   * are not told.
   */
  onFolder?: (folder: ListedFolder) => void;
}

/** A folder as a walk read it. */
export interface ListedFolder {
  /** Named root-relative path. */
  rel: string;
  /** Real absolute path. */
  real: string;
  /** Date.now() right before the read. */
  readAt: number;
  /** Every entry the read gave (served or not), sorted by name; shared, never mutate. */
  entries: readonly Deno.DirEntry[];
}

/** A real folder is entered through folder links at most this often per walk (docs/limits.md). */
export const MAX_LINKED_ENTRIES = 16;

interface Resolved {
  rel: string;
  abs: string;
  info: Deno.FileInfo;
}

interface Frame {
  /** Named root-relative path of the folder. */
  rel: string;
  /** Real absolute path of the folder. */
  real: string;
  /** Root-relative real path (differs from rel below a followed folder symlink). */
  realRel: string;
  depth: number;
  chain: IgnoreChain;
  /** Ignore chain of the real folder, when it differs from the named one. */
  realChain: IgnoreChain | null;
  entries: Deno.DirEntry[];
  i: number;
  /** Remaining `after` segments: entries up to floor[0] were emitted before. */
  floor: string[] | null;
  /** Date.now() right before the folder was read (its guard record must be older). */
  readAt: number;
  /** The folder's record for its files (WalkOptions `folders`): null when it has none. */
  record?: FolderRecord | null;
}

const REPLACEMENT = "\uFFFD";

function byName(a: Deno.DirEntry, b: Deno.DirEntry): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

function child(parent: string, name: string): string {
  return parent === "" ? name : `${parent}/${name}`;
}

function childAbs(parent: string, name: string): string {
  return parent === "/" ? `/${name}` : `${parent}/${name}`;
}

function existsNoFollow(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

function segmentsHit(rel: string, allowSecrets: boolean): boolean {
  if (rel === "") return false;
  for (const segment of rel.split("/")) {
    if (isGitName(segment) || (!allowSecrets && isSecretName(segment))) return true;
  }
  return false;
}

/** The walk from `start` (a folder or a file), in walk order: see Walker. */
export function* walkTree(
  ws: WalkScope,
  start: Resolved,
  options: WalkOptions,
  restarts = 0,
): Generator<WalkEntry> {
  yield* new Walker(ws, start, options, restarts).run();
}

/** One entry of a folder once its type is known (a symlink followed to its target). */
interface Target {
  rel: string;
  /** Real absolute path. */
  abs: string;
  realRel: string;
  isDir: boolean;
  /** The target's stat, when following a link needed one. */
  info: Deno.FileInfo | null;
  /** Reached through a folder link (its real ignore chain differs from the named one). */
  viaLink: boolean;
}

/** Where a walk resumes: the start folder's entries up to `floor` were given before. */
interface Resume {
  after: string | undefined;
  floor: string[] | null;
}

/**
 * One depth-first walk. Each entry goes through the decisions below, cheapest first, as
 * ripgrep's walker does (skip_entry, should_skip_entry, check_symlink_loop, ...): its name
 * alone (`#skipsName`: unreadable names, .git, secrets, temp files), its type and a symlink's
 * target (`#resolve`, with `#linkLoops` and `#linkWeb`), the ignore rules (`#ignored`), then
 * what to do with it (`#resumeInto` for a folder given on an earlier page, `#entryOf` for an
 * entry to give, `#descend` into a folder). The identity guard (folder_guard.ts) records every
 * folder before it is read, and entries leave only after the folders they came through were
 * checked again (`#unchanged`); when one changed, the walk resumes after its last checked
 * entry (`#restart`).
 */
class Walker {
  readonly #ws: WalkScope;
  readonly #start: Resolved;
  readonly #options: WalkOptions;
  readonly #restarts: number;
  readonly #wantDirs: boolean;
  readonly #wantStat: boolean;
  readonly #maxDepth: number;
  readonly #guard: FolderGuard;
  readonly #stack: Frame[] = [];
  /** Entries found and not yet checked (given out at #flushAt, or at the end). */
  #pending: WalkEntry[] = [];
  /**
   * Pending entries that make a check: FIRST_FLUSH_ENTRIES, doubled after each check up to
   * FLUSH_ENTRIES, so that a search starts on the first files while the walk goes on.
   */
  #flushAt = FIRST_FLUSH_ENTRIES;
  /** Folders entered since the last check. */
  #opened: string[] = [];
  #lastYielded: string | undefined;
  #waits = 0;
  /** Real paths of the start's named ancestors: a folder link back to one is a cycle. */
  #baseReals: string[] = [];
  /** How often each real folder was entered through a link in this walk. */
  readonly #linkedEntries = new Map<string, number>();
  #warnedWeb = false;

  constructor(ws: WalkScope, start: Resolved, options: WalkOptions, restarts: number) {
    this.#ws = ws;
    this.#start = start;
    this.#options = options;
    this.#restarts = restarts;
    this.#wantDirs = options.dirs === true;
    this.#wantStat = options.stat === true;
    this.#maxDepth = options.maxDepth ?? Infinity;
    this.#guard = new FolderGuard(ws.root);
    this.#lastYielded = options.after;
  }

  *run(): Generator<WalkEntry> {
    const signal = this.#options.signal;
    signal?.throwIfAborted();
    const resume = this.#resume();
    if (resume === null) return;
    const start = this.#start;
    if (!start.info.isDirectory) {
      const entry = this.#startFile(resume.after);
      if (entry !== null) yield entry;
      return;
    }
    this.#baseReals = this.#ancestorReals();
    const first = this.#open({
      eager: true,
      rel: start.rel,
      real: start.abs,
      realRel: relativeUnder(start.abs, this.#ws.root) ?? start.rel,
      depth: 0,
      chain: this.#ws.ignoreIndex?.chainFor(start.rel, true) ?? EMPTY_CHAIN,
      floor: resume.floor,
    });
    if (first === null) return;
    const stack = this.#stack;
    stack.push(first);
    let count = 0;
    while (stack.length > 0) {
      const f = stack[stack.length - 1];
      if (f.i >= f.entries.length) {
        stack.pop();
        continue;
      }
      const e = f.entries[f.i++];
      if ((++count & 511) === 0) signal?.throwIfAborted();
      if (this.#skipsName(f, e)) continue;
      const target = this.#resolve(f, e);
      if (target === null || this.#ignored(f, e, target)) continue;
      const depth = f.depth + 1;
      if (f.floor !== null && e.name === f.floor[0]) {
        // Given on an earlier page: only its contents may still follow.
        if (!this.#resumeInto(f, target, depth)) return yield* this.#restart();
        continue;
      }
      if (!target.isDir || this.#wantDirs) {
        const entry = this.#entryOf(target);
        if (entry === null) continue; // vanished
        if (this.#options.folders && !target.isDir && target.info === null) {
          const record = this.#recordOf(f);
          if (record !== null) entry.folder = record;
        }
        this.#pending.push(entry);
        if (this.#pending.length >= this.#flushAt) {
          if (!this.#unchanged()) return yield* this.#restart();
          this.#flushAt = Math.min(FLUSH_ENTRIES, 2 * this.#flushAt);
          yield* this.#pending;
          this.#lastYielded = this.#pending[this.#pending.length - 1].rel;
          this.#pending = [];
        }
      }
      if (target.isDir && depth < this.#maxDepth) {
        signal?.throwIfAborted();
        if (!this.#descend(f, target, { depth, eager: false, floor: null })) {
          return yield* this.#restart();
        }
      }
    }
    if (this.#pending.length > 0) {
      if (!this.#unchanged()) return yield* this.#restart();
      yield* this.#pending;
    }
  }

  /** Where to resume (`after`), or null when everything in the start comes before it. */
  #resume(): Resume | null {
    const given = this.#options.after;
    if (given === undefined) return { after: undefined, floor: null };
    const afterSegments = normalizeSegments(given);
    if (afterSegments === null) throw new RangeError(`Invalid walk position "${given}"`);
    const after = afterSegments.join("/");
    const start = this.#start.rel;
    const startSegments = start === "" ? [] : start.split("/");
    const inside = afterSegments.length > startSegments.length &&
      startSegments.every((s, k) => afterSegments[k] === s);
    if (inside) return { after, floor: afterSegments.slice(startSegments.length) };
    return comparePaths(after, start) > 0 ? null : { after, floor: null };
  }

  /** The start itself when it is a file (and not before the resume position), else null. */
  #startFile(after: string | undefined): WalkEntry | null {
    const { rel, abs, info } = this.#start;
    if (!info.isFile || (after !== undefined && comparePaths(after, rel) >= 0)) return null;
    const stat = this.#wantStat;
    return {
      rel,
      abs,
      isDir: false,
      size: stat ? info.size : 0,
      mtimeMs: stat ? info.mtime?.getTime() ?? 0 : 0,
      dev: stat ? info.dev : 0,
      ino: stat ? info.ino ?? 0 : 0,
      ctimeMs: stat ? info.ctime?.getTime() ?? 0 : 0,
    };
  }

  /** Real paths of the root and of the start's named ancestors. */
  #ancestorReals(): string[] {
    const root = this.#ws.root;
    const reals = [root];
    const rel = this.#start.rel;
    if (rel === "") return reals;
    const segments = rel.split("/");
    for (let k = 1; k < segments.length; k++) {
      try {
        reals.push(
          Deno.realPathSync(`${root === "/" ? "" : root}/${segments.slice(0, k).join("/")}`),
        );
      } catch {
        // vanished meanwhile: nothing to compare with
      }
    }
    return reals;
  }

  /** The cheapest decision, on the name alone: names that cannot be served or never are. */
  #skipsName(f: Frame, e: Deno.DirEntry): boolean {
    const name = e.name;
    if (
      (name.includes(REPLACEMENT) && !existsNoFollow(childAbs(f.real, name))) ||
      hasControlChar(name)
    ) {
      this.#ws.noteBadNames(f.rel);
      return true;
    }
    if (name.includes("\\")) return true; // cannot be named back: backslashes are refused on input
    if (isGitName(name) || (!this.#ws.allowSecrets && isSecretName(name))) return true;
    if (isTempName(name)) {
      this.#options.onTemp?.(f.real, name);
      return true;
    }
    return false;
  }

  /** The entry's type, a symlink followed to its target (null: dangling, outside, special). */
  #resolve(f: Frame, e: Deno.DirEntry): Target | null {
    const rel = child(f.rel, e.name);
    const abs = childAbs(f.real, e.name);
    const realRel = child(f.realRel, e.name);
    const viaLink = f.realChain !== null;
    if (e.isFile) return { rel, abs, realRel, isDir: false, info: null, viaLink };
    if (e.isDirectory) return { rel, abs, realRel, isDir: true, info: null, viaLink };
    if (!e.isSymlink) return null; // FIFO, socket, device: never served
    return this.#followLink(rel, abs);
  }

  /** A symlink's target, when it is a served file or folder that closes no loop. */
  #followLink(rel: string, abs: string): Target | null {
    let real: string;
    try {
      real = Deno.realPathSync(abs);
    } catch {
      return null; // dangling
    }
    const rr = relativeUnder(real, this.#ws.root);
    if (rr === null || segmentsHit(rr, this.#ws.allowSecrets)) return null;
    const info = statOrNull(real);
    if (info === null || (!info.isFile && !info.isDirectory)) return null;
    const isDir = info.isDirectory;
    if (this.#ws.ignoreIndex?.ignores(rr, isDir)) return null;
    if (isDir && (this.#linkLoops(real) || this.#linkWeb(real, rr))) return null;
    return { rel, abs: real, realRel: rr, isDir, info, viaLink: rr !== rel };
  }

  /** A folder link back to a folder the walk is inside (or the start's ancestors): a cycle. */
  #linkLoops(real: string): boolean {
    return this.#baseReals.includes(real) || this.#stack.some((s) => s.real === real);
  }

  /**
   * A web of links (each level linking twice to the next) would multiply the paths: a real
   * folder is entered through links at most MAX_LINKED_ENTRIES times per walk.
   */
  #linkWeb(real: string, rr: string): boolean {
    const entered = (this.#linkedEntries.get(real) ?? 0) + 1;
    if (entered > MAX_LINKED_ENTRIES) {
      if (!this.#warnedWeb) {
        this.#warnedWeb = true;
        log.warn(
          `Stopped following folder links to ${
            JSON.stringify(rr)
          }: entered ${MAX_LINKED_ENTRIES} times in one walk`,
        );
      }
      return true;
    }
    this.#linkedEntries.set(real, entered);
    return false;
  }

  /** The ignore rules of the named path, and of the real one below a followed folder link. */
  #ignored(f: Frame, e: Deno.DirEntry, t: Target): boolean {
    if (f.chain.levels.length > 0 && chainIgnores(f.chain, t.rel, t.isDir)) return true;
    return f.realChain !== null && !e.isSymlink && chainIgnores(f.realChain, t.realRel, t.isDir);
  }

  /** Into a folder given on an earlier page, towards the resume position; false: restart. */
  #resumeInto(f: Frame, t: Target, depth: number): boolean {
    if (!t.isDir || depth >= this.#maxDepth) return true;
    const rest = f.floor!.slice(1);
    return this.#descend(f, t, { depth, eager: true, floor: rest.length > 0 ? rest : null });
  }

  /** The entry to give, with its stat when asked; null when it vanished. */
  #entryOf(t: Target): WalkEntry | null {
    const { rel, abs, isDir } = t;
    if (!this.#wantStat) {
      return { rel, abs, isDir, size: 0, mtimeMs: 0, dev: 0, ino: 0, ctimeMs: 0 };
    }
    // Plain entries are no symlinks: lstat answers as stat would, with a little less work.
    const info = t.info ?? lstatOrNull(abs);
    if (info === null) return null;
    return {
      rel,
      abs,
      isDir,
      size: info.size,
      mtimeMs: info.mtime?.getTime() ?? 0,
      dev: info.dev,
      ino: info.ino ?? 0,
      ctimeMs: info.ctime?.getTime() ?? 0,
    };
  }

  /**
   * The guard's record of a frame's folder, taken after its read when the walk did not need one
   * (a folder without subfolders): none when it changed around the read (its files are then
   * opened with their own lstat), and never a record taken after the guard saw a change.
   */
  #recordOf(f: Frame): FolderRecord | null {
    if (f.record !== undefined) return f.record;
    if (this.#guard.seen(f.real) === undefined) this.#guard.enterAt(f.real, f.readAt);
    const seen = this.#guard.seen(f.real);
    f.record = seen === undefined || seen.ino === null
      ? null
      : { ino: seen.ino, mtimeMs: seen.mtimeMs };
    return f.record;
  }

  /** Into a child folder (its parent recorded first); false: restart. */
  #descend(f: Frame, t: Target, at: Pick<FrameAt, "depth" | "eager" | "floor">): boolean {
    if (!this.#enterParent(f)) return false;
    const next = this.#open({
      ...at,
      rel: t.rel,
      real: t.abs,
      realRel: t.realRel,
      chain: f.chain,
      viaLink: t.viaLink,
    });
    if (next !== null) this.#stack.push(next);
    return true;
  }

  #open(at: Omit<FrameAt, "onFolder">): Frame | null {
    return openFrame(this.#ws, (real) => this.#enter(real), this.#guard, {
      ...at,
      onFolder: this.#options.onFolder,
    });
  }

  /** Records a folder before it is read (waiting out a fresh change a few times). */
  #enter(real: string): boolean {
    for (;;) {
      const state = this.#guard.enter(real);
      if (state === "ok") {
        // Swapping this folder for a link renames an entry of its parent: the parent is checked.
        // (A folder's own later changes touch only entries already read: no outside path.)
        this.#opened.push(real.slice(0, Math.max(1, real.lastIndexOf("/"))));
        return true;
      }
      if (state === "bad") return false;
      if (this.#waits >= MAX_FRESH_WAITS) {
        noteChanging(real);
        return false;
      }
      this.#waits++;
      sleepSync(FRESH_MS + 1);
    }
  }

  /**
   * Records a folder that was read without a record (only folders with subfolders need one, so
   * leaves cost no lstat): its mtime must be older than its read, so the listing read then is
   * the folder recorded now. False when it changed around its read (the walk resumes).
   */
  #enterParent(f: Frame): boolean {
    const state = this.#guard.enterAt(f.real, f.readAt);
    if (state !== "ok") return false;
    this.#opened.push(f.real);
    return true;
  }

  /** True when the folders read since the last check, and those on the stack, are unchanged. */
  #unchanged(): boolean {
    const check = new Set(this.#opened);
    for (const frame of this.#stack) check.add(frame.real);
    this.#opened = [];
    return this.#guard.verify(check).length === 0;
  }

  #restart(): Generator<WalkEntry> {
    return restart(this.#ws, this.#start, this.#options, this.#lastYielded, this.#restarts);
  }
}

/** Entries a walk holds before it checks the folders they came through and lets them go. */
const FLUSH_ENTRIES = 1024;
/** The first check comes sooner (a search waits for the walk's first entries). */
const FIRST_FLUSH_ENTRIES = 64;
/** Waits per walk for folders changed within FRESH_MS; after that such folders are skipped. */
const MAX_FRESH_WAITS = 4;
/** A walk whose folders changed under it resumes after its last checked entry this often. */
const MAX_RESTARTS = 3;

const notedChanging = new Set<string>();

function noteChanging(real: string): void {
  if (notedChanging.has(real) || notedChanging.size > 1000) return;
  notedChanging.add(real);
  log.warn(`Skipped ${JSON.stringify(real)} in a walk: the folder kept changing while being read`);
}

/** Resumes a walk after its last checked entry (its folders changed under it), or gives up. */
function* restart(
  ws: WalkScope,
  start: Resolved,
  options: WalkOptions,
  after: string | undefined,
  restarts: number,
): Generator<WalkEntry> {
  if (restarts >= MAX_RESTARTS) {
    noteChanging(start.abs);
    return;
  }
  sleepSync(FRESH_MS + 1); // what changed settles for a clock tick before it is read again
  yield* walkTree(
    ws,
    start,
    { ...options, ...(after === undefined ? {} : { after }) },
    restarts + 1,
  );
}

function statOrNull(path: string): Deno.FileInfo | null {
  try {
    return Deno.statSync(path);
  } catch {
    return null;
  }
}

/** Folders read by a resume keep their sorted listing when this big (a stat checks it is current). */
const CACHED_FOLDER_MIN = 32;
const CACHE_MAX_ENTRIES = 200_000;
const CACHE_TTL_MS = 30_000;
/** Sorted listings by real path, oldest first, so paging does not re-read and re-sort folders. */
const listings = new Map<
  string,
  { ino: number | null; mtimeMs: number; at: number; entries: Deno.DirEntry[] }
>();
let cachedEntries = 0;

/** Drops the cached listing of the folder at `real` (a file was just created in it). */
export function forgetListing(real: string): void {
  forget(real);
}

/** Drops every cached folder listing. */
export function forgetListings(): void {
  listings.clear();
  cachedEntries = 0;
}

function forget(real: string): void {
  const old = listings.get(real);
  if (old === undefined) return;
  cachedEntries -= old.entries.length;
  listings.delete(real);
}

/**
 * The folder's entries sorted by name (shared, never mutate). A resume (`reuse`) may take the
 * listing from the cache while the folder's mtime is unchanged: entries created or deleted
 * meanwhile may then be missed or yielded, which the walk's contract allows for such entries.
 */
function readSorted(
  real: string,
  reuse: boolean,
  seen: { ino: number | null; mtimeMs: number } | undefined,
): Deno.DirEntry[] | null {
  const now = performance.now();
  if (reuse && seen !== undefined) {
    const hit = listings.get(real);
    if (hit !== undefined) {
      // The same folder (inode), unchanged (mtime) since it was listed: the walk's guard recorded
      // both before this read and checks them again before any entry leaves.
      if (now - hit.at < CACHE_TTL_MS && hit.ino === seen.ino && hit.mtimeMs === seen.mtimeMs) {
        return hit.entries;
      }
      forget(real);
    }
  }
  let entries: Deno.DirEntry[];
  try {
    entries = Array.from(Deno.readDirSync(real));
  } catch {
    return null;
  }
  entries.sort(byName);
  entries = dropDuplicateNames(entries);
  if (
    reuse && seen !== undefined && entries.length >= CACHED_FOLDER_MIN &&
    entries.length <= CACHE_MAX_ENTRIES / 2
  ) {
    forget(real);
    while (cachedEntries + entries.length > CACHE_MAX_ENTRIES && listings.size > 0) {
      forget(listings.keys().next().value!);
    }
    listings.set(real, { ino: seen.ino, mtimeMs: seen.mtimeMs, at: now, entries });
    cachedEntries += entries.length;
  }
  return entries;
}

/** Reads and sorts one folder; null when it cannot be read (vanished, no permission). */
/** Which folder a frame is opened for. */
interface FrameAt {
  /** Record the folder before reading it (the start, resumed folders); else its parent is. */
  eager: boolean;
  rel: string;
  real: string;
  realRel: string;
  depth: number;
  /** The chain of the parent (the start: the folder's own chain). */
  chain: IgnoreChain;
  /** Set for children; absent for the start frame, whose chain is already complete. */
  viaLink?: boolean;
  floor: string[] | null;
  onFolder?: (folder: ListedFolder) => void;
}

function openFrame(
  ws: WalkScope,
  enter: (real: string) => boolean,
  guard: FolderGuard,
  at: FrameAt,
): Frame | null {
  if (at.eager && !enter(at.real)) return null;
  const readAt = Date.now();
  let entries = readSorted(at.real, at.floor !== null, guard.seen(at.real));
  if (entries === null) return null;
  if (at.floor === null) at.onFolder?.({ rel: at.rel, real: at.real, readAt, entries });
  const index = ws.ignoreIndex;
  const presence = index !== null && at.viaLink !== undefined ? findPresence(entries) : null;
  if (at.floor !== null) {
    const target = at.floor[0];
    let lo = 0;
    let hi = entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (entries[mid].name < target) lo = mid + 1;
      else hi = mid;
    }
    entries = entries.slice(lo);
  }
  let chain = at.chain;
  let realChain: IgnoreChain | null = null;
  if (index !== null) {
    if (at.viaLink !== undefined) {
      // A child folder: add its own ignore files (found among its entries) to the parent's chain.
      if (presence !== null) {
        chain = extendChain(
          chain,
          loadLevel(at.real, {
            prefix: "",
            strip: at.rel.length + 1,
            anyGitAbove: chain.anyGit,
            presence,
          }),
        );
      }
      if (at.viaLink) realChain = index.chainFor(at.realRel);
    } else if (at.realRel !== at.rel) {
      realChain = index.chainFor(at.realRel);
    }
  } else {
    chain = EMPTY_CHAIN;
  }
  return {
    rel: at.rel,
    real: at.real,
    realRel: at.realRel,
    depth: at.depth,
    chain,
    realChain,
    entries,
    i: 0,
    floor: at.floor,
    readAt,
  };
}

/**
 * Sorted entries without repeated names: a name that is not valid UTF-8 reads back with U+FFFD
 * and may then equal a real name; a path must never be listed twice.
 */
function dropDuplicateNames(sorted: Deno.DirEntry[]): Deno.DirEntry[] {
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i].name === sorted[i - 1].name) {
      return sorted.filter((e, k) => k === 0 || e.name !== sorted[k - 1].name);
    }
  }
  return sorted;
}

/** Which ignore-related names a folder holds; null when none. */
function findPresence(entries: readonly Deno.DirEntry[]): IgnorePresence | null {
  let presence: IgnorePresence | null = null;
  for (const e of entries) {
    const n = e.name;
    if (n.charCodeAt(0) !== 46) continue;
    if (n === ".rgignore" || n === ".ignore" || n === ".gitignore" || n === ".git") {
      presence ??= { rgignore: false, ignore: false, gitignore: false, git: false };
      if (n === ".rgignore") presence.rgignore = true;
      else if (n === ".ignore") presence.ignore = true;
      else if (n === ".gitignore") presence.gitignore = true;
      else presence.git = true;
    }
  }
  return presence;
}
