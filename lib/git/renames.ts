/**
 * Renames, so that history follows a file (docs/tools.md "Git tools"): the renames a diff holds
 * (`--name-status -z`), the other side of a path in them, and the old name a path had before the
 * commit that moved it there.
 */
import { decodeName, splitNul } from "./names.ts";
import type { GitRunner } from "./runner.ts";

export interface Rename {
  from: string;
  to: string;
}

/** Entries of `--name-status -z` output: `R<score>`/`C<score>` carry two paths, others one. */
export function parseNameStatus(
  bytes: Uint8Array,
): { status: string; path: string; from?: string }[] {
  const fields = splitNul(bytes);
  const out: { status: string; path: string; from?: string }[] = [];
  const ascii = new TextDecoder();
  for (let i = 0; i < fields.length; i++) {
    const status = ascii.decode(fields[i]).replace(/^\n+/, "");
    if (!/^[ACDMRTUXB][0-9]*$/.test(status)) continue;
    if (status[0] === "R" || status[0] === "C") {
      const from = decodeName(fields[i + 1] ?? new Uint8Array());
      const to = decodeName(fields[i + 2] ?? new Uint8Array());
      i += 2;
      if (from !== null && to !== null) out.push({ status: status[0], path: to, from });
    } else {
      const path = decodeName(fields[i + 1] ?? new Uint8Array());
      i += 1;
      if (path !== null) out.push({ status: status[0], path });
    }
  }
  return out;
}

/** Only the renames of name-status entries. */
export function renamesOf(
  entries: readonly { status: string; path: string; from?: string }[],
): Rename[] {
  return entries.filter((e) => e.status === "R" && e.from !== undefined).map((e) => ({
    from: e.from!,
    to: e.path,
  }));
}

function under(path: string, folder: string): string | null {
  if (path === folder) return "";
  return path.startsWith(`${folder}/`) ? path.slice(folder.length) : null;
}

/**
 * The paths on the other side of `rel` in `renames`: for a file, its old or new name; for a
 * folder, the old or new names of the files renamed into or out of it.
 */
export function otherSides(renames: readonly Rename[], rel: string): string[] {
  const out = new Set<string>();
  for (const r of renames) {
    if (under(r.to, rel) !== null && under(r.from, rel) === null) out.add(r.from);
    if (under(r.from, rel) !== null && under(r.to, rel) === null) out.add(r.to);
  }
  return [...out];
}

/** The renames commit `oid` made (against its first parent), or null when git's output was capped. */
async function commitRenames(git: GitRunner, oid: string, signal?: AbortSignal) {
  const out = await git.run(
    ["diff-tree", "-r", "-M", "--no-commit-id", "--name-status", "-z", "--root", oid],
    { signal },
  );
  return out.capped ? null : renamesOf(parseNameStatus(out.stdout));
}

/**
 * The old name of `rel` when commit `oid` created it by a rename (a file: its old path; a folder:
 * the folder its files came from, when they all came from one), else null.
 */
export async function renamedInto(
  git: GitRunner,
  oid: string,
  rel: string,
  signal?: AbortSignal,
): Promise<string | null> {
  const renames = await commitRenames(git, oid, signal);
  if (renames === null) return null;
  const olds = new Set<string>();
  for (const r of renames) {
    const rest = under(r.to, rel);
    if (rest === null) continue;
    if (rest === "") return r.from;
    if (!r.from.endsWith(rest)) return null;
    olds.add(r.from.slice(0, r.from.length - rest.length));
  }
  return olds.size === 1 ? [...olds][0] : null;
}

/** The new name of `rel` when commit `oid` moved it away (its rename's other side), else null. */
export async function renamedAway(
  git: GitRunner,
  oid: string,
  rel: string,
  signal?: AbortSignal,
): Promise<string | null> {
  const renames = await commitRenames(git, oid, signal);
  if (renames === null) return null;
  for (const r of renames) {
    if (r.from === rel) return r.to;
  }
  return null;
}

/** One rename in a followed history: in `commit`, `from` became `to`. */
export interface FollowedRename extends Rename {
  commit: string;
}

/**
 * The renames of `git log --follow --name-status -z --format=%x01%H` output, newest first: each
 * commit record is `\x01<oid>`, then its name-status entries.
 */
export function parseFollowRenames(bytes: Uint8Array): FollowedRename[] {
  const out: FollowedRename[] = [];
  const fields = splitNul(bytes);
  const ascii = new TextDecoder();
  let commit = "";
  for (let i = 0; i < fields.length; i++) {
    const text = ascii.decode(fields[i]).replace(/^\n+/, "");
    if (text.startsWith("\x01")) {
      // The record's first status may follow the oid after a newline in the same field.
      const [oid, rest] = text.slice(1).split("\n");
      commit = oid.trim();
      if (rest === undefined || rest === "") continue;
      fields[i] = new TextEncoder().encode(rest);
      i--;
      continue;
    }
    if (text[0] === "R" && /^R[0-9]*$/.test(text)) {
      const from = decodeName(fields[i + 1] ?? new Uint8Array());
      const to = decodeName(fields[i + 2] ?? new Uint8Array());
      i += 2;
      if (from !== null && to !== null && commit !== "") out.push({ commit, from, to });
    } else if (text[0] === "C" && /^C[0-9]*$/.test(text)) i += 2;
    else if (/^[ADMTUXB][0-9]*$/.test(text)) i += 1;
  }
  return out;
}
