/**
 * The hook read_file and resources/read call after a successful text read (only with --write):
 * the session remembers what the model saw (docs/tools.md "Read before write").
 */
import { readFullySync, type Workspace } from "../workspace/workspace.ts";
import type { EditSession } from "./edit_session.ts";

/** What the reader saw when it opened the file. */
export interface Seen {
  abs: string;
  size: number;
  mtimeMs: number;
}

/** Records bytes the reader returned whole (resources/read). */
export async function recordBytesRead(
  edits: EditSession,
  seen: Seen,
  bytes: Uint8Array,
): Promise<void> {
  await edits.reads.recordBytes(seen.abs, bytes, seen);
}

/**
 * Records a file read_file returned a page of: its whole content is hashed afresh, and kept only
 * when the file is still as the reader saw it (same size and mtime). Files over `maxBytes` cannot
 * be edited, so they are not hashed.
 */
export async function recordFileRead(
  edits: EditSession,
  ws: Workspace,
  rel: string,
  seen: Seen & { maxBytes: number },
): Promise<void> {
  if (seen.size > seen.maxBytes) return;
  const opened = await ws.openFile(rel);
  let bytes: Uint8Array;
  try {
    if (opened.abs !== seen.abs || opened.size !== seen.size || opened.mtimeMs !== seen.mtimeMs) {
      return;
    }
    bytes = readFullySync(opened.file, new Uint8Array(opened.size));
  } finally {
    opened.file.close();
  }
  if (bytes.length !== seen.size) return;
  await edits.reads.recordBytes(seen.abs, bytes, seen);
}
