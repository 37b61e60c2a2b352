/**
 * The folder half of the stat pass over a stored index: decides, folder by folder from the
 * root down, what must be read again, using the stored folder table (folder_table.ts):
 *
 * - "trusted": the folder's identity and mtime are those it was listed with, it holds no
 *   symlink and its ignore files are unchanged: its entries are those stored, so it is not
 *   read; its stored files are only compared with the disk (by the caller, lstat each);
 * - "relisted": its entries changed (or it holds a symlink, or its times are racy): it is read
 *   again one level deep; its files are compared as they come, its new subfolders walked whole,
 *   its other subfolders decided on their own records;
 * - "rewalked": its ignore files changed (or its identity, or it is new): its whole subtree is
 *   walked again with the rules as they are now, and nothing stored below it is used;
 * - "gone": no longer served; nothing stored below it is.
 *
 * The walks are the workspace's own (ignore rules, secrets, symlinks, the identity guard), so a
 * folder read again is served exactly as a full walk would serve it.
 */
import type { WalkEntry } from "../../workspace/walk.ts";
import {
  aboveRootRules,
  type FolderRecord,
  type FolderTable,
  unchangedListing,
  unchangedRules,
} from "../store/folder_table.ts";

export type FolderVerdict = "trusted" | "relisted" | "rewalked" | "gone";

/** What the pass needs of the index worker. */
export interface FolderPassHost {
  /** The real root. */
  root: string;
  /**
   * Walks `rel` with stats (folders too), recording every folder it reads in `into`: the whole
   * subtree, or with `oneLevel` only the folder's own entries.
   */
  walk(rel: string, oneLevel: boolean, into: Map<string, FolderRecord>): Iterable<WalkEntry>;
  /** A file a walk of the pass saw (the caller compares it with its stored record). */
  file(entry: WalkEntry): void;
  /** Called now and then; false when the pass is to give up (a newer one started). */
  pause(): Promise<boolean>;
}

export interface FolderPassResult {
  /** The folder table as it is now (records of trusted folders kept, the rest read anew). */
  folders: Map<string, FolderRecord>;
  /** Folders whose stored files are still those on disk by name: compare each with lstat. */
  trusted: Set<string>;
  /** Files the walks of the pass saw (every other stored file outside `trusted` is gone). */
  walked: Set<string>;
  /** What was decided for each stored folder (a stored file in none of them: see the caller). */
  verdicts: Map<string, FolderVerdict>;
  /** Folders read again, and subtrees walked again. */
  relisted: number;
  rewalked: number;
}

/** More folder records than this sharing one real folder: a web of links; the pass walks all. */
const MAX_ALIASES = 8;

export function parentOf(rel: string): string {
  const at = rel.lastIndexOf("/");
  return at < 0 ? "" : rel.slice(0, at);
}

/**
 * Runs the folder half of the pass; null when the stored table cannot be used at all (no
 * record of the root, the ignore files above the root changed, a web of links): then the
 * caller walks the whole tree.
 */
export async function passFolders(
  host: FolderPassHost,
  table: FolderTable,
): Promise<FolderPassResult | null> {
  const stored = table.folders;
  const root = stored.get("");
  if (root === undefined || table.above === "!") return null;
  if (aboveRootRules(host.root, root.listedAt) !== table.above) return null;
  const perReal = new Map<string, number>();
  for (const r of stored.values()) {
    const n = (perReal.get(r.real) ?? 0) + 1;
    if (n > MAX_ALIASES) return null;
    perReal.set(r.real, n);
  }
  const folders = new Map<string, FolderRecord>();
  const trusted = new Set<string>();
  const walked = new Set<string>();
  const verdicts = new Map<string, FolderVerdict>();
  /** Subfolders a relist saw: named path -> real path. */
  const seenDirs = new Map<string, string>();
  let relisted = 0;
  let rewalked = 0;

  let n = 0;
  /** False when the pass is to give up. */
  const breathe = async (): Promise<boolean> => (++n & 255) !== 0 || await host.pause();
  const rewalk = async (rel: string): Promise<boolean> => {
    rewalked++;
    verdicts.set(rel, "rewalked");
    for (const e of host.walk(rel, false, folders)) {
      if (!(await breathe())) return false;
      if (e.isDir) continue;
      walked.add(e.rel);
      host.file(e);
    }
    return true;
  };
  const relist = async (rel: string, record: FolderRecord): Promise<boolean> => {
    const entries: WalkEntry[] = [];
    const listed = new Map<string, FolderRecord>();
    for (const e of host.walk(rel, true, listed)) entries.push(e);
    const now = listed.get(rel);
    // Unreadable now, or an ignore file came or went (the rules below changed): walked whole.
    if (now === undefined || !now.listed || now.rules !== record.rules) return await rewalk(rel);
    relisted++;
    folders.set(rel, now);
    verdicts.set(rel, "relisted");
    for (const e of entries) {
      if (!(await breathe())) return false;
      if (e.isDir) {
        if (e.rel === rel) continue;
        seenDirs.set(e.rel, e.abs);
        if (!stored.has(e.rel) && !(await rewalk(e.rel))) return false;
        continue;
      }
      walked.add(e.rel);
      host.file(e);
    }
    return true;
  };

  const order = [...stored.keys()].sort((a, b) => a.length - b.length);
  for (const rel of order) {
    if (!(await breathe())) return null;
    const record = stored.get(rel)!;
    if (rel !== "") {
      const above = verdicts.get(parentOf(rel));
      if (above === undefined || above === "gone" || above === "rewalked") {
        verdicts.set(rel, "gone"); // covered: the walk above saw what is there now
        continue;
      }
      if (above === "relisted") {
        const real = seenDirs.get(rel);
        if (real === undefined) {
          verdicts.set(rel, "gone");
          continue;
        }
        if (real !== record.real) {
          if (!(await rewalk(rel))) return null;
          continue;
        }
      }
    }
    let ok = true;
    if (!unchangedRules(record)) ok = await rewalk(rel);
    else if (unchangedListing(record)) {
      folders.set(rel, record);
      trusted.add(rel);
      verdicts.set(rel, "trusted");
    } else ok = await relist(rel, record);
    if (!ok) return null;
  }
  return { folders, trusted, walked, verdicts, relisted, rewalked };
}
