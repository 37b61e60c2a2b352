/**
 * One streaming pass over a file for read_file (docs/tools.md "read_file"): counts every line,
 * formats the lines of the requested window as `%6d<TAB>text` (each cut at MAX_LINE_CHARS with
 * `... [+N chars]`) until the window's line count or character budget is reached, and judges
 * the whole file binary when it holds a NUL byte anywhere (grep's rule), whatever the window.
 * Memory stays bounded: only the window's lines are kept, each at most KEEP_BYTES.
 */
import { cutLine, MAX_LINE_CHARS } from "./long_lines.ts";
import { utf8Length } from "../message_size.ts";

const CHUNK = 256 * 1024;
/** Bytes of one line kept for display: enough for MAX_LINE_CHARS characters of any UTF-8. */
const KEEP_BYTES = MAX_LINE_CHARS * 4 + 4;
/** Room kept for the structuredContent wrapper and the hint line. */
export const RESERVE_CHARS = 400;
/** Room kept in a capped message for the envelope, the other fields and the hint line. */
const RESERVE_BYTES = 16 * 1024;

export interface LineWindow {
  /** 1-based first line to show (Infinity: only count). */
  start: number;
  /** Max lines to show. */
  count: number;
  /** Character budget of the page, measured on the larger of text and JSON (Infinity: off). */
  budget: number;
  /**
   * Bytes the page may take in the message (lib/message_size.ts): each line is there twice (the
   * text block and structuredContent.text), JSON-escaped, in UTF-8. Infinity when absent.
   */
  capBytes?: number;
}

export interface LineScan {
  /** Lines in the file (a last line without LF counts). */
  total: number;
  /** The window's lines, formatted. */
  shown: string[];
  /** Last line shown (start - 1 when none). */
  end: number;
  /** Byte offset of the first NUL byte, or -1: the file is text. When set, the pass stopped. */
  firstNul: number;
  /** The window was closed by `capBytes` (not by its count or budget). */
  capped: boolean;
}

/** UTF-16 length of UTF-8 bytes (continuation bytes add nothing, 4-byte leads add two). */
function utf16Length(bytes: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if ((b & 0xc0) !== 0x80) n += b >= 0xf0 ? 2 : 1;
  }
  return n;
}

const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** One display line: text cut at MAX_LINE_CHARS with `... [+N chars]`, a CR before LF dropped. */
function displayLine(kept: Uint8Array, extraUnits: number, first: boolean): string {
  let bytes = kept;
  if (bytes.length > 0 && bytes[bytes.length - 1] === 13 && extraUnits === 0) {
    bytes = bytes.subarray(0, bytes.length - 1);
  }
  let text = decoder.decode(bytes);
  if (first && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return cutLine(text, extraUnits);
}

function concat(parts: Uint8Array[], length: number): Uint8Array {
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** What the scan reads from: a file handle, or bytes in memory. */
export interface LineReader {
  read(buffer: Uint8Array): Promise<number | null>;
}

/** Reads `file` from its current position to the end in one pass. */
export async function scanLines(
  file: LineReader,
  window: LineWindow,
  signal: AbortSignal,
): Promise<LineScan> {
  const buffer = new Uint8Array(CHUNK);
  let line = 1; // number of the line being read
  let started = false; // the current line has bytes
  let kept: Uint8Array[] = [];
  let keptBytes = 0;
  let extraUnits = 0;
  let textSize = 0;
  let jsonSize = 0;
  let wireSize = 0;
  let capped = false;
  const capBytes = window.capBytes ?? Infinity;
  let full = false; // the window is closed: only counting now
  const shown: string[] = [];
  let end = window.start - 1;
  let total = 0;
  let read = 0; // bytes before the current chunk
  const inWindow = () => !full && line >= window.start;
  const finishLine = () => {
    if (inWindow()) {
      const joined = kept.length === 1 ? kept[0] : concat(kept, keptBytes);
      const text = `${String(line).padStart(6)}\t${displayLine(joined, extraUnits, line === 1)}`;
      const t = textSize + text.length + 1;
      const quoted = JSON.stringify(text);
      const j = jsonSize + quoted.length;
      const w = wireSize + 2 * utf8Length(quoted);
      if (shown.length > 0 && Math.max(t, j) + RESERVE_CHARS > window.budget) full = true;
      else if (shown.length > 0 && w + RESERVE_BYTES > capBytes) {
        full = true;
        capped = true;
      } else {
        shown.push(text);
        textSize = t;
        jsonSize = j;
        wireSize = w;
        end = line;
        if (shown.length >= window.count) full = true;
      }
    }
    kept = [];
    keptBytes = 0;
    extraUnits = 0;
    started = false;
    total = line;
    line++;
  };
  const take = (bytes: Uint8Array) => {
    if (bytes.length === 0) return;
    started = true;
    if (!inWindow()) return;
    const room = KEEP_BYTES - keptBytes;
    if (room > 0) {
      const part = bytes.subarray(0, room);
      kept.push(part.slice());
      keptBytes += part.length;
    }
    if (bytes.length > room) extraUnits += utf16Length(bytes.subarray(Math.max(room, 0)));
  };
  for (;;) {
    if (signal.aborted) throw new DOMException("The read was cancelled", "AbortError");
    const n = await file.read(buffer);
    if (n === null) break;
    const chunk = buffer.subarray(0, n);
    const nul = chunk.indexOf(0);
    if (nul >= 0) {
      return { total, shown: [], end: window.start - 1, firstNul: read + nul, capped: false };
    }
    let from = 0;
    for (;;) {
      const nl = chunk.indexOf(10, from);
      if (nl < 0) {
        take(chunk.subarray(from));
        break;
      }
      take(chunk.subarray(from, nl));
      finishLine();
      from = nl + 1;
    }
    read += n;
  }
  if (started) finishLine();
  return { total, shown, end, firstNul: -1, capped };
}
