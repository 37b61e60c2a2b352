/**
 * The identity guard for the folders on a path (docs/workspace.md, "Confinement" 3; docs/limits.md). Deno has no openat or O_NOFOLLOW, so a folder on the path of an open can be swapped
 * for a symlink to the outside between any check and the open. Swapping a folder for a link
 * means renaming or removing an entry of its parent, which changes the parent's mtime; so:
 *
 * 1. before an open (or a folder read), `enter` records every folder from the root down to the
 *    opened file's folder with lstat: a plain folder (no symlink), its inode and its mtime, and
 *    that mtime is older than one clock tick (FRESH_MS; a change within the same tick would
 *    leave the same mtime, so a folder changed that recently is waited for, or not trusted);
 * 2. after the open and the read, `verify` takes lstat of the same folders again: the same
 *    inodes and mtimes prove that no entry on the path changed in between, so the open went
 *    through the folders that were checked, inside the root.
 *
 * Records are kept for the guard's life (a walk, a batch of reads): an unchanged record is as
 * good as a fresh one for any later open, and one `verify` covers every open before it.
 * Residual limits (documented): an attacker who also restores a folder's mtime (utimes) within
 * the window; file systems whose mtimes do not follow the kernel clock.
 */

/** How old a folder's mtime must be to be trusted: more than a clock tick (HZ >= 100). */
export const FRESH_MS = 25;

interface Seen {
  ino: number | null;
  mtimeMs: number;
}

/** "ok": recorded; "fresh": changed within FRESH_MS, try again later; "bad": not a plain folder. */
export type EnterResult = "ok" | "fresh" | "bad";

function seenNow(path: string): Seen | null {
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(path);
  } catch {
    return null;
  }
  if (!info.isDirectory || info.isSymlink) return null;
  return { ino: info.ino, mtimeMs: info.mtime?.getTime() ?? 0 };
}

export class FolderGuard {
  readonly #root: string;
  readonly #seen = new Map<string, Seen>();

  /** `root`: the real root, absolute and normalised. */
  constructor(root: string) {
    this.#root = root;
  }

  /**
   * Records the folders from the root down to `dirAbs` (a real absolute path inside the root;
   * the root itself included), each at most once per guard.
   */
  enter(dirAbs: string): EnterResult {
    const root = this.#root;
    let at = dirAbs.length;
    // Deepest first, so that known ancestors end the climb early.
    const missing: string[] = [];
    let path = dirAbs;
    for (;;) {
      if (this.#seen.has(path)) break;
      missing.push(path);
      if (path.length <= root.length) break;
      at = path.lastIndexOf("/");
      path = at <= 0 ? "/" : path.slice(0, at);
      if (path.length < root.length) return "bad";
    }
    const now = Date.now();
    for (let k = missing.length - 1; k >= 0; k--) {
      const p = missing[k];
      const seen = seenNow(p);
      if (seen === null) return "bad";
      if (seen.mtimeMs > now - FRESH_MS) return "fresh";
      this.#seen.set(p, seen);
    }
    return "ok";
  }

  /**
   * Records one folder whose parent is recorded, after it was read at `readAt` (Date.now()): it
   * must be a plain folder whose mtime is older than the read by FRESH_MS, so that nothing in
   * it changed since the read ("fresh" otherwise).
   */
  enterAt(dirAbs: string, readAt: number): EnterResult {
    if (this.#seen.has(dirAbs)) return "ok";
    const seen = seenNow(dirAbs);
    if (seen === null) return "bad";
    if (seen.mtimeMs > readAt - FRESH_MS) return "fresh";
    this.#seen.set(dirAbs, seen);
    return "ok";
  }

  /**
   * Takes lstat of the recorded folders again (of those under `only`, when given); returns the
   * ones that changed (they are forgotten, so a later `enter` records them anew).
   */
  verify(only?: Iterable<string>): string[] {
    const changed: string[] = [];
    const paths = only === undefined ? [...this.#seen.keys()] : this.#chainsOf(only);
    for (const path of paths) {
      const before = this.#seen.get(path);
      if (before === undefined) continue;
      const now = seenNow(path);
      if (now === null || now.ino !== before.ino || now.mtimeMs !== before.mtimeMs) {
        changed.push(path);
        this.#seen.delete(path);
      }
    }
    return changed;
  }

  /** The recorded folders on the way to each of `dirs`, once each. */
  #chainsOf(dirs: Iterable<string>): string[] {
    const out = new Set<string>();
    const root = this.#root;
    for (const dir of dirs) {
      let path = dir;
      while (!out.has(path)) {
        out.add(path);
        if (path.length <= root.length) break;
        const at = path.lastIndexOf("/");
        path = at <= 0 ? "/" : path.slice(0, at);
      }
    }
    return [...out];
  }

  /**
   * True when this guard's record of `path` (after `enter`) has `earlier`'s inode and mtime: no
   * entry of the folder was created, removed, renamed or replaced between the two records (an
   * earlier guard's, such as a walk's record of a folder it listed, walk.ts FolderRecord).
   */
  matches(path: string, earlier: { ino: number; mtimeMs: number }): boolean {
    const seen = this.#seen.get(path);
    return seen !== undefined && seen.ino === earlier.ino && seen.mtimeMs === earlier.mtimeMs;
  }

  /** The record of `path` (after `enter`), or undefined. */
  seen(path: string): Readonly<Seen> | undefined {
    return this.#seen.get(path);
  }

  /** Forgets every record (a long-lived guard re-records before its next use). */
  clear(): void {
    this.#seen.clear();
  }
}

/** True when `path` is `folder` or inside it (both absolute and normalised). */
export function isUnder(path: string, folder: string): boolean {
  return path === folder || (path.startsWith(folder) &&
    (folder === "/" || path.charCodeAt(folder.length) === 47));
}

/** Blocks the calling worker for `ms` (Atomics.wait; never on the main thread). */
export function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
