/**
 * Searching a large file without holding it (docs/tools.md, "How much of a file a call holds"):
 * the file is read in chunks cut after a line feed, the first chunk decides whether it is binary
 * (a NUL byte: skipped, as ripgrep does; a 10 GB sparse file costs one chunk), and each chunk is
 * decoded and scanned on its own, so memory stays at a few chunks whatever the file's size. A
 * single line longer than a chunk is held whole up to MAX_HOLD_BYTES; a file with a longer line
 * is not searched (`too-long`). Content lines, context included, are built by a collector that
 * holds only a bounded window of earlier lines. The regex timeout covers one chunk's scan.
 */
import { ContentCollector, type ContentOptions } from "./content_lines.ts";
import type { Matcher } from "./matcher.ts";
import { LongLineScan } from "./long_line.ts";

const MIB = 1024 * 1024;
/** Files larger than this are streamed; smaller ones are read whole (faster). */
export const STREAM_FROM_BYTES = 4 * MIB;
/** Bytes read at a time when streaming. */
export const STREAM_CHUNK_BYTES = 1 * MIB;
/** Bytes read at a time while content lines are still collected. */
const COLLECT_READ_BYTES = 64 * 1024;
/**
 * The most of one file a search holds at once: the longest line it searches, and the largest
 * file a multiline pattern searches (it needs the whole text). Beyond it the file is skipped:
 * noted on stderr in a walk, said in the answer when the file was named alone.
 */
export const MAX_HOLD_BYTES = 128 * MIB;

export type StreamOutcome =
  | { kind: "binary" }
  | { kind: "too-long" }
  | { kind: "scanned"; count: number; lines?: string[] };

export interface StreamHooks {
  /** Called around each chunk's regex scan (the regex timeout's stamp). */
  regexStart(): void;
  /** After a scan and after each read: back to the read phase, whose stall deadline restarts. */
  regexEnd(): void;
}

/**
 * A line longer than this is searched in windows (long_line.ts) when the pattern's matches have a
 * bounded width, rather than held whole.
 */
export const LONG_LINE_BYTES = 16 * MIB;

const firstDecoder = new TextDecoder("utf-8");
const laterDecoder = new TextDecoder("utf-8", { ignoreBOM: true });
let buffer = new Uint8Array(2 * STREAM_CHUNK_BYTES);

/** True when the first chunk of `file` (read from its current position) holds a NUL byte. */
export function firstChunkIsBinary(file: Deno.FsFile): boolean {
  const head = new Uint8Array(STREAM_CHUNK_BYTES);
  let filled = 0;
  while (filled < head.length) {
    const n = file.readSync(head.subarray(filled));
    if (n === null || n === 0) break;
    filled += n;
  }
  return head.subarray(0, filled).indexOf(0) >= 0;
}

/** What a window search runs: a regex source and its longest match. */
interface WindowSearch {
  source: string;
  flags: string;
  analysis: { maxWidth?: number | null };
}

/** A search for any of the pattern's required literals (every match holds one), or null. */
function literalSearch(m: Matcher): WindowSearch | null {
  const literals = m.analysis.literals;
  if (literals === null || literals.length === 0) return null;
  const source = literals.map((l) => l.replace(/[\\^$.*+?()[\]{}|\/-]/g, "\\$&")).join("|");
  return { source, flags: "", analysis: { maxWidth: Math.max(...literals.map((l) => l.length)) } };
}

/**
 * The rest of a line too long to hold, whose first `held` bytes are in `buffer` (no LF among
 * them), read on until its LF and searched in windows. Afterwards `buffer` starts with the `rest`
 * bytes read past that LF. Null when a NUL byte shows the file is binary.
 */
function scanLongLine(
  file: Deno.FsFile,
  held: number,
  search: WindowSearch,
  first: boolean,
  hooks: StreamHooks,
): { scan: LongLineScan; rest: number; eof: boolean } | null {
  const scan = new LongLineScan(search.source, search.flags, search.analysis.maxWidth!, first);
  let pending = buffer.subarray(0, held);
  if (pending.indexOf(0) >= 0) return null;
  for (;;) {
    hooks.regexStart();
    scan.push(pending, false);
    hooks.regexEnd();
    const n = file.readSync(buffer.subarray(0, STREAM_CHUNK_BYTES));
    hooks.regexEnd(); // a read made progress
    if (n === null || n === 0) {
      scan.push(new Uint8Array(0), true);
      return { scan, rest: 0, eof: true };
    }
    const read = buffer.subarray(0, n);
    if (read.indexOf(0) >= 0) return null;
    const nl = read.indexOf(10);
    if (nl >= 0) {
      hooks.regexStart();
      scan.push(read.subarray(0, nl), true);
      hooks.regexEnd();
      buffer.copyWithin(0, nl + 1, n);
      return { scan, rest: n - nl - 1, eof: false };
    }
    pending = read;
  }
}

/** Counts (and, with `collect`, prints) the matching lines of `file`, streamed from its start. */
export function scanStream(
  file: Deno.FsFile,
  rel: string,
  m: Matcher,
  options: {
    collect: boolean;
    content: ContentOptions;
    hooks: StreamHooks;
    maxLines?: number;
    /** The longest line held (default MAX_HOLD_BYTES). */
    maxHold?: number;
  },
): StreamOutcome {
  const maxHold = options.maxHold ?? MAX_HOLD_BYTES;
  const collector = options.collect
    ? new ContentCollector(rel, options.content, { maxLines: options.maxLines, locate: m.locate })
    : null;
  let held = 0;
  let decoded = false;
  let count = 0;
  try {
    for (;;) {
      if (held === buffer.length) {
        // One line longer than the buffer: hold it whole, up to the bound, unless it can be
        // searched in windows (a bounded match width) once it is longer than a window.
        const width = m.analysis.maxWidth ?? null;
        const bounded = width !== null && held >= Math.min(maxHold, LONG_LINE_BYTES);
        // Past the bound, a pattern with required literals still answers "no match" for a line
        // that holds none of them; a line that holds one would have to be held whole.
        const literals = held >= maxHold ? literalSearch(m) : null;
        if (bounded || literals !== null) {
          const line = scanLongLine(
            file,
            held,
            bounded ? m.spec : literals!,
            !decoded,
            options.hooks,
          );
          if (line === null) return { kind: "binary" };
          if (!bounded && line.scan.matched) return { kind: "too-long" };
          decoded = true;
          if (line.scan.matched) count++;
          if (collector !== null && !collector.full) {
            collector.addCutLine(line.scan.shown(), line.scan.matched);
          }
          held = line.rest;
          if (line.eof) break;
          continue;
        }
        if (held >= maxHold) return { kind: "too-long" };
        const bigger = new Uint8Array(Math.max(held + 1, Math.min(buffer.length * 2, maxHold)));
        bigger.set(buffer);
        buffer = bigger;
      }
      // While lines are collected, small reads: a chunk's line bookkeeping runs inside its regex
      // scan, and the page needs only its first lines.
      const collecting = collector !== null && !collector.full;
      const want = collecting ? COLLECT_READ_BYTES : buffer.length - held;
      const n = file.readSync(buffer.subarray(held, Math.min(buffer.length, held + want)));
      const eof = n === null || n === 0;
      const filled = held + (eof ? 0 : n);
      options.hooks.regexEnd(); // a read made progress: the stall deadline starts again
      if (!decoded && !eof && held === 0 && buffer.subarray(0, filled).indexOf(0) >= 0) {
        return { kind: "binary" };
      }
      let end = filled;
      if (!eof) {
        // Only the bytes just read can hold a new line feed (the held ones had none).
        const nl = buffer.subarray(held, filled).lastIndexOf(10);
        end = nl >= 0 ? held + nl + 1 : 0;
      }
      if (end > 0) {
        const bytes = buffer.subarray(0, end);
        if (bytes.indexOf(0) >= 0) return { kind: "binary" };
        const text = (decoded ? laterDecoder : firstDecoder).decode(bytes);
        decoded = true;
        const wantLines = collector !== null && !collector.full;
        options.hooks.regexStart();
        // Past the page's lines only the count matters (head_limit stops the collecting early).
        const r = m.scanText(text, { wantLines });
        options.hooks.regexEnd();
        count += r.count;
        if (wantLines) collector.add(text, r.lines ?? []);
        buffer.copyWithin(0, end, filled);
        held = filled - end;
      } else {
        held = filled;
      }
      if (eof) break;
    }
  } finally {
    if (buffer.length > 2 * STREAM_CHUNK_BYTES) buffer = new Uint8Array(2 * STREAM_CHUNK_BYTES);
  }
  return collector === null
    ? { kind: "scanned", count }
    : { kind: "scanned", count, lines: collector.lines };
}
