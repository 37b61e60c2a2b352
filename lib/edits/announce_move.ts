/**
 * What a moved file tells the session and this thread's caches, for move_file of a file
 * (file_moves.ts) and of a folder (folder_move.ts, file by file): what was shown of it stays
 * shown under its new name, and the old path is gone and the new one made.
 */
import { forgetAfterWrite } from "../workspace/write_target.ts";
import type { Workspace } from "../workspace/workspace.ts";
import type { EditSession } from "./edit_session.ts";

/** A path as the move resolved it: root-relative and real. */
interface Place {
  rel: string;
  abs: string;
}

/** Tells the read tracker, this thread's caches and the session's listeners of one moved file. */
export function announceMove(
  ws: Workspace,
  edits: EditSession,
  move: { from: Place; to: Place },
): void {
  const { from, to } = move;
  edits.reads.rename(from.abs, to.abs);
  const gone = { rel: from.rel, abs: from.abs, created: true, removed: true };
  const made = { rel: to.rel, abs: to.abs, created: true };
  forgetAfterWrite(ws, gone);
  forgetAfterWrite(ws, made);
  edits.written(gone);
  edits.written(made);
}
