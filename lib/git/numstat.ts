/** `git diff --numstat -z` -> `{path, added, deleted, from?}` per file (binary: no counts). */
import { decodeName, splitNul } from "./names.ts";

export interface NumstatEntry {
  path: string;
  /** Lines added; absent for a binary file. */
  added?: number;
  deleted?: number;
  from?: string;
  binary?: true;
}

export function parseNumstat(bytes: Uint8Array): { entries: NumstatEntry[]; skipped: number } {
  const fields = splitNul(bytes);
  const entries: NumstatEntry[] = [];
  let skipped = 0;
  const ascii = new TextDecoder();
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i];
    const tab1 = field.indexOf(9);
    const tab2 = tab1 < 0 ? -1 : field.indexOf(9, tab1 + 1);
    if (tab2 < 0) continue;
    const added = ascii.decode(field.subarray(0, tab1));
    const deleted = ascii.decode(field.subarray(tab1 + 1, tab2));
    let path: string | null;
    let from: string | null | undefined;
    if (tab2 + 1 === field.length) {
      // a rename or copy: the old and new paths follow as fields of their own
      from = decodeName(fields[i + 1] ?? new Uint8Array());
      path = decodeName(fields[i + 2] ?? new Uint8Array());
      i += 2;
    } else path = decodeName(field.subarray(tab2 + 1));
    if (path === null || from === null) {
      skipped++;
      continue;
    }
    const entry: NumstatEntry = { path };
    if (added === "-") entry.binary = true;
    else {
      entry.added = Number(added);
      entry.deleted = Number(deleted);
    }
    if (from !== undefined) entry.from = from;
    entries.push(entry);
  }
  return { entries, skipped };
}

/** The numstat line: `added<TAB>deleted<TAB>path` (`-` for binary counts, `from => path` for renames). */
export function numstatLine(entry: NumstatEntry): string {
  const counts = entry.binary ? "-\t-" : `${entry.added}\t${entry.deleted}`;
  return `${counts}\t${entry.from === undefined ? entry.path : `${entry.from} => ${entry.path}`}`;
}
