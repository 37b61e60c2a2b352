/**
 * All-or-none writes of several files (rename_symbol with --write): each file by the rules of a
 * single write (docs/tools.md "How a write happens": temp file, fsync, rename, folder fsync; the
 * BOM, line endings and mode kept), and the batch as one: every file is checked to still hold the
 * text the change was computed from, every temp file is written before the first rename, every
 * target is checked again right before the renames, and a rename that fails puts back the files
 * already renamed. Files are locked (in path order) for the whole batch.
 */
import { forgetAfterWrite, resolveForWrite, type WriteTarget } from "../workspace/write_target.ts";
import type { Workspace } from "../workspace/workspace.ts";
import { prepareAtomic, type PreparedWrite, writeAtomic } from "./atomic_write.ts";
import type { EditSession } from "./edit_session.ts";
import { decodeText, encodeText } from "./text_form.ts";

/** One file of a batch: the text the change was computed from, and the text to write. */
export interface BatchFile {
  rel: string;
  /** The file's text without its BOM, as the change read it. */
  before: string;
  /** The new text without a BOM (the file's own BOM is put back). */
  after: string;
}

/** Why a batch was not written; nothing was changed. */
export class BatchRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BatchRefusal";
  }
}

interface Checked {
  file: BatchFile;
  target: WriteTarget;
  old: Uint8Array;
  bytes: Uint8Array;
  mode: number;
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
}

/** Every target resolved for writing, or the refusal of the first that may not be written. */
export function checkTargets(
  ws: Workspace,
  files: readonly BatchFile[],
  verb: string,
): WriteTarget[] {
  return files.map((file) => {
    const target = resolveForWrite(ws, file.rel, verb);
    if (target.info === null) {
      throw new BatchRefusal(
        `Cannot ${verb} "${file.rel}": it no longer exists; nothing was changed`,
      );
    }
    return target;
  });
}

function changed(rel: string): BatchRefusal {
  return new BatchRefusal(
    `"${rel}" changed on disk since it was read for this change; nothing was changed: call again`,
  );
}

/** Reads a target and checks it still holds `file.before`. */
function check(ws: Workspace, file: BatchFile, target: WriteTarget, maxBytes: number): Checked {
  const info = target.info!;
  if (info.size > maxBytes) {
    throw new BatchRefusal(
      `Cannot change "${file.rel}": it is over the ${maxBytes}-byte limit; nothing was changed ` +
        `(the user can raise the limit by restarting the server with --max-read-bytes)`,
    );
  }
  const old = ws.readFileSync(file.rel, { maxBytes: maxBytes + 1 });
  const text = decodeText(old);
  if (typeof text !== "string" || text === "binary" || text === "not-utf8") throw changed(file.rel);
  const bom = text.charCodeAt(0) === 0xfeff;
  if ((bom ? text.slice(1) : text) !== file.before) throw changed(file.rel);
  return {
    file,
    target,
    old,
    bytes: encodeText((bom ? "\uFEFF" : "") + file.after),
    mode: (info.mode ?? 0o644) & 0o7777,
    dev: info.dev,
    ino: info.ino ?? 0,
    size: old.length,
    mtimeMs: info.mtime?.getTime() ?? 0,
  };
}

function stillSame(c: Checked): boolean {
  try {
    const now = Deno.lstatSync(c.target.abs);
    return now.isFile && now.dev === c.dev && (now.ino ?? 0) === c.ino && now.size === c.size &&
      (now.mtime?.getTime() ?? 0) === c.mtimeMs;
  } catch {
    return false;
  }
}

/** Runs `fn` holding the edit lock of every path (taken in path order: no deadlock). */
function withLocks<T>(edits: EditSession, keys: string[], fn: () => Promise<T>): Promise<T> {
  const sorted = [...new Set(keys)].sort();
  const step = (k: number): Promise<T> =>
    k === sorted.length ? fn() : edits.locks.run(sorted[k], () => step(k + 1));
  return step(0);
}

/**
 * Writes every file or none (see the module comment). Throws BatchRefusal (or the WorkspaceError
 * of a target that may not be written) with nothing changed.
 */
export async function writeBatch(
  ws: Workspace,
  edits: EditSession,
  files: readonly BatchFile[],
  options: { verb: string; maxBytes: number },
): Promise<void> {
  const targets = checkTargets(ws, files, options.verb);
  await withLocks(edits, targets.map((t) => t.abs), async () => {
    const checked = files.map((file, k) => check(ws, file, targets[k], options.maxBytes));
    const prepared: PreparedWrite[] = [];
    try {
      for (const c of checked) {
        prepared.push(await prepareAtomic(c.target.dir, c.target.name, c.bytes, { mode: c.mode }));
      }
    } catch (e) {
      await Promise.all(prepared.map((p) => p.abandon()));
      throw new BatchRefusal(
        `Cannot write the change (${(e as Error).message}); nothing was changed`,
      );
    }
    const moved = checked.find((c) => !stillSame(c));
    if (moved !== undefined) {
      await Promise.all(prepared.map((p) => p.abandon()));
      throw changed(moved.file.rel);
    }
    const done: number[] = [];
    for (let k = 0; k < checked.length; k++) {
      try {
        const written = await prepared[k].commit();
        done.push(k);
        await edits.reads.recordBytes(checked[k].target.abs, checked[k].bytes, written);
      } catch (e) {
        await Promise.all(prepared.slice(k + 1).map((p) => p.abandon()));
        await restore(checked, done);
        throw new BatchRefusal(
          `Cannot write "${checked[k].file.rel}" (${(e as Error).message}); the files already ` +
            `written were put back, nothing was changed`,
        );
      }
    }
  });
  for (const target of targets) {
    const file = { rel: target.rel, abs: target.abs, created: false };
    forgetAfterWrite(ws, file);
    edits.written(file);
  }
}

/** Puts back the old bytes of the files already renamed (best effort). */
async function restore(checked: readonly Checked[], done: readonly number[]): Promise<void> {
  for (const k of done) {
    const c = checked[k];
    await writeAtomic(c.target.dir, c.target.name, c.old, { mode: c.mode }).catch(() => {});
  }
}
