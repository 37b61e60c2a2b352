/**
 * Searching a large file without holding it (README.md, "Limits"): the file is read in chunks
 * cut after a line feed, the first chunk decides whether it is binary (a NUL byte: skipped, as
 * ripgrep does; a 10 GB sparse file costs one chunk), and each chunk is decoded and scanned on
 * its own, so memory stays at a few chunks whatever the file's size (a single line longer than a
 * chunk is held whole: a match never spans lines). The regex timeout covers one chunk's scan.
 */
import { contentLines, type ContentOptions } from "./content_lines.ts";
import type { Matcher } from "./matcher.ts";

const MIB = 1024 * 1024;
/** Files larger than this are streamed; smaller ones are read whole (faster). */
export const STREAM_FROM_BYTES = 4 * MIB;
/** Bytes read at a time when streaming. */
export const STREAM_CHUNK_BYTES = 1 * MIB;
/** Bytes read at a time while content lines are still collected. */
const COLLECT_READ_BYTES = 64 * 1024;
/**
 * Multiline patterns and context lines need the whole file: up to this size; larger files are
 * skipped with a note on stderr (when they are not binary).
 */
export const WHOLE_MAX_BYTES = 256 * MIB;

export type StreamOutcome =
  | { kind: "binary" }
  | { kind: "scanned"; count: number; lines?: string[] };

export interface StreamHooks {
  /** Called around each chunk's regex scan (the regex timeout's stamp). */
  regexStart(): void;
  /** After a scan and after each read: back to the read phase, whose stall deadline restarts. */
  regexEnd(): void;
}

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

/** Counts (and, with `collect`, prints) the matching lines of `file`, streamed from its start. */
export function scanStream(
  file: Deno.FsFile,
  rel: string,
  m: Matcher,
  options: { collect: boolean; content: ContentOptions; hooks: StreamHooks; maxLines?: number },
): StreamOutcome {
  const lines: string[] | undefined = options.collect ? [] : undefined;
  const maxLines = options.maxLines !== undefined && options.maxLines > 0
    ? options.maxLines
    : Infinity;
  let held = 0;
  let decoded = false;
  let count = 0;
  let lineBase = 0;
  for (;;) {
    if (held === buffer.length) {
      // One line longer than the buffer: hold it whole.
      const bigger = new Uint8Array(buffer.length * 2);
      bigger.set(buffer);
      buffer = bigger;
    }
    // While lines are collected, small reads: a chunk's line bookkeeping runs inside its regex
    // scan, and the page needs only its first lines.
    const collecting = lines !== undefined && lines.length < maxLines;
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
      options.hooks.regexStart();
      // Past the page's lines only the count matters (head_limit stops the collecting early).
      const r = m.scanText(text, { wantLines: lines !== undefined && lines.length < maxLines });
      options.hooks.regexEnd();
      count += r.count;
      if (lines !== undefined && r.lines !== undefined && r.lines.length > 0) {
        for (const line of contentLines(rel, text, r.lines, options.content, lineBase, m.locate)) {
          if (lines.length >= maxLines) break;
          lines.push(line);
        }
      }
      for (let at = bytes.indexOf(10); at >= 0; at = bytes.indexOf(10, at + 1)) lineBase++;
      buffer.copyWithin(0, end, filled);
      held = filled - end;
    } else {
      held = filled;
    }
    if (eof) break;
  }
  if (buffer.length > 2 * STREAM_CHUNK_BYTES) buffer = new Uint8Array(2 * STREAM_CHUNK_BYTES);
  return lines === undefined ? { kind: "scanned", count } : { kind: "scanned", count, lines };
}
