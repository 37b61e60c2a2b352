/**
 * The one way the server writes a file (docs/tools.md "How a write happens"): a temporary file in
 * the target's folder (exclusive create, the old file's mode or 0644 minus umask), its bytes,
 * fsync, rename over the target, fsync of the folder. A crash at any moment leaves the old or the
 * new content; a temp file left behind has a name the walk never serves, and the next start
 * removes it (stale_temps.ts: the writer's lock on it died with the writer).
 */
import { tempName } from "../workspace/temp_names.ts";

export interface Written {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
}

/** Checked right before the rename: throws to abandon the write (the temp file is removed). */
export type BeforeRename = () => void;

async function writeAll(file: Deno.FsFile, bytes: Uint8Array): Promise<void> {
  let done = 0;
  while (done < bytes.length) done += await file.write(bytes.subarray(done));
}

/** fsync of a folder, so the rename itself survives a power cut (best effort where refused). */
export async function syncFolder(dir: string): Promise<void> {
  let handle: Deno.FsFile | null = null;
  try {
    handle = await Deno.open(dir, { read: true });
    await handle.sync();
  } catch {
    // Some file systems refuse to fsync a folder; the rename is still atomic.
  } finally {
    handle?.close();
  }
}

/**
 * A temp file written, synced and closed next to its target, not yet renamed over it: `commit`
 * renames it into place (then fsyncs the folder), `abandon` removes it. A batch of files prepares
 * every temp file first, so that a failure before the first rename changes nothing.
 */
export interface PreparedWrite {
  readonly target: string;
  commit(): Promise<Written>;
  abandon(): Promise<void>;
}

/**
 * Writes `bytes` to a temp file in `dir` (the real path of an existing folder) for `name`;
 * `mode` the permission bits to keep (null: a new file, 0644 minus umask).
 */
export async function prepareAtomic(
  dir: string,
  name: string,
  bytes: Uint8Array,
  options: { mode: number | null },
): Promise<PreparedWrite> {
  const base = dir === "/" ? "" : dir;
  const temp = `${base}/${tempName(Deno.pid)}`;
  const target = `${base}/${name}`;
  const file = await Deno.open(temp, {
    write: true,
    createNew: true,
    mode: options.mode ?? 0o644,
  });
  let written: Deno.FileInfo;
  try {
    try {
      // Held until the process ends or the file closes: the start sweep leaves it alone.
      await file.lock(true);
      // The umask may have cleared bits of the old mode: set them exactly.
      if (options.mode !== null) await Deno.chmod(temp, options.mode);
      await writeAll(file, bytes);
      await file.sync();
      // The inode keeps its identity and mtime through the rename.
      written = await file.stat();
    } finally {
      file.close();
    }
  } catch (e) {
    await Deno.remove(temp).catch(() => {});
    throw e;
  }
  let done = false;
  return {
    target,
    async commit(): Promise<Written> {
      if (done) throw new Error("This write was already committed or abandoned");
      try {
        await Deno.rename(temp, target);
      } catch (e) {
        await Deno.remove(temp).catch(() => {});
        throw e;
      } finally {
        done = true;
      }
      await syncFolder(dir);
      return {
        dev: written.dev,
        ino: written.ino ?? 0,
        size: written.size,
        mtimeMs: written.mtime?.getTime() ?? 0,
      };
    },
    async abandon(): Promise<void> {
      if (done) return;
      done = true;
      await Deno.remove(temp).catch(() => {});
    },
  };
}

/**
 * Writes `bytes` to `dir/name` atomically. `dir` is the real path of an existing folder; `mode`
 * the permission bits to keep (null: a new file, 0644 minus umask).
 */
export async function writeAtomic(
  dir: string,
  name: string,
  bytes: Uint8Array,
  options: { mode: number | null; beforeRename?: BeforeRename },
): Promise<Written> {
  const prepared = await prepareAtomic(dir, name, bytes, { mode: options.mode });
  try {
    options.beforeRename?.();
  } catch (e) {
    await prepared.abandon();
    throw e;
  }
  return await prepared.commit();
}
