/**
 * Names of the temporary files an atomic write creates next to its target (docs/workspace.md
 * "Writes"): `.shipcode-write-<pid>-<random>.tmp`. Walks skip them and paths naming them are
 * refused, so a temp file is never served, even one left behind by a crash.
 */

const PREFIX = ".shipcode-write-";
const SUFFIX = ".tmp";

/** True for a name of the temp-file pattern (the walk skips these; paths may not name them). */
export function isTempName(name: string): boolean {
  return name.length > PREFIX.length && name.startsWith(PREFIX) && name.endsWith(SUFFIX);
}

/** A fresh temp name for this process. */
export function tempName(pid: number): string {
  const random = new Uint8Array(8);
  crypto.getRandomValues(random);
  let hex = "";
  for (const b of random) hex += b.toString(16).padStart(2, "0");
  return `${PREFIX}${pid}-${hex}${SUFFIX}`;
}
