/**
 * Where the stored index lives: --cache-dir, else the platform's cache folder. Chosen once at
 * start, before the process gives up its write permission; a folder that cannot be used (inside
 * the served root, not creatable, no write permission) leaves the index in memory, with one note.
 */
import { relativeUnder } from "../../workspace/names.ts";

export const CACHE_NAME = "shipcode-mcp";

/** The variables read here (and granted by `--allow-env` in deno.json, with HOME). */
export const CACHE_ENV = ["XDG_CACHE_HOME", "LOCALAPPDATA", "HOME"] as const;

export interface CacheChoice {
  /** The real path of the cache folder, or null: the index stays in memory. */
  dir: string | null;
  /** Why there is no cache folder ("" when none was wanted). */
  note: string;
}

function env(name: (typeof CACHE_ENV)[number]): string | undefined {
  try {
    const value = Deno.env.get(name);
    return value === undefined || value === "" ? undefined : value;
  } catch {
    return undefined; // not granted: as if unset
  }
}

/** The platform's default cache folder for shipcode-mcp, or null when nothing says where. */
export function platformCacheDir(os: string = Deno.build.os): string | null {
  if (os === "windows") {
    const local = env("LOCALAPPDATA");
    return local === undefined ? null : `${local}\\${CACHE_NAME}`;
  }
  const home = env("HOME");
  if (os === "darwin") return home === undefined ? null : `${home}/Library/Caches/${CACHE_NAME}`;
  const xdg = env("XDG_CACHE_HOME");
  if (xdg !== undefined && xdg.startsWith("/")) return `${xdg}/${CACHE_NAME}`;
  return home === undefined ? null : `${home}/.cache/${CACHE_NAME}`;
}

function absolute(path: string): string {
  if (path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path)) return path;
  return `${Deno.cwd()}/${path}`;
}

/** The real path of `path`, resolving its deepest existing ancestor (the rest may not exist). */
function realish(path: string): string {
  const segments = path.split("/");
  for (let n = segments.length; n > 1; n--) {
    try {
      const real = Deno.realPathSync(segments.slice(0, n).join("/") || "/");
      const rest = segments.slice(n).join("/");
      return rest === "" ? real : `${real === "/" ? "" : real}/${rest}`;
    } catch {
      // not there yet: one level up
    }
  }
  return path;
}

function insideRoot(path: string, root: string): boolean {
  return relativeUnder(path, root) !== null;
}

/**
 * Chooses and creates (mode 0700) the cache folder for a session serving `root` (a real path).
 * Runs while the process still holds its launch permissions.
 */
export function chooseCacheDir(
  options: { cacheDir: string | null; noCache: boolean; noIndex: boolean },
  root: string | null,
): CacheChoice {
  if (options.noCache || options.noIndex || root === null) return { dir: null, note: "" };
  const given = options.cacheDir ?? platformCacheDir();
  if (given === null) {
    return {
      dir: null,
      note: "No cache folder (HOME is not set): the index stays in memory; give --cache-dir DIR",
    };
  }
  const dir = absolute(given);
  const memory = "the index stays in memory";
  if (insideRoot(realish(dir), root)) {
    return {
      dir: null,
      note: `The cache folder "${dir}" is inside the served folder: ${memory}; ` +
        "give --cache-dir outside it",
    };
  }
  if (Deno.permissions.querySync({ name: "write", path: dir }).state !== "granted") {
    return {
      dir: null,
      note: `No write permission for the cache folder "${dir}" (start with the flags of ` +
        `deno.json): ${memory}`,
    };
  }
  let real: string;
  try {
    Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
    real = Deno.realPathSync(dir);
    if (!Deno.statSync(real).isDirectory) throw new Error("not a folder");
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { dir: null, note: `The cache folder "${dir}" cannot be used (${why}): ${memory}` };
  }
  if (insideRoot(real, root)) {
    return {
      dir: null,
      note: `The cache folder "${dir}" is inside the served folder: ${memory}; ` +
        "give --cache-dir outside it",
    };
  }
  return { dir: real, note: "" };
}
