/** `git blame --porcelain` -> per-line commits and the groups of consecutive lines per commit. */

export interface BlameGroup {
  commit: string;
  author: string;
  /** Author date, ISO 8601 in the author's time zone. */
  date: string;
  summary: string;
  start_line: number;
  end_line: number;
  /** The file name in that commit (porcelain's `filename`), when it is not the path blamed. */
  path?: string;
}

export interface BlameLine {
  line: number;
  commit: string;
  text: string;
  /** The file name the line came from in its commit. */
  filename: string;
}

interface CommitInfo {
  author: string;
  time: number;
  tz: string;
  summary: string;
  filename: string;
}

const HEADER = /^([0-9a-f]{40}|[0-9a-f]{64}) (\d+) (\d+)(?: \d+)?$/;

/** `author-time` (seconds) in zone `author-tz` (`+0130`) as ISO 8601 (`...T..+01:30`). */
export function isoDate(seconds: number, tz: string): string {
  const m = /^([+-])(\d\d)(\d\d)$/.exec(tz);
  const sign = m?.[1] === "-" ? -1 : 1;
  const offset = m === null ? 0 : sign * (Number(m[2]) * 60 + Number(m[3]));
  const local = new Date((seconds + offset * 60) * 1000).toISOString().slice(0, 19);
  return m === null ? `${local}Z` : `${local}${m[1]}${m[2]}:${m[3]}`;
}

/**
 * Lines and groups of `git blame --porcelain` output; `blamed` is the path asked for (a group
 * whose commit names the file otherwise carries that `path`).
 */
export function parseBlame(
  bytes: Uint8Array,
  blamed = "",
): { lines: BlameLine[]; groups: BlameGroup[] } {
  const text = new TextDecoder().decode(bytes);
  const commits = new Map<string, CommitInfo>();
  const lines: BlameLine[] = [];
  let current: { commit: string; line: number; filename: string | null } | null = null;
  for (const raw of text.split("\n")) {
    if (raw.startsWith("\t")) {
      if (current !== null) {
        // git names the file on a commit's first line (and on every line of a commit that
        // touched several paths); otherwise the commit's last name holds.
        const filename = current.filename ?? commits.get(current.commit)!.filename;
        lines.push({ line: current.line, commit: current.commit, text: raw.slice(1), filename });
      }
      current = null;
      continue;
    }
    const header = HEADER.exec(raw);
    if (header !== null) {
      current = { commit: header[1], line: Number(header[3]), filename: null };
      if (!commits.has(header[1])) {
        commits.set(header[1], { author: "", time: 0, tz: "", summary: "", filename: blamed });
      }
      continue;
    }
    if (current === null) continue;
    const info = commits.get(current.commit)!;
    const space = raw.indexOf(" ");
    const key = space < 0 ? raw : raw.slice(0, space);
    const value = space < 0 ? "" : raw.slice(space + 1);
    if (key === "author") info.author = value;
    else if (key === "author-time") info.time = Number(value);
    else if (key === "author-tz") info.tz = value;
    else if (key === "summary") info.summary = value;
    else if (key === "filename") {
      info.filename = value;
      current.filename = value;
    }
  }
  const groups: BlameGroup[] = [];
  for (const line of lines) {
    const last = groups[groups.length - 1];
    const path = line.filename === blamed || line.filename === "" ? undefined : line.filename;
    if (
      last !== undefined && last.commit === line.commit && last.end_line + 1 === line.line &&
      last.path === path
    ) {
      last.end_line = line.line;
      continue;
    }
    const info = commits.get(line.commit)!;
    const group: BlameGroup = {
      commit: line.commit,
      author: info.author,
      date: isoDate(info.time, info.tz),
      summary: info.summary,
      start_line: line.line,
      end_line: line.line,
    };
    if (path !== undefined) group.path = path;
    groups.push(group);
  }
  return { lines, groups };
}
