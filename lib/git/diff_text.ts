/**
 * Unified diff output of git as text lines, with secret files' content withheld: a file section
 * whose header names a secret path keeps its header lines and gets one line
 * `[secret file: content withheld]` instead of its hunks (docs/tools.md, "Git tools").
 */
import { isSecretPath, SECRET_WITHHELD } from "./names.ts";

const decoder = new TextDecoder();

/** Lines of `bytes` (LF-separated; a final LF ends the last line). A capped output loses its cut line. */
export function outputLines(bytes: Uint8Array, capped: boolean): string[] {
  const lines = decoder.decode(bytes).split("\n");
  if (capped || lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** Undoes git's C-style quoting of a path (`"a/x\\ty"`); unquoted text is returned as is. */
export function unquotePath(text: string): string {
  if (!text.startsWith('"') || !text.endsWith('"') || text.length < 2) return text;
  const bytes: number[] = [];
  const body = text.slice(1, -1);
  const encoder = new TextEncoder();
  const simple: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13 };
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== "\\") {
      bytes.push(...encoder.encode(c));
      continue;
    }
    const next = body[++i] ?? "";
    if (/[0-7]/.test(next)) {
      bytes.push(parseInt(body.slice(i, i + 3), 8) & 0xff);
      i += 2;
    } else if (next in simple) bytes.push(simple[next]);
    else bytes.push(...encoder.encode(next));
  }
  return decoder.decode(new Uint8Array(bytes));
}

function stripSide(path: string): string {
  const p = unquotePath(path.replace(/\t$/, ""));
  return p.startsWith("a/") || p.startsWith("b/") ? p.slice(2) : p;
}

/** Paths a section header line names (every plausible reading: a secret anywhere withholds). */
function headerPaths(line: string): string[] {
  const out: string[] = [];
  const take = (prefix: string) => line.startsWith(prefix) ? line.slice(prefix.length) : null;
  const git = take("diff --git ");
  if (git !== null) {
    const n = (git.length - 5) / 2;
    if (Number.isInteger(n) && git.slice(2, 2 + n) === git.slice(5 + n)) {
      out.push(git.slice(2, 2 + n));
    }
    for (const token of git.split(" ")) out.push(stripSide(token));
    return out;
  }
  const combined = take("diff --cc ") ?? take("diff --combined ");
  if (combined !== null) return [unquotePath(combined)];
  for (const prefix of ["--- ", "+++ "]) {
    const rest = take(prefix);
    if (rest !== null) return [stripSide(rest)];
  }
  for (const prefix of ["rename from ", "rename to ", "copy from ", "copy to "]) {
    const rest = take(prefix);
    if (rest !== null) return [unquotePath(rest)];
  }
  return out;
}

function isSectionStart(line: string): boolean {
  return line.startsWith("diff --git ") || line.startsWith("diff --cc ") ||
    line.startsWith("diff --combined ");
}

/** True for a line that starts the content of a section (after its header lines). */
function isContentStart(line: string): boolean {
  return line.startsWith("@@") || line.startsWith("Binary files ") ||
    line.startsWith("GIT binary patch");
}

/**
 * The diff lines with every secret section's content replaced by one withheld line. Lines before
 * the first section (e.g. a commit header) pass through.
 */
export function withholdSecrets(lines: readonly string[]): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < lines.length) {
    if (!isSectionStart(lines[i])) {
      out.push(lines[i++]);
      continue;
    }
    // The header: from the section line up to the first content line or the next section.
    let end = i + 1;
    while (end < lines.length && !isContentStart(lines[end]) && !isSectionStart(lines[end])) {
      end++;
    }
    // `---`/`+++` lines come right before the first hunk; they belong to the header.
    const header = lines.slice(i, end);
    const secret = header.some((line) => headerPaths(line).some(isSecretPath));
    out.push(...header);
    let next = end;
    while (next < lines.length && !isSectionStart(lines[next])) next++;
    if (secret) {
      if (next > end) out.push(SECRET_WITHHELD);
    } else {
      // One push per line: spreading a section of 100k+ lines would overflow the call stack.
      for (let k = end; k < next; k++) out.push(lines[k]);
    }
    i = next;
  }
  return out;
}
