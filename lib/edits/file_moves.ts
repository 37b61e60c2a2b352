/**
 * delete_file and move_file without the tool dressing (docs/tools.md "delete_file",
 * "move_file"): every path they touch follows the write rules (resolveForWrite), a delete needs
 * the file shown in this session (any page) and unchanged since, a move's destination must not
 * exist; each is one atomic step (unlink, or rename) followed by an fsync of the folders it
 * changed, and then the session's caches hear of it.
 */
import {
  createFolders,
  forgetAfterWrite,
  resolveForWrite,
  type WriteTarget,
} from "../workspace/write_target.ts";
import { WorkspaceError } from "../workspace/errors.ts";
import type { Workspace } from "../workspace/workspace.ts";
import { syncFolder } from "./atomic_write.ts";
import type { EditSession } from "./edit_session.ts";
import { checkCurrent, type EditLimits, EditRefusal, load, type Loaded } from "./operations.ts";
import { lstatOrNull } from "../workspace/lstat.ts";
import { DestinationExists, moveFileNoReplace } from "./no_replace.ts";
import { moveFolder } from "./folder_move.ts";
import { announceMove } from "./announce_move.ts";

export interface DeleteOutcome {
  path: string;
  kind: "file" | "folder";
  /** Size of the deleted file (0 for a folder). */
  bytes: number;
}

export interface MoveOutcome {
  source: string;
  destination: string;
  bytes: number;
  /** Files moved, for a folder. */
  files?: number;
}

function q(text: string): string {
  return JSON.stringify(text);
}

function folderOf(abs: string): string {
  const slash = abs.lastIndexOf("/");
  return slash <= 0 ? "/" : abs.slice(0, slash);
}

/** The file is still the one loaded (same device and inode), right before it is changed. */
function checkSame(target: WriteTarget, loaded: Loaded, verb: string): void {
  const now = lstatOrNull(target.abs);
  if (now === null || now.dev !== loaded.dev || (now.ino ?? 0) !== loaded.ino) {
    throw new EditRefusal(`${target.rel} changed while it was being ${verb}d; read it again`);
  }
}

/** Deletes an empty folder inside the root (the write rules apply to its path). */
async function deleteFolder(
  ws: Workspace,
  edits: EditSession,
  input: string,
): Promise<DeleteOutcome> {
  const { rel, abs } = ws.resolve(input);
  if (rel === "") throw new EditRefusal("Cannot delete the workspace folder itself");
  let count = 0;
  for (const _ of Deno.readDirSync(abs)) {
    count++;
    break;
  }
  if (count > 0) {
    throw new EditRefusal(
      `Cannot delete ${
        q(rel)
      }: the folder is not empty; delete its files first (delete_file removes only files and empty folders)`,
    );
  }
  await edits.locks.run(abs, async () => {
    try {
      await Deno.remove(abs);
    } catch (error) {
      throw new EditRefusal(`Cannot delete ${q(rel)}: ${(error as Error).message}`);
    }
    await syncFolder(folderOf(abs));
  });
  const file = { rel, abs, created: true, removed: true };
  forgetAfterWrite(ws, file);
  edits.written(file);
  return { path: rel, kind: "folder", bytes: 0 };
}

/** delete_file: removes a file shown in this session (or an empty folder). */
export async function deleteFile(
  ws: Workspace,
  edits: EditSession,
  input: string,
  limits: EditLimits,
): Promise<DeleteOutcome> {
  let first: WriteTarget;
  try {
    first = resolveForWrite(ws, input, "delete");
  } catch (error) {
    if (error instanceof WorkspaceError && error.reason === "is-a-directory") {
      return await deleteFolder(ws, edits, input);
    }
    throw error;
  }
  return await edits.locks.run(first.abs, async () => {
    const target = resolveForWrite(ws, input, "delete");
    if (target.info === null) {
      throw new EditRefusal(`Cannot delete ${q(target.rel)}: no such file in the workspace`);
    }
    const loaded = await load(ws, target, "delete", limits);
    await checkCurrent(
      edits,
      target,
      loaded,
      "a file is deleted only after this session was shown it (any page)",
    );
    checkSame(target, loaded, "delete");
    await Deno.remove(target.abs);
    await syncFolder(target.dir);
    edits.reads.forget(target.abs);
    const file = { rel: target.rel, abs: target.abs, created: true, removed: true };
    forgetAfterWrite(ws, file);
    edits.written(file);
    return { path: target.rel, kind: "file", bytes: loaded.bytes.length };
  });
}

/** move_file: renames a file to a path that does not exist yet (creating missing folders). */
export async function moveFile(
  ws: Workspace,
  edits: EditSession,
  request: { source: string; destination: string },
  limits: EditLimits,
): Promise<MoveOutcome> {
  let from: WriteTarget;
  try {
    from = resolveForWrite(ws, request.source, "move");
  } catch (error) {
    if (error instanceof WorkspaceError && error.reason === "is-a-directory") {
      return await moveFolder(ws, edits, request);
    }
    throw error;
  }
  if (from.info === null) {
    throw new EditRefusal(`Cannot move ${q(from.rel)}: no such file in the workspace`);
  }
  const to = resolveForWrite(ws, request.destination, "move to");
  if (to.abs === from.abs) {
    throw new EditRefusal(`Cannot move ${q(from.rel)} onto itself`);
  }
  if (to.info !== null) {
    throw new EditRefusal(
      `Cannot move ${q(from.rel)} to ${
        q(to.rel)
      }: the destination exists; delete it first or choose another name`,
    );
  }
  // Both paths locked, in a fixed order, so that two moves never wait on each other.
  const [a, b] = [from.abs, to.abs].sort();
  return await edits.locks.run(a, () =>
    edits.locks.run(b, async () => {
      const source = resolveForWrite(ws, request.source, "move");
      const destination = resolveForWrite(ws, request.destination, "move to");
      if (source.info === null) {
        throw new EditRefusal(`Cannot move ${q(source.rel)}: no such file in the workspace`);
      }
      if (destination.info !== null) {
        throw new EditRefusal(
          `Cannot move ${q(source.rel)} to ${q(destination.rel)}: the destination exists`,
        );
      }
      const loaded = await load(ws, source, "move", limits);
      await createFolders(destination, "move to");
      checkSame(source, loaded, "move");
      // rename() replaces silently: a move that never replaces (link, then unlink).
      try {
        await moveFileNoReplace(source.abs, destination.abs);
      } catch (error) {
        if (!(error instanceof DestinationExists)) throw error;
        throw new EditRefusal(
          `Cannot move ${q(source.rel)} to ${
            q(destination.rel)
          }: the destination was created meanwhile`,
        );
      }
      await syncFolder(destination.dir);
      if (source.dir !== destination.dir) await syncFolder(source.dir);
      announceMove(ws, edits, { from: source, to: destination });
      return { source: source.rel, destination: destination.rel, bytes: loaded.bytes.length };
    }));
}
