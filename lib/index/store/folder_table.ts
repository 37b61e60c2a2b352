/**
 * The folder table of the stored index: for every folder the walk served, its identity and
 * mtime when it was listed and the state of the ignore files in it, so that the next start's
 * stat pass reads again only the folders that changed. A folder's mtime moves when an entry is
 * added, removed or renamed in it; what it does not cover is checked apart:
 *
 * - a file's content: every stored file is still compared with the disk (lstat), one by one;
 * - an ignore file edited in place: each folder records the stat of its ignore files
 *   (`.rgignore`, `.ignore`, `.gitignore`, `.git/info/exclude`, the `.git` entry), taken
 *   again at every start; so does the root for the folders above it;
 * - symlinks: a link's target may change, appear or go without any mtime here moving (a link
 *   further along its path retargeted, its target created), so each folder records where each
 *   of its links led when it was listed (the target's kind, identity and a hash of its real
 *   path, or that it led nowhere), resolved before the walk served them; at every start the
 *   links are resolved again, and a folder whose links lead elsewhere now is read again;
 * - racy times: a folder (or an ignore file) whose mtime or ctime is not older than the moment
 *   it was listed by RACY_MS may have changed again unseen: it counts as changed.
 */
import { joinRoot } from "../../workspace/names.ts";
import { entryExists } from "../../workspace/lstat.ts";
import { checksum } from "./checksum.ts";

/** A time not older than this before the listing may hide a later change (coarse clocks). */
export const RACY_MS = 2000;

/** One folder as it was listed. */
export interface FolderRecord {
  /** Real absolute path (differs from root + "/" + rel below a followed folder link). */
  real: string;
  dev: number;
  ino: number;
  mtimeMs: number;
  ctimeMs: number;
  /** Date.now() right before it was read (or, when not listed, before it was seen). */
  listedAt: number;
  /** It was read (false: seen as a folder entry but not read: unreadable, or still to be). */
  listed: boolean;
  /**
   * Where its symlinks led when it was listed (linkState): "" when it holds none; "!" when
   * unknown (a folder table of an older server): then it is read again at every start.
   */
  links: string;
  /** The stat of its ignore files ("" when it has none; "!" when racy: never equal). */
  rules: string;
}

/** The ignore-related names a folder can hold. */
const RULE_NAMES = [".rgignore", ".ignore", ".gitignore"];

function stamp(info: Deno.FileInfo): string {
  return `${info.dev}:${info.ino}:${info.size}:${info.mtime?.getTime() ?? 0}:${
    info.ctime?.getTime() ?? 0
  }`;
}

/** The stat of `path` (followed, as the ignore rules read it) as text, and whether it is racy. */
function statStamp(path: string, listedAt: number): [string, boolean] {
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(path);
  } catch (error) {
    return [error instanceof Deno.errors.NotFound ? "-" : "?", false];
  }
  const racy = (info.mtime?.getTime() ?? 0) + RACY_MS >= listedAt ||
    (info.ctime?.getTime() ?? 0) + RACY_MS >= listedAt;
  return [stamp(info), racy];
}

/**
 * The state of the ignore files of the folder at `real` (absolute), given which of the names it
 * holds; "" when it holds none, "!" when one of them is racy against `listedAt`.
 */
export function rulesOf(real: string, names: ReadonlySet<string>, listedAt: number): string {
  const base = real === "/" ? "" : real;
  const parts: string[] = [];
  let racy = false;
  for (const name of RULE_NAMES) {
    if (!names.has(name)) continue;
    const [text, r] = statStamp(`${base}/${name}`, listedAt);
    parts.push(`${name}=${text}`);
    racy ||= r;
  }
  if (names.has(".git")) {
    // Only whether it is there (git itself touches the folder all the time), and its exclude file.
    const [exclude, r] = statStamp(`${base}/.git/info/exclude`, listedAt);
    parts.push(`.git=${entryExists(`${base}/.git`) ? "1" : "-"}`, `exclude=${exclude}`);
    racy ||= r;
  }
  if (racy) return "!";
  return parts.join(" ");
}

/** The ignore-related names among a folder's entries. */
export function ruleNamesOf(entries: readonly { name: string }[]): Set<string> {
  const out = new Set<string>();
  for (const e of entries) {
    const n = e.name;
    if (n.charCodeAt(0) !== 46) continue;
    if (n === ".rgignore" || n === ".ignore" || n === ".gitignore" || n === ".git") out.add(n);
  }
  return out;
}

/** The ignore-related names that the rule text `rules` says the folder holds. */
export function ruleNamesIn(rules: string): Set<string> {
  const out = new Set<string>();
  if (rules === "" || rules === "!") return out;
  for (const part of rules.split(" ")) {
    const name = part.slice(0, part.indexOf("="));
    if (name !== "exclude") out.add(name);
  }
  return out;
}

/**
 * The state of the ignore files in the folders above the root (they govern the whole tree, as
 * ripgrep's parent rules do): every name tried, as the ignore rules try them.
 */
export function aboveRootRules(root: string, listedAt: number): string {
  const parts: string[] = [];
  let dir = root;
  while (dir !== "/") {
    dir = dir.slice(0, Math.max(1, dir.lastIndexOf("/")));
    const all = new Set([...RULE_NAMES, ".git"]);
    const text = rulesOf(dir, all, listedAt);
    if (text === "!") return "!";
    parts.push(`${dir}{${text}}`);
  }
  return parts.join(" ");
}

/** More symlinks than this in one folder: its links are not recorded ("!": read again). */
const MAX_LINKS = 256;

const encoder = new TextEncoder();

/**
 * Where the link at `path` leads now: its target's kind ("d", "f", or "o" for other), identity
 * and a 64-bit hash of its real path, or "-" when it leads nowhere. The path itself is not kept:
 * a link may lead to a file the session does not serve (outside the root, a secret), whose name
 * has no place in the cache.
 */
function linkTarget(path: string): string {
  try {
    const info = Deno.statSync(path);
    const kind = info.isDirectory ? "d" : info.isFile ? "f" : "o";
    const real = encoder.encode(Deno.realPathSync(path));
    return `${kind}${info.dev}:${info.ino ?? 0}:${checksum(real).toString(36)}.${
      checksum(real, 0x5bd1e995).toString(36)
    }`;
  } catch {
    return "-";
  }
}

/**
 * The state of the symlinks `names` of the folder `real`: each name with where it leads, in
 * name order ("" for none, "!" for too many to record).
 */
export function linkStateOf(real: string, names: readonly string[]): string {
  if (names.length === 0) return "";
  if (names.length > MAX_LINKS) return "!";
  const base = real === "/" ? "" : real;
  const sorted = [...names].sort();
  return JSON.stringify(sorted.map((name) => [name, linkTarget(`${base}/${name}`)]));
}

/** The links of a recorded link state still lead where they did (false when unknown). */
export function unchangedLinks(real: string, state: string): boolean {
  if (state === "") return true;
  if (state === "!") return false;
  let pairs: unknown;
  try {
    pairs = JSON.parse(state);
  } catch {
    return false;
  }
  if (!Array.isArray(pairs) || pairs.length === 0 || pairs.length > MAX_LINKS) return false;
  const base = real === "/" ? "" : real;
  for (const pair of pairs) {
    if (!Array.isArray(pair) || pair.length !== 2) return false;
    const [name, target] = pair;
    if (typeof name !== "string" || typeof target !== "string") return false;
    if (name === "" || name === "." || name === ".." || name.includes("/")) return false;
    if (linkTarget(`${base}/${name}`) !== target) return false;
  }
  return true;
}

/** The record of the folder at `real` as read at `readAt` (its lstat now), or null if gone. */
export function recordOf(
  real: string,
  readAt: number,
  entries: readonly Deno.DirEntry[] | null,
): FolderRecord | null {
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(real);
  } catch {
    return null;
  }
  if (!info.isDirectory || info.isSymlink) return null;
  return {
    real,
    dev: info.dev,
    ino: info.ino ?? 0,
    mtimeMs: info.mtime?.getTime() ?? 0,
    ctimeMs: info.ctime?.getTime() ?? 0,
    listedAt: readAt,
    listed: entries !== null,
    links: entries === null
      ? ""
      : linkStateOf(real, entries.filter((e) => e.isSymlink).map((e) => e.name)),
    rules: entries === null ? "" : rulesOf(real, ruleNamesOf(entries), readAt),
  };
}

/**
 * Whether the folder `rel` of a stored table can be trusted as listed: it was read, holds no
 * symlink, its identity and times are those on disk, and they are older than its listing.
 */
export function unchangedListing(record: FolderRecord): boolean {
  if (!record.listed || record.links === "!" || record.rules === "!") return false;
  if (record.mtimeMs + RACY_MS >= record.listedAt) return false;
  if (record.ctimeMs + RACY_MS >= record.listedAt) return false;
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(record.real);
  } catch {
    return false;
  }
  return info.isDirectory && !info.isSymlink && info.dev === record.dev &&
    (info.ino ?? 0) === record.ino && (info.mtime?.getTime() ?? 0) === record.mtimeMs &&
    (info.ctime?.getTime() ?? 0) === record.ctimeMs && unchangedLinks(record.real, record.links);
}

/** The folder's ignore files are as recorded (taken again now). */
export function unchangedRules(record: FolderRecord): boolean {
  if (record.rules === "!") return false;
  if (record.rules === "") return true;
  return rulesOf(record.real, ruleNamesIn(record.rules), record.listedAt) === record.rules;
}

/** The table as stored in a shard's meta JSON (columns; paths apart). */
export interface FolderJson {
  above: string;
  rels: string[];
  /** [folder index, real path] where the real path is not root + "/" + rel. */
  reals: [number, string][];
  /** Per folder: dev, ino, mtime, ctime, listedAt. */
  nums: number[];
  /** Per folder: 1 listed, 2 holds links. */
  flags: number[];
  /** [folder index, rules] where not "". */
  rules: [number, string][];
  /**
   * [folder index, link state] of the folders that hold links (absent from tables of older
   * servers: their folders with links are read again).
   */
  links?: [number, string][];
}

/** A stored folder table: the records by named path, and the state above the root. */
export interface FolderTable {
  above: string;
  folders: Map<string, FolderRecord>;
}

export function encodeFolders(root: string, table: FolderTable): FolderJson {
  const out: FolderJson = {
    above: table.above,
    rels: [],
    reals: [],
    nums: [],
    flags: [],
    rules: [],
    links: [],
  };
  for (const [rel, r] of table.folders) {
    const i = out.rels.length;
    out.rels.push(rel);
    if (r.real !== joinRoot(root, rel)) out.reals.push([i, r.real]);
    out.nums.push(r.dev, r.ino, r.mtimeMs, r.ctimeMs, r.listedAt);
    out.flags.push((r.listed ? 1 : 0) | (r.links !== "" ? 2 : 0));
    if (r.rules !== "") out.rules.push([i, r.rules]);
    if (r.links !== "") out.links!.push([i, r.links]);
  }
  return out;
}

function isNum(n: unknown): n is number {
  return typeof n === "number" && Number.isFinite(n);
}

/**
 * The table read back from a shard, checked (hostile until then): null when it is absent or
 * malformed (the stat pass then walks the whole tree, as without a table).
 */
export function decodeFolders(root: string, json: unknown): FolderTable | null {
  const j = json as FolderJson;
  if (typeof j !== "object" || j === null || typeof j.above !== "string") return null;
  if (!Array.isArray(j.rels) || !Array.isArray(j.reals) || !Array.isArray(j.nums)) return null;
  if (!Array.isArray(j.flags) || !Array.isArray(j.rules)) return null;
  const n = j.rels.length;
  if (j.nums.length !== n * 5 || j.flags.length !== n) return null;
  const reals = new Map<number, string>();
  for (const r of j.reals) {
    if (!Array.isArray(r) || !Number.isInteger(r[0]) || typeof r[1] !== "string") return null;
    if (!r[1].startsWith("/")) return null;
    reals.set(r[0], r[1]);
  }
  const rules = new Map<number, string>();
  for (const r of j.rules) {
    if (!Array.isArray(r) || !Number.isInteger(r[0]) || typeof r[1] !== "string") return null;
    rules.set(r[0], r[1]);
  }
  const links = new Map<number, string>();
  if (j.links !== undefined) {
    if (!Array.isArray(j.links)) return null;
    for (const r of j.links) {
      if (!Array.isArray(r) || !Number.isInteger(r[0]) || typeof r[1] !== "string") return null;
      links.set(r[0], r[1]);
    }
  }
  const folders = new Map<string, FolderRecord>();
  for (let i = 0; i < n; i++) {
    const rel = j.rels[i];
    if (typeof rel !== "string" || folders.has(rel)) return null;
    const nums = j.nums.slice(i * 5, i * 5 + 5);
    if (!nums.every(isNum)) return null;
    const flags = j.flags[i];
    if (!Number.isInteger(flags)) return null;
    folders.set(rel, {
      real: reals.get(i) ?? joinRoot(root, rel),
      dev: nums[0],
      ino: nums[1],
      mtimeMs: nums[2],
      ctimeMs: nums[3],
      listedAt: nums[4],
      listed: (flags & 1) !== 0,
      links: (flags & 2) === 0 ? "" : links.get(i) ?? "!",
      rules: rules.get(i) ?? "",
    });
  }
  return { above: j.above, folders };
}
