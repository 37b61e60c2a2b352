/**
 * Names of the temporary files an atomic write creates next to its target (docs/workspace.md
 * "Writes"): `.shipcode-write-<pid>-<random>.tmp`. Walks skip them and paths naming them are
 * refused, so a temp file is never served, even one left behind by a crash.
 */

const PREFIX = ".shipcode-write-";
const SUFFIX = ".tmp";
const PATTERN = /^\.shipcode-write-(\d+)-[0-9a-f]{16}\.tmp$/;

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

/** The process id a temp name was made by, or null when the name is not ours. */
export function tempOwner(name: string): number | null {
  const m = PATTERN.exec(name);
  return m === null ? null : Number(m[1]);
}
