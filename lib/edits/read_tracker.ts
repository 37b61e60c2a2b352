/**
 * What this session has been shown (docs/tools.md "Read before write"): for each file, by its
 * real path, the SHA-256 of one version of its content, its line count, and which lines of that
 * version some answer showed (read_file pages, resources/read, grep and find_references lines,
 * git_blame of the work tree). An edit may change only lines shown for the current version; a
 * whole-file write needs every line shown. Showing a newer version starts afresh. One tracker
 * per session, never shared.
 */

export interface ReadState {
  size: number;
  mtimeMs: number;
  sha256: string;
  /** Lines of that version (a last line without LF counts; an empty file has none). */
  lines: number;
}

/** Inclusive 1-based line range. */
export interface LineRange {
  start: number;
  end: number;
}

interface Entry {
  state: ReadState;
  /** Shown lines of that version: sorted, disjoint, not adjacent. */
  shown: LineRange[];
}

/** Files remembered at most; the oldest are forgotten first (they must then be read again). */
const MAX_FILES = 10_000;
/** Separate ranges kept per file at most (past it the oldest gaps are closed conservatively). */
const MAX_RANGES = 4_096;

export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>),
  );
  let hex = "";
  for (const b of digest) hex += b.toString(16).padStart(2, "0");
  return hex;
}

/** Lines of `bytes` as read_file counts them: LFs, plus a last line that has no LF. */
export function lineCount(bytes: Uint8Array): number {
  let n = 0;
  for (let at = bytes.indexOf(10); at >= 0; at = bytes.indexOf(10, at + 1)) n++;
  if (bytes.length > 0 && bytes[bytes.length - 1] !== 10) n++;
  return n;
}

/** `ranges` with `add` merged in (sorted, disjoint, adjacent ones joined). */
function merge(ranges: readonly LineRange[], add: LineRange): LineRange[] {
  const out: LineRange[] = [];
  let start = add.start;
  let end = add.end;
  let placed = false;
  for (const r of ranges) {
    if (r.end + 1 < start) out.push(r);
    else if (end + 1 < r.start) {
      if (!placed) {
        out.push({ start, end });
        placed = true;
      }
      out.push(r);
    } else {
      start = Math.min(start, r.start);
      end = Math.max(end, r.end);
    }
  }
  if (!placed) out.push({ start, end });
  return out;
}

/** The parts of `want` no range of `shown` covers. */
export function missingLines(shown: readonly LineRange[], want: LineRange): LineRange[] {
  const out: LineRange[] = [];
  let next = want.start;
  for (const r of shown) {
    if (r.end < next) continue;
    if (r.start > want.end) break;
    if (r.start > next) out.push({ start: next, end: Math.min(r.start - 1, want.end) });
    next = Math.max(next, r.end + 1);
    if (next > want.end) break;
  }
  if (next <= want.end) out.push({ start: next, end: want.end });
  return out;
}

export class ReadTracker {
  readonly #files = new Map<string, Entry>();

  /**
   * Remembers that `ranges` of the version `state` of `abs` (a real path) were shown; `"all"`
   * for the whole file. A different version than the one remembered replaces it.
   */
  record(abs: string, state: ReadState, ranges: readonly LineRange[] | "all"): void {
    const old = this.#files.get(abs);
    let shown = old !== undefined && old.state.sha256 === state.sha256 ? old.shown : [];
    const add = ranges === "all" ? [{ start: 1, end: Math.max(state.lines, 1) }] : ranges;
    for (const r of add) {
      const start = Math.max(1, r.start);
      const end = Math.min(r.end, Math.max(state.lines, 1));
      if (end >= start) shown = merge(shown, { start, end });
    }
    // Bounded: past the cap the shown set is cut to its last ranges (never widened).
    if (shown.length > MAX_RANGES) shown = shown.slice(shown.length - MAX_RANGES);
    this.#files.delete(abs);
    if (this.#files.size >= MAX_FILES) this.#files.delete(this.#files.keys().next().value!);
    this.#files.set(abs, { state, shown });
  }

  /** Remembers `bytes` as the content of `abs` with `ranges` shown (hashes them first). */
  async recordBytes(
    abs: string,
    bytes: Uint8Array,
    stat: { size: number; mtimeMs: number },
    ranges: readonly LineRange[] | "all" = "all",
  ): Promise<ReadState> {
    const state = {
      size: stat.size,
      mtimeMs: stat.mtimeMs,
      sha256: await sha256Hex(bytes),
      lines: lineCount(bytes),
    };
    this.record(abs, state, ranges);
    return state;
  }

  get(abs: string): ReadState | undefined {
    return this.#files.get(abs)?.state;
  }

  /** The lines of `want` not shown for the remembered version (all of it when none is). */
  missing(abs: string, want: LineRange): LineRange[] {
    const entry = this.#files.get(abs);
    return missingLines(entry?.shown ?? [], want);
  }

  /** Moves what was shown of `from` to `to` (a file moved: same content, new name). */
  rename(from: string, to: string): void {
    const entry = this.#files.get(from);
    this.#files.delete(from);
    this.#files.delete(to);
    if (entry !== undefined) this.#files.set(to, entry);
  }

  forget(abs: string): void {
    this.#files.delete(abs);
  }
}
