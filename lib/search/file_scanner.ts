/**
 * How a search worker scans one file: read whole when small (into one reused buffer), streamed
 * when large (stream_scan.ts), or only the pieces the index names; the compiled matcher and the
 * `uses` regex kept across the files of a job; the files left out because they would need more
 * than MAX_HOLD_BYTES held at once, collected per batch.
 */
import { log } from "../log.ts";
import { readFullySync, type Workspace } from "../workspace/workspace.ts";
import { createMatcher, type Matcher } from "./matcher.ts";
import { CHUNK_BYTES, countInChunks, decodeForSearch } from "./decode.ts";
import {
  firstChunkIsBinary,
  MAX_HOLD_BYTES,
  scanStream,
  STREAM_FROM_BYTES,
} from "./stream_scan.ts";
import { contentLines } from "./content_lines.ts";
import { mayDefineAnywhere } from "../c_source/definition_sites.ts";
import { fileMayDefine } from "../c_source/definition_regions.ts";
import type { FileResult, SearchMessage, SkippedFile } from "./protocol.ts";
import type { WorkerSlot } from "./worker_slot.ts";
import type { PatternSpec } from "./pattern.ts";

/** Every file is read into one buffer (grown as needed up to MAX_SCRATCH), never a fresh one. */
const MAX_SCRATCH = STREAM_FROM_BYTES;

/**
 * C/C++ files up to this size are decoded whole when a `uses` verdict is asked, so that it is
 * given here rather than by a parser worker reading the file again (which reads it whole too).
 */
const JUDGED_BYTES = 1024 * 1024;

const firstPieceDecoder = new TextDecoder("utf-8");
const laterPieceDecoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** An opened file and its size. */
export interface OpenedFile {
  file: Deno.FsFile;
  size: number;
}

export class FileScanner {
  readonly #slot: WorkerSlot;
  readonly #hooks: { regexStart(): void; regexEnd(): void };
  #matcherKey = "";
  #matcher: Matcher | null = null;
  #usesKey = "";
  #usesRegex: RegExp | null = null;
  #usesExtensions = new Set<string>();
  #scratch = new Uint8Array(1024 * 1024);
  /** Files of the current batch left unsearched because of MAX_HOLD_BYTES, and why. */
  #skipped: SkippedFile[] = [];
  readonly #notedLarge = new Set<string>();

  constructor(slot: WorkerSlot) {
    this.#slot = slot;
    this.#hooks = { regexStart: () => slot.regexStart(), regexEnd: () => slot.regexEnd() };
  }

  /** The matcher of `spec`, compiled once per pattern. */
  matcherFor(spec: PatternSpec): Matcher {
    const key = `${spec.multiline}/${spec.flags}/${spec.source}`;
    if (this.#matcher === null || key !== this.#matcherKey) {
      this.#matcher = createMatcher(spec);
      this.#matcherKey = key;
    }
    return this.#matcher;
  }

  /** The files skipped since the last call (once each), and a fresh list for the next batch. */
  takeSkipped(): SkippedFile[] {
    const once = new Map(this.#skipped.map((s) => [s.path, s]));
    this.#skipped = [];
    return [...once.values()];
  }

  /**
   * The regex and extensions of a `uses` request when `rel` is one of those files, else null:
   * the pattern's own JavaScript regex, as the parser worker compiles it (without g or y).
   */
  usesFor(message: SearchMessage, rel: string): RegExp | null {
    const uses = message.uses;
    if (uses === undefined) return null;
    const spec = message.spec;
    const key = `${spec.flags}/${spec.source}/${uses.extensions.join(",")}`;
    if (this.#usesRegex === null || key !== this.#usesKey) {
      this.#usesRegex = new RegExp(spec.source, spec.flags.replace(/[gy]/g, ""));
      this.#usesExtensions = new Set(uses.extensions);
      this.#usesKey = key;
    }
    const base = rel.slice(rel.lastIndexOf("/") + 1);
    const dot = base.lastIndexOf(".");
    return dot > 0 && this.#usesExtensions.has(base.slice(dot).toLowerCase())
      ? this.#usesRegex
      : null;
  }

  /**
   * Marks `result` when no hit in these texts may be a definition (SearchMessage `uses`): the
   * whole file's text is judged with its function bodies, comments and preprocessor lines
   * (`fileMayDefine`); the index's pieces, each alone, by each hit's neighbours only.
   */
  #judged(
    result: FileResult,
    texts: readonly string[],
    regex: RegExp | null,
    whole: boolean,
  ): FileResult {
    if (regex === null || result.count === 0) return result;
    this.#slot.regexStart();
    const maybe = whole && texts.length === 1
      ? fileMayDefine(texts[0], regex)
      : texts.some((text) => mayDefineAnywhere(text, regex));
    this.#slot.regexEnd();
    if (!maybe) result.uses = true;
    return result;
  }

  /**
   * Scans only the pieces the index says can match (while the file is unchanged); undefined
   * when the file changed since (then it is read as a whole).
   */
  scanPieces(
    ws: Workspace,
    abs: string,
    rel: string,
    pieces: readonly number[],
    m: Matcher,
    message: SearchMessage,
  ): FileResult | null | undefined {
    const parts = ws.readRangesSync(abs, { size: pieces[0], mtimeMs: pieces[1] }, pieces.slice(2));
    if (parts === null) return undefined;
    let count = 0;
    const uses = this.usesFor(message, rel);
    const texts: string[] = [];
    this.#slot.regexStart();
    for (let k = 0; k < parts.length; k++) {
      const decoder = pieces[2 + 2 * k] === 0 ? firstPieceDecoder : laterPieceDecoder;
      const text = decoder.decode(parts[k]);
      count += m.scanText(text, { wantLines: false }).count;
      if (uses !== null) texts.push(text);
    }
    this.#slot.regexEnd();
    // Each piece is judged alone: a hit at a piece's edge, whose neighbours lie outside it, is
    // never ruled out (the test errs only towards "may define").
    return count > 0 ? this.#judged({ path: rel, count }, texts, uses, false) : null;
  }

  /** Scans an opened file: read whole when small, else streamed (stream_scan.ts). */
  scanOpened(
    opened: OpenedFile,
    rel: string,
    m: Matcher,
    message: SearchMessage,
    collect: boolean,
  ): FileResult | null {
    const size = opened.size;
    if (size <= STREAM_FROM_BYTES) {
      const scratch = this.#scratch;
      const bytes = readFullySync(
        opened.file,
        size <= scratch.length ? scratch.subarray(0, size) : new Uint8Array(size),
      );
      return this.#scanBytes(bytes, rel, m, message, collect);
    }
    if (message.spec.multiline) {
      // A match may span lines, so the whole text is needed: binary files are still decided on
      // their first chunk, and nothing over MAX_HOLD_BYTES is held.
      if (firstChunkIsBinary(opened.file)) return null;
      if (size > MAX_HOLD_BYTES) {
        this.#skipTooLarge(rel, "multiline", size);
        return null;
      }
      opened.file.seekSync(0, Deno.SeekMode.Start);
      const bytes = readFullySync(opened.file, new Uint8Array(size));
      return this.#scanBytes(bytes, rel, m, message, collect);
    }
    // Context lines too: the collector keeps only a bounded window of earlier lines.
    const out = scanStream(opened.file, rel, m, {
      collect,
      content: message.content,
      hooks: this.#hooks,
      maxLines: message.maxLines,
    });
    if (out.kind === "too-long") {
      this.#skipTooLarge(rel, "line", size);
      return null;
    }
    if (out.kind === "binary" || out.count === 0) return null;
    return collect && out.lines !== undefined
      ? { path: rel, count: out.count, lines: out.lines }
      : { path: rel, count: out.count };
  }

  /** Scans one file's bytes (then releases them); null when it has no match or is binary. */
  #scanBytes(
    bytes: Uint8Array,
    rel: string,
    m: Matcher,
    message: SearchMessage,
    collect: boolean,
  ): FileResult | null {
    const judging = bytes.length <= JUDGED_BYTES && this.usesFor(message, rel) !== null;
    if (!collect && !message.spec.multiline && bytes.length > CHUNK_BYTES && !judging) {
      // Counting only: decode and scan a large file in line-aligned chunks (less memory).
      this.#slot.regexStart();
      const count = countInChunks(bytes, m);
      this.#slot.regexEnd();
      this.#done(bytes);
      return count > 0 ? { path: rel, count } : null;
    }
    const text = decodeForSearch(bytes);
    this.#done(bytes);
    if (text === null) return null;
    this.#slot.regexStart();
    const r = m.scanText(text, { wantLines: collect });
    this.#slot.regexEnd();
    if (r.count === 0) return null;
    if (collect && r.lines !== undefined) {
      return {
        path: rel,
        count: r.count,
        lines: contentLines(rel, text, r.lines, message.content, m.locate),
      };
    }
    return this.#judged({ path: rel, count: r.count }, [text], this.usesFor(message, rel), true);
  }

  /** After a file is scanned: a file too big for the scratch grows it for the next, then is freed. */
  #done(bytes: Uint8Array): void {
    if (bytes.buffer === this.#scratch.buffer) return;
    if (bytes.length > this.#scratch.length && bytes.length <= MAX_SCRATCH) {
      this.#scratch = new Uint8Array(bytes.length);
    }
    release(bytes);
  }

  /** A file not searched because it needs more than MAX_HOLD_BYTES held at once. */
  #skipTooLarge(rel: string, reason: SkippedFile["reason"], size: number): void {
    this.#skipped.push({ path: rel, reason, size });
    if (this.#notedLarge.has(rel) || this.#notedLarge.size > 1000) return;
    this.#notedLarge.add(rel);
    const limit = `${MAX_HOLD_BYTES / 1024 / 1024} MiB`;
    log.warn(
      reason === "multiline"
        ? `Skipped "${rel}": a multiline pattern holds the whole file, and grep holds at most ${limit} of one file`
        : `Skipped "${rel}": it has a line longer than ${limit}, the most grep holds of one file`,
    );
  }
}

/**
 * Frees a file buffer at once (detaching it), rather than when the garbage collector gets to it:
 * a search reads gigabytes, and lazily freed buffers would hold hundreds of MiB.
 */
function release(bytes: Uint8Array): void {
  const buffer = bytes.buffer as ArrayBuffer & { transfer?: (length: number) => ArrayBuffer };
  if (bytes.byteOffset !== 0 || buffer.byteLength !== bytes.byteLength) return; // not all ours
  if (typeof buffer.transfer === "function" && !(buffer instanceof SharedArrayBuffer)) {
    try {
      buffer.transfer(0);
    } catch {
      // not transferable: the collector frees it
    }
  }
}
