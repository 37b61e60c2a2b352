/** One lstat that answers "gone" instead of throwing, for the modules that probe paths. */

/** The lstat of `path` (a link itself, not its target), or null when it cannot be had. */
export function lstatOrNull(path: string): Deno.FileInfo | null {
  try {
    return Deno.lstatSync(path);
  } catch {
    return null;
  }
}

/** True when `path` names an entry (a dangling link counts). */
export function entryExists(path: string): boolean {
  return lstatOrNull(path) !== null;
}
