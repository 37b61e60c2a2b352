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

export function* walkTree(
  ws: WalkScope,
  start: Resolved,
  options: WalkOptions,
  restarts = 0,
): Generator<WalkEntry> {
  const signal = options.signal;
  signal?.throwIfAborted();
  const root = ws.root;
  const allowSecrets = ws.allowSecrets;
  const index = ws.ignoreIndex;
  const wantDirs = options.dirs === true;
  const wantStat = options.stat === true;
  const maxDepth = options.maxDepth ?? Infinity;

  // Where to resume.
  let floor: string[] | null = null;
  let after: string | undefined;
  if (options.after !== undefined) {
    const afterSegments = normalizeSegments(options.after);
    if (afterSegments === null) throw new RangeError(`Invalid walk position "${options.after}"`);
    after = afterSegments.join("/");
    const startSegments = start.rel === "" ? [] : start.rel.split("/");
    const inside = afterSegments.length > startSegments.length &&
      startSegments.every((s, k) => afterSegments[k] === s);
    if (inside) {
      floor = afterSegments.slice(startSegments.length);
    } else if (comparePaths(after, start.rel) > 0) {
      return; // everything in the start folder comes before `after`
    }
  }

  if (!start.info.isDirectory) {
    if (!start.info.isFile || (after !== undefined && comparePaths(after, start.rel) >= 0)) return;
    yield {
      rel: start.rel,
      abs: start.abs,
      isDir: false,
      size: wantStat ? start.info.size : 0,
      mtimeMs: wantStat ? start.info.mtime?.getTime() ?? 0 : 0,
      dev: wantStat ? start.info.dev : 0,
      ino: wantStat ? start.info.ino ?? 0 : 0,
      ctimeMs: wantStat ? start.info.ctime?.getTime() ?? 0 : 0,
    };
    return;
  }

  // Real paths of the start's named ancestors: a folder symlink back to one of them is a cycle.
  const baseReals: string[] = [root];
  if (start.rel !== "") {
    const segments = start.rel.split("/");
    for (let k = 1; k < segments.length; k++) {
      try {
        baseReals.push(
          Deno.realPathSync(`${root === "/" ? "" : root}/${segments.slice(0, k).join("/")}`),
        );
      } catch {
        // vanished meanwhile: nothing to compare with
      }
    }
  }

  const stack: Frame[] = [];
  // The identity guard (folder_guard.ts): every folder is recorded before it is read, and
  // entries leave only after the folders they came through were checked again.
  const guard = new FolderGuard(root);
  let pending: WalkEntry[] = [];
  let opened: string[] = [];
  let lastYielded: string | undefined = options.after;
  let waits = 0;
  const enter = (real: string): boolean => {
    for (;;) {
      const state = guard.enter(real);
      if (state === "ok") {
        // Swapping this folder for a link renames an entry of its parent: the parent is checked.
        // (A folder's own later changes touch only entries already read: no outside path.)
        opened.push(real.slice(0, Math.max(1, real.lastIndexOf("/"))));
        return true;
      }
      if (state === "bad") return false;
      if (waits >= MAX_FRESH_WAITS) {
        noteChanging(real);
        return false;
      }
      waits++;
      sleepSync(FRESH_MS + 1);
    }
  };
  /**
   * Records a folder that was read without a record (only folders with subfolders need one, so
   * leaves cost no lstat): its mtime must be older than its read, so the listing read then is
   * the folder recorded now. False when it changed around its read (the walk resumes).
   */
  const enterParent = (f: Frame): boolean => {
    const state = guard.enterAt(f.real, f.readAt);
    if (state !== "ok") return false;
    opened.push(f.real);
    return true;
  };
  /** True when the folders read since the last check, and those on the stack, are unchanged. */
  const unchanged = (): boolean => {
    const check = new Set(opened);
    for (const frame of stack) check.add(frame.real);
    opened = [];
    return guard.verify(check).length === 0;
  };
  /** How often each real folder was entered through a link in this walk. */
  const linkedEntries = new Map<string, number>();
  let warnedWeb = false;
  const startRealRel = relativeUnder(start.abs, root) ?? start.rel;
  const first = openFrame(ws, enter, guard, {
    eager: true,
    rel: start.rel,
    real: start.abs,
    realRel: startRealRel,
    depth: 0,
    chain: index === null ? EMPTY_CHAIN : index.chainFor(start.rel, true),
    floor,
    onFolder: options.onFolder,
  });
  if (first === null) return;
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
    const name = e.name;

    if (
      (name.includes(REPLACEMENT) && !existsNoFollow(childAbs(f.real, name))) ||
      hasControlChar(name)
    ) {
      ws.noteBadNames(f.rel);
      continue;
    }
    if (name.includes("\\")) continue; // cannot be named back: backslashes are refused on input
    if (isGitName(name) || (!allowSecrets && isSecretName(name))) continue;
    if (isTempName(name)) {
      options.onTemp?.(f.real, name);
      continue;
    }

    const rel = child(f.rel, name);
    let abs = childAbs(f.real, name);
    let realRel = child(f.realRel, name);
    let isDir: boolean;
    let info: Deno.FileInfo | null = null;
    let viaLink = f.realChain !== null;
    if (e.isFile) {
      isDir = false;
    } else if (e.isDirectory) {
      isDir = true;
    } else if (e.isSymlink) {
      let real: string;
      try {
        real = Deno.realPathSync(abs);
      } catch {
        continue; // dangling
      }
      const rr = relativeUnder(real, root);
      if (rr === null || segmentsHit(rr, allowSecrets)) continue;
      info = statOrNull(real);
      if (info === null) continue;
      if (info.isFile) isDir = false;
      else if (info.isDirectory) isDir = true;
      else continue;
      if (index !== null && index.ignores(rr, isDir)) continue;
      if (isDir && (baseReals.includes(real) || stack.some((s) => s.real === real))) continue;
      if (isDir) {
        // A web of links (each level linking twice to the next) would multiply the paths.
        const entered = (linkedEntries.get(real) ?? 0) + 1;
        if (entered > MAX_LINKED_ENTRIES) {
          if (!warnedWeb) {
            warnedWeb = true;
            log.warn(
              `Stopped following folder links to ${
                JSON.stringify(rr)
              }: entered ${MAX_LINKED_ENTRIES} times in one walk`,
            );
          }
          continue;
        }
        linkedEntries.set(real, entered);
      }
      abs = real;
      realRel = rr;
      viaLink = rr !== rel;
    } else {
      continue; // FIFO, socket, device: never served
    }

    if (f.chain.levels.length > 0 && chainIgnores(f.chain, rel, isDir)) continue;
    if (f.realChain !== null && !e.isSymlink && chainIgnores(f.realChain, realRel, isDir)) continue;

    const depth = f.depth + 1;
    const atFloor = f.floor !== null && name === f.floor[0];
    if (atFloor) {
      // Emitted on an earlier page: only its contents may still follow.
      if (isDir && depth < maxDepth) {
        const rest = f.floor!.slice(1);
        if (!enterParent(f)) {
          yield* restart(ws, start, options, lastYielded, restarts);
          return;
        }
        const next = openFrame(ws, enter, guard, {
          eager: true,
          rel,
          real: abs,
          realRel,
          depth,
          chain: f.chain,
          viaLink,
          floor: rest.length > 0 ? rest : null,
          onFolder: options.onFolder,
        });
        if (next !== null) stack.push(next);
      }
      continue;
    }

    if (!isDir || wantDirs) {
      let size = 0;
      let mtimeMs = 0;
      let dev = 0;
      let ino = 0;
      let ctimeMs = 0;
      if (wantStat) {
        // Plain entries are no symlinks: lstat answers as stat would, with a little less work.
        info ??= lstatOrNull(abs);
        if (info === null) continue; // vanished
        size = info.size;
        mtimeMs = info.mtime?.getTime() ?? 0;
        dev = info.dev;
        ino = info.ino ?? 0;
        ctimeMs = info.ctime?.getTime() ?? 0;
      }
      pending.push({ rel, abs, isDir, size, mtimeMs, dev, ino, ctimeMs });
      if (pending.length >= FLUSH_ENTRIES) {
        if (!unchanged()) {
          yield* restart(ws, start, options, lastYielded, restarts);
          return;
        }
        for (const entry of pending) yield entry;
        lastYielded = pending[pending.length - 1].rel;
        pending = [];
      }
    }
    if (isDir && depth < maxDepth) {
      signal?.throwIfAborted();
      if (!enterParent(f)) {
        yield* restart(ws, start, options, lastYielded, restarts);
        return;
      }
      const next = openFrame(ws, enter, guard, {
        eager: false,
        rel,
        real: abs,
        realRel,
        depth,
        chain: f.chain,
        viaLink,
        floor: null,
        onFolder: options.onFolder,
      });
      if (next !== null) stack.push(next);
    }
  }
  if (pending.length > 0) {
    if (!unchanged()) {
      yield* restart(ws, start, options, lastYielded, restarts);
      return;
    }
    yield* pending;
  }
}

/** Entries a walk holds before it checks the folders they came through and lets them go. */
const FLUSH_ENTRIES = 1024;
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
function openFrame(
  ws: WalkScope,
  enter: (real: string) => boolean,
  guard: FolderGuard,
  at: {
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
  },
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
