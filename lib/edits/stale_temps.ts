/**
 * Removes temp files that an atomic write left behind when its process died (docs/tools.md "How
 * a write happens"). They are never served meanwhile; this only tidies up. A writer holds an
 * exclusive lock on its temp file until the rename, and the kernel drops the lock when the
 * process dies: a temp file whose lock can be taken is stale. Runs once at start with --write, in
 * short slices between requests.
 */
import { isTempName } from "../workspace/temp_names.ts";
import type { Workspace } from "../workspace/workspace.ts";
import { log } from "../log.ts";

const SLICE_MS = 8;
const ENTRIES_PER_CHECK = 256;

/** Removes the temp file at `path` when no live writer holds it; true when removed. */
export function removeIfStale(path: string): boolean {
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(path, { read: true });
  } catch {
    return false;
  }
  try {
    if (!file.tryLockSync(true)) return false; // a live writer holds it
    Deno.removeSync(path);
    return true;
  } catch {
    return false;
  } finally {
    file.close();
  }
}

/** Walks the served tree and removes stale temp files; resolves with how many were removed. */
export function sweepStaleTemps(ws: Workspace, signal?: AbortSignal): Promise<number> {
  let removed = 0;
  const walk = ws.walk("", {
    onTemp(folder, name) {
      if (!isTempName(name)) return;
      if (removeIfStale(folder === "/" ? `/${name}` : `${folder}/${name}`)) removed++;
    },
  });
  return new Promise((resolve) => {
    const slice = () => {
      const until = performance.now() + SLICE_MS;
      try {
        for (;;) {
          if (signal?.aborted) return resolve(removed);
          for (let i = 0; i < ENTRIES_PER_CHECK; i++) {
            if (walk.next().done) {
              if (removed > 0) log.info(`Removed ${removed} stale temp file(s) of earlier writes`);
              return resolve(removed);
            }
          }
          if (performance.now() >= until) break;
        }
      } catch {
        return resolve(removed); // the root vanished: nothing to tidy
      }
      setTimeout(slice, 0);
    };
    slice();
  });
}
