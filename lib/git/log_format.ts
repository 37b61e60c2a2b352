/** The commit records of `git log -z --format=<LOG_FORMAT>`. */
import { splitNul } from "./names.ts";

/** Fields of one commit, NUL-separated (with -z the record ends in NUL too). */
export const LOG_FORMAT = "--format=%H%x00%h%x00%P%x00%an%x00%ae%x00%aI%x00%s";
const FIELDS = 7;

export interface LogEntry {
  commit: string;
  short: string;
  parents: string[];
  author: string;
  email: string;
  /** Author date, ISO 8601. */
  date: string;
  subject: string;
}

export function parseLog(bytes: Uint8Array): LogEntry[] {
  const d = new TextDecoder();
  const fields = splitNul(bytes).map((f) => d.decode(f));
  const out: LogEntry[] = [];
  for (let i = 0; i + FIELDS <= fields.length; i += FIELDS) {
    // -z separates records with NUL; git starts each record after the first with that NUL's
    // successor, so a record's first field may begin with a newline from tformat: trim it.
    const commit = fields[i].replace(/^\n/, "");
    out.push({
      commit,
      short: fields[i + 1],
      parents: fields[i + 2] === "" ? [] : fields[i + 2].split(" "),
      author: fields[i + 3],
      email: fields[i + 4],
      date: fields[i + 5],
      subject: fields[i + 6],
    });
  }
  return out;
}

/** `<short oid> <date> <author> <subject>` (the date as YYYY-MM-DD). */
export function logLine(entry: LogEntry): string {
  return `${entry.short} ${entry.date.slice(0, 10)} ${entry.author} ${entry.subject}`;
}
