/**
 * Renames that never replace what is at the destination (docs/tools.md "move_file"). rename(2)
 * replaces a file silently, and Deno has no renameat2(RENAME_NOREPLACE), so a check before the
 * rename leaves a window in which a file created at the destination is lost. Instead:
 * - a file is linked under its new name first (link(2) fails with EEXIST when the name exists:
 *   the kernel's check and the creation are one step), then its old name is removed. A crash in
 *   between leaves the file under both names, never lost and never over another one;
 * - a folder is renamed onto an empty folder this call has just made with an exclusive mkdir:
 *   rename(2) replaces an empty folder only, so anything created in it meanwhile makes the
 *   rename fail (ENOTEMPTY) and nothing is replaced; a file put in its place fails it too.
 */
import { lstatOrNull } from "../workspace/lstat.ts";

/** The destination existed (or appeared while the move ran): nothing was replaced. */
export class DestinationExists extends Error {
  constructor(path: string) {
    super(`${path} exists`);
    this.name = "DestinationExists";
  }
}

/**
 * Moves the file `from` to `to` unless `to` exists. Where the file system has no hard links
 * (link fails for another reason than EEXIST), it falls back to a rename right after a check,
 * the narrowest window that file system allows.
 */
export async function moveFileNoReplace(from: string, to: string): Promise<void> {
  try {
    await Deno.link(from, to);
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) throw new DestinationExists(to);
    if (lstatOrNull(to) !== null) throw new DestinationExists(to);
    await Deno.rename(from, to);
    return;
  }
  await Deno.remove(from);
}

/** Moves the folder `from` to `to` unless `to` exists (the parent of `to` must exist). */
export async function moveFolderNoReplace(from: string, to: string): Promise<void> {
  try {
    await Deno.mkdir(to);
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) throw new DestinationExists(to);
    throw error;
  }
  try {
    await Deno.rename(from, to);
  } catch (error) {
    // Something was put in the folder made for the move, or in its place: it stays as it is.
    try {
      await Deno.remove(to);
    } catch {
      // not empty, or not ours any more
    }
    const code = (error as { code?: string }).code;
    if (code === "ENOTEMPTY" || code === "EEXIST" || code === "ENOTDIR") {
      throw new DestinationExists(to);
    }
    throw error;
  }
}
