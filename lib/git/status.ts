/** `git status --porcelain=v2 -z --branch` -> branch, upstream, ahead/behind and entries. */
import { decodeName, splitNul } from "./names.ts";

export interface StatusEntry {
  path: string;
  /** Two letters as `git status --short` prints them (`M `, ` M`, `??`, `UU`, ...). */
  status: string;
  /** The old path of a rename or copy. */
  from?: string;
}

export interface StatusInfo {
  /** The branch, or null when HEAD is detached. */
  branch: string | null;
  /** True before the first commit. */
  initial: boolean;
  upstream: string | null;
  ahead: number | null;
  behind: number | null;
  entries: StatusEntry[];
  /** Entries left out because their names cannot be served. */
  skipped: number;
}

const ascii = new TextDecoder();

/** Index of the byte after the `n`-th space of `field`, or -1. */
function afterSpaces(field: Uint8Array, n: number): number {
  let at = 0;
  for (let i = 0; i < n; i++) {
    at = field.indexOf(32, at);
    if (at < 0) return -1;
    at++;
  }
  return at;
}

function xy(field: Uint8Array): string {
  return ascii.decode(field.subarray(2, 4)).replaceAll(".", " ");
}

export function parseStatus(bytes: Uint8Array): StatusInfo {
  const info: StatusInfo = {
    branch: null,
    initial: false,
    upstream: null,
    ahead: null,
    behind: null,
    entries: [],
    skipped: 0,
  };
  const fields = splitNul(bytes);
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i];
    const kind = field[0];
    if (kind === 0x23 /* # */) {
      const line = new TextDecoder().decode(field);
      const [, key, ...rest] = line.split(" ");
      const value = rest.join(" ");
      if (key === "branch.oid") info.initial = value === "(initial)";
      else if (key === "branch.head") info.branch = value === "(detached)" ? null : value;
      else if (key === "branch.upstream") info.upstream = value;
      else if (key === "branch.ab") {
        const m = /^\+(\d+) -(\d+)$/.exec(value);
        if (m !== null) {
          info.ahead = Number(m[1]);
          info.behind = Number(m[2]);
        }
      }
      continue;
    }
    let entry: StatusEntry | null = null;
    let ok = true;
    if (kind === 0x31 /* 1 */ || kind === 0x75 /* u */) {
      const at = afterSpaces(field, kind === 0x31 ? 8 : 10);
      const path = at < 0 ? null : decodeName(field.subarray(at));
      if (path === null) ok = false;
      else entry = { path, status: xy(field) };
    } else if (kind === 0x32 /* 2 */) {
      const at = afterSpaces(field, 9);
      const path = at < 0 ? null : decodeName(field.subarray(at));
      const from = i + 1 < fields.length ? decodeName(fields[i + 1]) : null;
      i++; // the original path is the next field
      if (path === null || from === null) ok = false;
      else entry = { path, status: xy(field), from };
    } else if (kind === 0x3f /* ? */) {
      const path = decodeName(field.subarray(2));
      if (path === null) ok = false;
      else entry = { path, status: "??" };
    } else continue; // "!" ignored entries are never asked for
    if (!ok) info.skipped++;
    else if (entry !== null) info.entries.push(entry);
  }
  return info;
}

/** The `## ...` line of `git status --short --branch`. */
export function statusHeader(info: StatusInfo): string {
  if (info.branch === null) return "## HEAD (no branch)";
  if (info.initial) return `## No commits yet on ${info.branch}`;
  if (info.upstream === null) return `## ${info.branch}`;
  const parts: string[] = [];
  if (info.ahead === null) parts.push("gone");
  else {
    if (info.ahead > 0) parts.push(`ahead ${info.ahead}`);
    if ((info.behind ?? 0) > 0) parts.push(`behind ${info.behind}`);
  }
  const tail = parts.length > 0 ? ` [${parts.join(", ")}]` : "";
  return `## ${info.branch}...${info.upstream}${tail}`;
}

/** One `git status --short` line: `XY path`, or `XY from -> path` for a rename or copy. */
export function statusLine(entry: StatusEntry): string {
  return entry.from === undefined
    ? `${entry.status} ${entry.path}`
    : `${entry.status} ${entry.from} -> ${entry.path}`;
}
