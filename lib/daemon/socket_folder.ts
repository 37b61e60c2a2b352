/**
 * Where the daemons' sockets live (docs/architecture.md, "The shared daemon"):
 * `$XDG_RUNTIME_DIR/shipcode-mcp` when that variable names an absolute folder, else
 * `sockets` inside the cache folder. The folder must be the user's own, a real folder (not a
 * symlink) with no permission for group or others; a folder that fails is never used.
 */

import { platformCacheDir } from "../index/store/cache_dir.ts";

/** Unix socket paths are limited to about 104 bytes (macOS) and 108 (Linux). */
export const MAX_SOCKET_PATH = 100;

export interface SocketPaths {
  folder: string;
  /** The socket: a short hash of the key. */
  socket: string;
  /** The lock a starting daemon holds while it checks for a live one and listens. */
  lock: string;
}

function runtimeDir(): string | undefined {
  try {
    const value = Deno.env.get("XDG_RUNTIME_DIR");
    return value !== undefined && value.startsWith("/") ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The socket folder of this user, or why there is none (`noCache`: --no-cache, under which
 * nothing is written in the cache folder).
 */
export function socketFolder(cacheDir: string | null, noCache: boolean): string | { why: string } {
  const runtime = runtimeDir();
  if (runtime !== undefined) return `${runtime}/shipcode-mcp`;
  if (noCache) return { why: "XDG_RUNTIME_DIR is not set and --no-cache writes nothing" };
  const cache = cacheDir ?? platformCacheDir();
  if (cache === null) return { why: "neither XDG_RUNTIME_DIR nor a cache folder is known" };
  return `${cache}/sockets`;
}

export function socketPaths(folder: string, keyHash: string): SocketPaths | { why: string } {
  const name = keyHash.slice(0, 20);
  const socket = `${folder}/${name}.sock`;
  if (new TextEncoder().encode(socket).length > MAX_SOCKET_PATH) {
    return { why: `the socket path ${socket} is longer than ${MAX_SOCKET_PATH} bytes` };
  }
  return { folder, socket, lock: `${folder}/${name}.lock` };
}

/**
 * Null when `folder` is fit for sockets (exists, a folder and not a symlink, owned by `uid`, no
 * group or other permission bits), else why not, in one sentence.
 */
export function checkFolder(folder: string, uid: number): string | null {
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(folder);
  } catch (error) {
    return `the socket folder ${folder} cannot be read (${
      error instanceof Error ? error.name : String(error)
    })`;
  }
  if (info.isSymlink) return `the socket folder ${folder} is a symlink`;
  if (!info.isDirectory) return `the socket folder ${folder} is not a folder`;
  if (info.uid !== uid) return `the socket folder ${folder} belongs to another user`;
  if (info.mode === null || (info.mode & 0o077) !== 0) {
    return `the socket folder ${folder} is open to other users (mode ${
      ((info.mode ?? 0) & 0o777).toString(8)
    }, needs 700)`;
  }
  return null;
}

/** Makes the folder (mode 0700) when it is missing, then checks it; null when fit, else why. */
export function ensureFolder(folder: string, uid: number): string | null {
  try {
    Deno.lstatSync(folder);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) return checkFolder(folder, uid);
    try {
      Deno.mkdirSync(folder, { recursive: true, mode: 0o700 });
    } catch (made) {
      return `the socket folder ${folder} cannot be made (${
        made instanceof Error ? made.message : String(made)
      })`;
    }
  }
  return checkFolder(folder, uid);
}

/** Why a folder that exists fails the checks (null: fit, or missing: the daemon makes it). */
export function existingFolderProblem(folder: string, uid: number): string | null {
  try {
    Deno.lstatSync(folder);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
  }
  return checkFolder(folder, uid);
}
