/**
 * move_file of a folder (docs/tools.md "move_file"): the folder and everything in it move in one
 * rename that never replaces anything (no_replace.ts). Every path the move touches follows the
 * write rules, under both names: each file inside must be one move_file would move by itself
 * (inside the root, a regular file, not `.git`, not a secret, not ignored, not a temp file; its
 * content is not read), and no symbolic link or special file may be inside (a relative link would
 * point elsewhere once moved). What was shown of each file stays shown under its new name, and
 * every cache hears of each file that moved.
 */
import { createFolders, resolveForWrite, type WriteTarget } from "../workspace/write_target.ts";
import { WorkspaceError } from "../workspace/errors.ts";
import { forgetListing } from "../workspace/walk.ts";
import { lstatOrNull } from "../workspace/lstat.ts";
import type { Workspace } from "../workspace/workspace.ts";
import { syncFolder } from "./atomic_write.ts";
import type { EditSession } from "./edit_session.ts";
import { EditRefusal } from "./operations.ts";
import { DestinationExists, moveFolderNoReplace } from "./no_replace.ts";
import { announceMove } from "./announce_move.ts";

/** Entries (files and folders) a folder move takes at most. */
export const MAX_FOLDER_ENTRIES = 5000;

export interface FolderMoveOutcome {
  source: string;
  destination: string;
  bytes: number;
  files: number;
}

/** What the folder holds, root-relative to it: files with sizes, and folders. */
interface Contents {
  files: { sub: string; size: number }[];
  folders: string[];
}

function q(text: string): string {
  return JSON.stringify(text);
}

/** Lists `abs` recursively without following links; refuses links, special files, too many. */
function contentsOf(abs: string, rel: string): Contents {
  const out: Contents = { files: [], folders: [] };
  const pending = [""];
  while (pending.length > 0) {
    const sub = pending.pop()!;
    for (const entry of Deno.readDirSync(sub === "" ? abs : `${abs}/${sub}`)) {
      const path = sub === "" ? entry.name : `${sub}/${entry.name}`;
      if (out.files.length + out.folders.length >= MAX_FOLDER_ENTRIES) {
        throw new EditRefusal(
          `Cannot move ${q(rel)}: it holds more than ${MAX_FOLDER_ENTRIES} files and folders; ` +
            "move its subfolders one at a time",
        );
      }
      if (entry.isSymlink || (!entry.isFile && !entry.isDirectory)) {
        throw new EditRefusal(
          `Cannot move ${q(rel)}: ${q(`${rel}/${path}`)} is ${
            entry.isSymlink ? "a symbolic link" : "not a regular file"
          }, and a folder is moved only with files and folders in it`,
        );
      }
      if (entry.isDirectory) {
        out.folders.push(path);
        pending.push(path);
      } else {
        const info = lstatOrNull(`${abs}/${path}`);
        out.files.push({ sub: path, size: info?.size ?? 0 });
      }
    }
  }
  return out;
}

/** Every file's old and new path through the write rules (a refusal names the path). */
function checkFiles(
  ws: Workspace,
  names: { source: string; destination: string },
  contents: Contents,
): { from: WriteTarget; to: WriteTarget }[] {
  const pairs: { from: WriteTarget; to: WriteTarget }[] = [];
  const check = (path: string, verb: string) => {
    const target = resolveForWrite(ws, path, verb);
    if (verb === "move to" && target.info !== null) {
      throw new EditRefusal(`Cannot move ${q(names.source)}: ${q(path)} exists`);
    }
    return target;
  };
  for (const { sub } of contents.files) {
    pairs.push({
      from: check(`${names.source}/${sub}`, "move"),
      to: check(`${names.destination}/${sub}`, "move to"),
    });
  }
  // A folder inside: served as named (not ignored, secret or `.git`), and not ignored once moved.
  for (const sub of contents.folders) {
    ws.resolve(`${names.source}/${sub}`);
    refuseIgnored(ws, names.source, `${names.destination}/${sub}`);
  }
  return pairs;
}

/** Folder-only ignore rules (`build/`) judge a folder's new path as a folder. */
function refuseIgnored(ws: Workspace, source: string, destination: string): void {
  if (ws.isIgnored(destination, true)) {
    throw new EditRefusal(
      `Cannot move ${q(source)} to ${q(destination)}: the path is excluded by ignore rules, ` +
        "so it would not be served (only the user can lift them, by restarting the server " +
        "with --no-ignore)",
    );
  }
}

/** The source folder: inside the root, not the root, not a link, and served. */
function sourceFolder(ws: Workspace, input: string): { rel: string; abs: string } {
  const { rel, abs } = ws.resolve(input);
  if (rel === "") throw new EditRefusal("Cannot move the workspace folder itself");
  const named = lstatOrNull(`${ws.root}/${rel}`);
  if (named === null || named.isSymlink || !named.isDirectory) {
    throw new EditRefusal(`Cannot move ${q(rel)}: it is a symbolic link; move the folder it names`);
  }
  return { rel, abs };
}

/** The destination as a new path, absent, and not inside the folder it would take. */
function destinationFolder(
  ws: Workspace,
  source: { rel: string; abs: string },
  input: string,
): WriteTarget {
  let to: WriteTarget;
  try {
    to = resolveForWrite(ws, input, "move to");
  } catch (error) {
    if (error instanceof WorkspaceError && error.reason === "is-a-directory") {
      throw new EditRefusal(
        `Cannot move ${q(source.rel)} to ${q(input)}: the destination exists; ` +
          "give the new path of the folder itself (it must not exist)",
      );
    }
    throw error;
  }
  if (to.info !== null) {
    throw new EditRefusal(
      `Cannot move ${q(source.rel)} to ${q(to.rel)}: the destination exists; ` +
        "delete it first or choose another name",
    );
  }
  refuseIgnored(ws, source.rel, to.rel);
  if (to.abs === source.abs || to.abs.startsWith(`${source.abs}/`)) {
    throw new EditRefusal(`Cannot move ${q(source.rel)} into itself (${q(to.rel)})`);
  }
  return to;
}

/** Tells the session and every cache what moved: each file gone and made, each folder. */
function announce(
  ws: Workspace,
  edits: EditSession,
  pairs: readonly { from: WriteTarget; to: WriteTarget }[],
  folders: { from: string; to: string; subs: readonly string[] },
): void {
  for (const pair of pairs) announceMove(ws, edits, pair);
  for (const base of [folders.from, folders.to]) {
    forgetListing(base.slice(0, base.lastIndexOf("/")) || "/");
    forgetListing(base);
    for (const sub of folders.subs) forgetListing(`${base}/${sub}`);
  }
}

/** move_file of a folder: see the module comment. */
export async function moveFolder(
  ws: Workspace,
  edits: EditSession,
  request: { source: string; destination: string },
): Promise<FolderMoveOutcome> {
  const first = sourceFolder(ws, request.source);
  const firstTo = destinationFolder(ws, first, request.destination);
  // Both paths locked, in a fixed order, so that two moves never wait on each other.
  const [a, b] = [first.abs, firstTo.abs].sort();
  return await edits.locks.run(a, () =>
    edits.locks.run(b, async () => {
      const source = sourceFolder(ws, request.source);
      const to = destinationFolder(ws, source, request.destination);
      const contents = contentsOf(source.abs, source.rel);
      const pairs = checkFiles(ws, { source: source.rel, destination: to.rel }, contents);
      await createFolders(to, "move to");
      try {
        await moveFolderNoReplace(source.abs, to.abs);
      } catch (error) {
        if (!(error instanceof DestinationExists)) throw error;
        throw new EditRefusal(
          `Cannot move ${q(source.rel)} to ${q(to.rel)}: the destination was created meanwhile`,
        );
      }
      const sourceDir = source.abs.slice(0, source.abs.lastIndexOf("/")) || "/";
      await syncFolder(to.dir);
      if (sourceDir !== to.dir) await syncFolder(sourceDir);
      announce(ws, edits, pairs, { from: source.abs, to: to.abs, subs: contents.folders });
      return {
        source: source.rel,
        destination: to.rel,
        bytes: contents.files.reduce((sum, f) => sum + f.size, 0),
        files: contents.files.length,
      };
    }));
}
