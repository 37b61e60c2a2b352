/**
 * Ignore rules as ripgrep applies them by default: `.rgignore` over `.ignore` over `.gitignore`
 * over `.git/info/exclude`, the deepest folder first within each kind; `.gitignore` and the
 * exclude file only count inside a git work tree (a `.git` entry in the folder or a parent).
 * Folders above the root contribute their files too (ripgrep's `parents` default), `.gitignore`
 * only up to the work-tree top.
 */
import { IgnoreFile } from "./gitignore.ts";
import { asciiLower, joinRoot } from "./names.ts";
import { log } from "../log.ts";
import { entryExists } from "./lstat.ts";

/** The ignore files of one folder. */
export interface IgnoreLevel {
  /** Prepended to the path after `strip` (levels above the root: the root's path below them). */
  prefix: string;
  /** Characters cut from the front of a root-relative path to make it relative to this folder. */
  strip: number;
  hasGit: boolean;
  rg: IgnoreFile | null;
  ig: IgnoreFile | null;
  gi: IgnoreFile | null;
  ex: IgnoreFile | null;
}

/** The levels that apply inside one folder, shallow to deep. */
export interface IgnoreChain {
  levels: readonly IgnoreLevel[];
  anyGit: boolean;
}

export const EMPTY_CHAIN: IgnoreChain = { levels: [], anyGit: false };

/** Which of the special names a folder holds (from its directory entries). */
export interface IgnorePresence {
  rgignore: boolean;
  ignore: boolean;
  gitignore: boolean;
  git: boolean;
}

/**
 * Bounds of one ignore file (docs/limits.md). A file over them, or one that cannot be read,
 * fails closed: it hides everything it governs, with a note on stderr.
 */
export const MAX_IGNORE_FILE_BYTES = 1024 * 1024;
export const MAX_IGNORE_RULES = 20_000;
export const MAX_IGNORE_PATTERN_STATES = 4096;

/** Parsed ignore files by path, re-used while their identity, size and mtime are unchanged. */
const parsed = new Map<string, { key: string; file: IgnoreFile | null; bytes: number }>();
let parsedBytes = 0;
const PARSED_MAX_BYTES = 32 * 1024 * 1024;
const noted = new Set<string>();
/** Files modified less than this long ago are parsed again on every read. */
const SETTLED_MS = 2000;

function failClosed(path: string, why: string): IgnoreFile {
  if (!noted.has(path) && noted.size < 10_000) {
    noted.add(path);
    log.warn(`Hiding what "${path}" governs: ${why}`);
  }
  return IgnoreFile.closed();
}

/**
 * Reads one ignore file if it is a regular file; null when there is none. One over its bounds or
 * unreadable fails closed (IgnoreFile.closed()).
 */
function readIgnoreFile(path: string): IgnoreFile | null {
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return null;
    }
    return failClosed(path, `it cannot be read (${errorName(error)})`);
  }
  if (!info.isFile) return null;
  if (info.size > MAX_IGNORE_FILE_BYTES) {
    return failClosed(
      path,
      `ignore files over ${MAX_IGNORE_FILE_BYTES / 1024 / 1024} MiB are not read`,
    );
  }
  const key = `${info.dev}:${info.ino}:${info.size}:${info.mtime?.getTime()}`;
  const hit = parsed.get(path);
  if (hit !== undefined && hit.key === key) return hit.file;
  let file: IgnoreFile | null;
  try {
    const bytes = Deno.readFileSync(path);
    if (bytes.length > MAX_IGNORE_FILE_BYTES) {
      return failClosed(
        path,
        `ignore files over ${MAX_IGNORE_FILE_BYTES / 1024 / 1024} MiB are not read`,
      );
    }
    const text = new TextDecoder().decode(bytes);
    file = new IgnoreFile(text, {
      maxRules: MAX_IGNORE_RULES,
      maxStates: MAX_IGNORE_PATTERN_STATES,
    });
  } catch (error) {
    if (error instanceof RangeError) return failClosed(path, error.message);
    if (error instanceof Deno.errors.NotFound) return null;
    return failClosed(path, `it cannot be read (${errorName(error)})`);
  }
  if (file.empty) file = null;
  // Two writes within one clock tick leave the same mtime: only settled files are kept.
  if (Date.now() - (info.mtime?.getTime() ?? 0) < SETTLED_MS) return file;
  if (hit !== undefined) {
    parsedBytes -= hit.bytes;
    parsed.delete(path);
  }
  while (parsedBytes + info.size > PARSED_MAX_BYTES && parsed.size > 0) {
    const [oldest, entry] = parsed.entries().next().value!;
    parsedBytes -= entry.bytes;
    parsed.delete(oldest);
  }
  parsed.set(path, { key, file, bytes: info.size });
  parsedBytes += info.size;
  return file;
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : String(error);
}

/**
 * Loads the level of the folder at `dirAbs`. `presence` (from the folder's entries) saves the
 * failed look-ups; without it every name is tried. Null when the folder adds nothing.
 */
export function loadLevel(
  dirAbs: string,
  where: { prefix: string; strip: number; anyGitAbove: boolean; presence?: IgnorePresence },
): IgnoreLevel | null {
  const p = where.presence;
  const base = dirAbs === "/" ? "" : dirAbs;
  const hasGit = p ? p.git : entryExists(`${base}/.git`);
  const anyGit = where.anyGitAbove || hasGit;
  const rg = !p || p.rgignore ? readIgnoreFile(`${base}/.rgignore`) : null;
  const ig = !p || p.ignore ? readIgnoreFile(`${base}/.ignore`) : null;
  const gi = anyGit && (!p || p.gitignore) ? readIgnoreFile(`${base}/.gitignore`) : null;
  const ex = hasGit ? readIgnoreFile(`${base}/.git/info/exclude`) : null;
  if (!hasGit && rg === null && ig === null && gi === null && ex === null) return null;
  return { prefix: where.prefix, strip: where.strip, hasGit, rg, ig, gi, ex };
}

/** Adds a folder's level (if any) to its parent's chain. */
export function extendChain(chain: IgnoreChain, level: IgnoreLevel | null): IgnoreChain {
  if (level === null) return chain;
  return { levels: [...chain.levels, level], anyGit: chain.anyGit || level.hasGit };
}

/** True when `rel` (root-relative, inside the chain's folder) is ignored. */
export function chainIgnores(chain: IgnoreChain, rel: string, isDir: boolean): boolean {
  const levels = chain.levels;
  if (levels.length === 0) return false;
  const lower = asciiLower(rel);
  let mRg = 0, mIg = 0, mGi = 0, mEx = 0;
  let sawGit = false;
  const anyGit = chain.anyGit;
  for (let i = levels.length - 1; i >= 0; i--) {
    const level = levels[i];
    const path = level.strip === 0 ? level.prefix + lower : level.prefix + lower.slice(level.strip);
    if (mRg === 0 && level.rg !== null) mRg = level.rg.match(path, isDir);
    if (mIg === 0 && level.ig !== null) mIg = level.ig.match(path, isDir);
    if (anyGit && !sawGit) {
      if (mGi === 0 && level.gi !== null) mGi = level.gi.match(path, isDir);
      if (mEx === 0 && level.ex !== null) mEx = level.ex.match(path, isDir);
    }
    if (level.hasGit) sawGit = true;
  }
  return (mRg || mIg || mGi || mEx) === 1;
}

const CACHE_TTL_MS = 2000;
const CACHE_MAX = 50_000;

/**
 * Answers "is this root-relative path ignored?" for single look-ups (resolve), caching each
 * folder's level for a second so a burst of reads does not re-read the same files.
 */
export class IgnoreIndex {
  readonly #root: string;
  #rootChain: IgnoreChain = EMPTY_CHAIN;
  #rootChainAt = -Infinity;
  readonly #cache = new Map<string, { level: IgnoreLevel | null; at: number }>();

  constructor(root: string) {
    this.#root = root;
  }

  /** Drops every cached level: an ignore file was just written. */
  forget(): void {
    this.#cache.clear();
    this.#rootChainAt = -Infinity;
  }

  /** The chain of the root's entries: folders above the root, then the root (re-read every 2 s). */
  rootChain(fresh = false): IgnoreChain {
    const now = performance.now();
    if (!fresh && now - this.#rootChainAt < CACHE_TTL_MS) return this.#rootChain;
    const root = this.#root;
    // Folders above the root, outermost first.
    const above: string[] = [];
    let dir = root;
    while (dir !== "/") {
      dir = dir.slice(0, Math.max(1, dir.lastIndexOf("/")));
      above.unshift(dir);
    }
    // .gitignore above the root counts only inside a work tree, so that is known first.
    const anyGit = [...above, root].some((d) => entryExists(`${d === "/" ? "" : d}/.git`));
    let chain: IgnoreChain = EMPTY_CHAIN;
    for (const d of above) {
      const below = root.slice(d === "/" ? 1 : d.length + 1);
      const level = loadLevel(d, {
        prefix: `${asciiLower(below)}/`,
        strip: 0,
        anyGitAbove: anyGit,
      });
      chain = extendChain(chain, level);
    }
    const rootLevel = loadLevel(root, { prefix: "", strip: 0, anyGitAbove: chain.anyGit });
    this.#rootChain = extendChain(chain, rootLevel);
    this.#rootChainAt = now;
    return this.#rootChain;
  }

  #level(dirRel: string, anyGitAbove: boolean, fresh = false): IgnoreLevel | null {
    const now = performance.now();
    const hit = this.#cache.get(dirRel);
    if (!fresh && hit !== undefined && now - hit.at < CACHE_TTL_MS) return hit.level;
    const level = loadLevel(joinRoot(this.#root, dirRel), {
      prefix: "",
      strip: dirRel.length + 1,
      anyGitAbove,
    });
    if (this.#cache.size >= CACHE_MAX) this.#cache.clear();
    this.#cache.set(dirRel, { level, at: now });
    return level;
  }

  /** The chain that applies to the entries of folder `dirRel`; `fresh` re-reads every file. */
  chainFor(dirRel: string, fresh = false): IgnoreChain {
    let chain = this.rootChain(fresh);
    if (dirRel === "") return chain;
    const segments = dirRel.split("/");
    for (let k = 1; k <= segments.length; k++) {
      const level = this.#level(segments.slice(0, k).join("/"), chain.anyGit, fresh);
      chain = extendChain(chain, level);
    }
    return chain;
  }

  /** True when `rel` or any folder on its way is ignored. */
  ignores(rel: string, isDir: boolean): boolean {
    if (rel === "") return false;
    const segments = rel.split("/");
    let chain = this.rootChain();
    let path = "";
    for (let k = 0; k < segments.length; k++) {
      path = k === 0 ? segments[0] : `${path}/${segments[k]}`;
      const last = k === segments.length - 1;
      if (chainIgnores(chain, path, last ? isDir : true)) return true;
      if (!last) chain = extendChain(chain, this.#level(path, chain.anyGit));
    }
    return false;
  }
}
