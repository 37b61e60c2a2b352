/**
 * A shard file of the stored index, opened for queries: its tables (documents, trigrams, file
 * records) are read and checked at open; its posting lists stay on disk and are read when a
 * query needs them (the OS page cache, shared between processes, holds them; the JavaScript
 * heap does not). Everything read is hostile until checked: the file is opened only when lstat
 * says it is a plain file (no link, no FIFO), the opened handle must be that same file, every
 * section and every list must match its checksum, and every number must be in range.
 */
import { checksum, sectionChecksum } from "./checksum.ts";
import type { PostingSource } from "../query/evaluate.ts";
import { isHashList } from "../lists/name_hashes.ts";
import { sortedFind } from "../lists/sorted_find.ts";
import {
  COL_BYTES,
  type MetaJson,
  NO_NAMES,
  SHARD_MAGIC,
  SHARD_VERSION,
  type ShardMeta,
  type ShardToc,
  type StoredFile,
  TAIL_BYTES,
} from "./shard_format.ts";

/** Larger shard files are refused at once (a sparse or runaway file is never read). */
export const MAX_SHARD_BYTES = 2 * 1024 * 1024 * 1024;
/** The largest table section read into memory. */
const MAX_SECTION_BYTES = 512 * 1024 * 1024;

export class ShardError extends Error {
  override name = "ShardError";
}

function fail(why: string): never {
  throw new ShardError(why);
}

function readAt(file: Deno.FsFile, offset: number, length: number): Uint8Array {
  const out = new Uint8Array(length);
  file.seekSync(offset, Deno.SeekMode.Start);
  let done = 0;
  while (done < length) {
    const n = file.readSync(out.subarray(done));
    if (n === null || n === 0) fail("the shard is shorter than its table of contents says");
    done += n;
  }
  return out;
}

/**
 * Opens `path` as a plain file without following a link: lstat first (only a regular file is
 * opened, so a FIFO cannot hang the open), then the handle's fstat must name the same file.
 */
export function openPlainFile(path: string, maxBytes: number): { file: Deno.FsFile; size: number } {
  let checked: Deno.FileInfo;
  try {
    checked = Deno.lstatSync(path);
  } catch {
    fail("missing");
  }
  if (!checked.isFile || checked.isSymlink) fail("not a plain file");
  if (checked.size > maxBytes) fail(`too large (${checked.size} bytes)`);
  const file = Deno.openSync(path, { read: true });
  try {
    const opened = file.statSync();
    if (!opened.isFile || opened.dev !== checked.dev || opened.ino !== checked.ino) {
      fail("changed while being opened");
    }
    return { file, size: opened.size };
  } catch (error) {
    file.close();
    throw error;
  }
}

function isInt(n: unknown, max = Number.MAX_SAFE_INTEGER): n is number {
  return typeof n === "number" && Number.isInteger(n) && n >= 0 && n <= max;
}

function isNum(n: unknown): n is number {
  return typeof n === "number" && Number.isFinite(n);
}

function section(s: unknown, size: number): [number, number, number] {
  if (!Array.isArray(s) || s.length !== 3 || !isInt(s[0]) || !isInt(s[1]) || !isInt(s[2])) {
    fail("bad section in the table of contents");
  }
  if (s[0] + s[1] > size || s[1] > MAX_SECTION_BYTES) fail("a section lies outside the file");
  return s as [number, number, number];
}

/** The file records from the cols section and the meta JSON, checked. */
function checkMeta(json: unknown, cols: Uint8Array, toc: ShardToc): ShardMeta {
  const m = json as MetaJson;
  if (typeof m !== "object" || m === null || !Array.isArray(m.rels)) {
    fail("bad file records");
  }
  if (!Array.isArray(m.supersedes) || m.supersedes.some((r) => typeof r !== "string")) {
    fail("bad superseded paths");
  }
  if (!Array.isArray(m.reals)) fail("bad real paths");
  const n = toc.files;
  if (m.rels.length !== n || cols.length !== n * COL_BYTES) fail("file count mismatch");
  const f64 = new Float64Array(cols.buffer, cols.byteOffset, n * 6);
  const i32 = new Int32Array(cols.buffer, cols.byteOffset + n * 48, n * 3);
  const files: StoredFile[] = new Array(n);
  let nextDoc = 0;
  for (let i = 0; i < n; i++) {
    const rel = m.rels[i];
    const f: StoredFile = {
      rel,
      real: "",
      dev: f64[i],
      ino: f64[n + i],
      size: f64[2 * n + i],
      mtimeMs: f64[3 * n + i],
      ctimeMs: f64[4 * n + i],
      seenAt: f64[5 * n + i],
      state: i32[i],
      firstDoc: i32[n + i],
      docs: i32[2 * n + i],
    };
    if (
      typeof rel !== "string" || rel === "" || !isNum(f.dev) || !isNum(f.ino) ||
      !isInt(f.size) || !isNum(f.mtimeMs) || !isNum(f.ctimeMs) || !isNum(f.seenAt) ||
      !isInt(f.state, 2) || !isInt(f.firstDoc) || !isInt(f.docs)
    ) fail("bad file record");
    if (f.docs > 0 && f.firstDoc !== nextDoc) fail("documents out of order");
    nextDoc += f.docs;
    files[i] = f;
  }
  if (nextDoc !== toc.docs) fail("document count mismatch");
  for (const r of m.reals) {
    if (!Array.isArray(r) || !isInt(r[0], n - 1) || typeof r[1] !== "string") fail("bad real path");
    if (!r[1].startsWith("/")) fail("bad real path");
    files[r[0]].real = r[1];
  }
  return { files, supersedes: m.supersedes, folders: m.folders ?? null };
}

export class StoredShard implements PostingSource {
  readonly path: string;
  readonly toc: ShardToc;
  readonly files: StoredFile[];
  readonly supersedes: string[];
  /** The folder table as stored (unchecked JSON: decodeFolders checks it). */
  readonly folders: unknown;
  readonly docFile: Int32Array;
  readonly docOff: Float64Array;
  readonly docLen: Float64Array;
  /** The trigram table as read: per trigram [trigram, list offset, count, checksum], then the end. */
  readonly #table: Uint32Array;
  readonly #tris: number;
  readonly #postingsEnd: number;
  /** The names section's place, read on first use (namesOf). */
  readonly #namesAt: [number, number, number];
  /** Per file the start of its list in #nameWords and its length (-1: none), once read. */
  #nameStart: Uint32Array | null = null;
  #nameCount: Int32Array | null = null;
  #nameWords: Uint32Array | null = null;
  #file: Deno.FsFile | null;

  private constructor(
    path: string,
    file: Deno.FsFile,
    size: number,
    key: string,
    written?: ShardMeta,
  ) {
    this.path = path;
    this.#file = file;
    if (size < TAIL_BYTES) fail("truncated");
    const tail = new DataView(readAt(file, size - TAIL_BYTES, TAIL_BYTES).buffer);
    if (tail.getUint32(8, true) !== SHARD_MAGIC) fail("not a shard (or truncated)");
    const tocLength = tail.getUint32(0, true);
    if (tocLength > 65536 || tocLength + TAIL_BYTES > size) fail("bad table of contents");
    const tocBytes = readAt(file, size - TAIL_BYTES - tocLength, tocLength);
    if (checksum(tocBytes) !== tail.getUint32(4, true)) fail("table of contents checksum");
    let toc: ShardToc;
    try {
      toc = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(tocBytes));
    } catch {
      fail("unreadable table of contents");
    }
    if (typeof toc !== "object" || toc === null || toc.magic !== "shipcode-mcp index shard") {
      fail("not a shard");
    }
    if (toc.version !== SHARD_VERSION) fail(`format version ${toc.version}`);
    if (toc.key !== key) fail("a shard of another root or other flags");
    if (!isInt(toc.files) || !isInt(toc.docs) || !isInt(toc.tris)) fail("bad counts");
    const end = size - TAIL_BYTES - tocLength;
    const [docStart, docLength, docSum] = section(toc.docTable, end);
    const [triStart, triLength, triSum] = section(toc.triTable, end);
    const [metaStart, metaLength, metaSum] = section(toc.meta, end);
    const [colStart, colLength, colSum] = section(toc.cols, end);
    this.#namesAt = section(toc.names, end);
    if (this.#namesAt[1] % 4 !== 0 || this.#namesAt[1] < toc.files * 4) fail("bad names section");
    if (docLength !== toc.docs * 20 || triLength !== toc.tris * 16 + 4) fail("bad table sizes");
    const docs = readAt(file, docStart, docLength);
    if (sectionChecksum(docs) !== docSum) fail("document table checksum");
    this.docFile = new Int32Array(docs.buffer, 0, toc.docs);
    this.docOff = new Float64Array(docs.buffer.slice(toc.docs * 4, toc.docs * 12));
    this.docLen = new Float64Array(docs.buffer.slice(toc.docs * 12, toc.docs * 20));
    const triBytes = readAt(file, triStart, triLength);
    if (sectionChecksum(triBytes) !== triSum) fail("trigram table checksum");
    const n = toc.tris;
    // Little-endian words, read in place (the shard is written little-endian; so is every
    // platform Deno runs on).
    const table = new Uint32Array(triBytes.buffer, triBytes.byteOffset, n * 4 + 1);
    let lastTri = -1;
    let lastOff = 0;
    for (let i = 0; i < n; i++) {
      const tri = table[i * 4];
      if (tri <= lastTri || tri > 0xffffff) fail("trigrams out of order");
      lastTri = tri;
      const off = table[i * 4 + 1];
      if (off < lastOff) fail("posting lists out of order");
      lastOff = off;
      if (table[i * 4 + 2] > toc.docs) fail("a posting list longer than the documents");
    }
    if (table[n * 4] < lastOff) fail("posting lists out of order");
    this.#table = table;
    this.#tris = n;
    this.#postingsEnd = table[n * 4];
    if (this.#postingsEnd > Math.min(docStart, triStart, metaStart, colStart, this.#namesAt[0])) {
      fail("postings overlap");
    }
    const metaBytes = readAt(file, metaStart, metaLength);
    if (sectionChecksum(metaBytes) !== metaSum) fail("file records checksum");
    let meta: unknown;
    const cols = readAt(file, colStart, colLength);
    if (sectionChecksum(cols) !== colSum) fail("file records checksum");
    let checked: ShardMeta;
    if (written !== undefined && written.files.length === toc.files) {
      // This process has just written these records: the checksums say the disk holds what it
      // wrote, so they are taken over rather than parsed again into copies.
      checked = written;
    } else {
      try {
        meta = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(metaBytes));
      } catch {
        fail("unreadable file records");
      }
      checked = checkMeta(meta, cols, toc);
    }
    for (let d = 0; d < toc.docs; d++) {
      const f = this.docFile[d];
      if (f < 0 || f >= checked.files.length) fail("a document of no file");
    }
    this.toc = toc;
    this.files = checked.files;
    this.supersedes = checked.supersedes;
    this.folders = checked.folders;
  }

  /**
   * Opens and checks the shard at `path` for the root key `key`; throws ShardError. `written`:
   * the file records this process has just written there (persist), taken over once every
   * checksum holds instead of being read back into copies.
   */
  static open(path: string, key: string, written?: ShardMeta): StoredShard {
    let opened: { file: Deno.FsFile; size: number };
    try {
      opened = openPlainFile(path, MAX_SHARD_BYTES);
    } catch (error) {
      if (error instanceof ShardError) throw error;
      fail(error instanceof Error ? error.message : String(error));
    }
    try {
      return new StoredShard(path, opened.file, opened.size, key, written);
    } catch (error) {
      opened.file.close();
      if (error instanceof ShardError) throw error;
      fail(error instanceof Error ? error.message : String(error));
    }
  }

  /**
   * The names list of file `i` (name_hashes.ts), or null when it keeps none. The section is read
   * and checked on the first call (a session that never asks reads none of it); throws
   * ShardError when it fails a check.
   */
  namesOf(i: number): Uint32Array | null {
    if (this.#nameWords === null) this.#readNames();
    const count = this.#nameCount![i];
    if (count < 0) return null;
    const start = this.#nameStart![i];
    return this.#nameWords!.subarray(start, start + count);
  }

  #readNames(): void {
    if (this.#file === null) fail("the shard is closed");
    const [start, length, sum] = this.#namesAt;
    const bytes = readAt(this.#file, start, length);
    if (sectionChecksum(bytes) !== sum) fail("names checksum");
    const words = new Uint32Array(bytes.buffer, bytes.byteOffset, length / 4);
    const n = this.toc.files;
    const starts = new Uint32Array(n);
    const counts = new Int32Array(n);
    let at = n;
    for (let i = 0; i < n; i++) {
      const count = words[i];
      if (count === NO_NAMES) {
        counts[i] = -1;
        continue;
      }
      if (count > words.length - at) fail("names section shorter than its counts");
      starts[i] = at;
      counts[i] = count;
      if (!isHashList(words.subarray(at, at + count))) fail("names out of order");
      at += count;
    }
    if (at !== words.length) fail("names section longer than its counts");
    this.#nameStart = starts;
    this.#nameCount = counts;
    this.#nameWords = words;
  }

  /** Bytes of the file (all of it lives on disk, not in the heap). */
  get diskBytes(): number {
    return this.#postingsEnd;
  }

  #find(tri: number): number {
    return sortedFind(this.#table, this.#tris, tri, 4);
  }

  count(tri: number): number {
    const i = this.#find(tri);
    return i < 0 ? 0 : this.#table[i * 4 + 2];
  }

  /** The list of `tri`, read from disk and checked; throws ShardError when it fails a check. */
  docs(tri: number): Int32Array {
    const out = new Int32Array(this.count(tri));
    this.docsInto(tri, out, 0);
    return out;
  }

  /**
   * Writes the list of `tri` into `out` from `at` (room for count(tri) more), read from disk and
   * checked; returns how many were written. Throws ShardError when it fails a check.
   */
  docsInto(tri: number, out: Int32Array, at: number): number {
    const i = this.#find(tri);
    if (i < 0) return 0;
    if (this.#file === null) fail("the shard is closed");
    const start = this.#table[i * 4 + 1];
    const end = i + 1 < this.#tris ? this.#table[i * 4 + 5] : this.#table[this.#tris * 4];
    const length = end - start;
    const bytes = readAt(this.#file, start, length);
    if (checksum(bytes, tri) !== this.#table[i * 4 + 3]) fail("posting list checksum");
    const count = this.#table[i * 4 + 2];
    if (out.length - at < count) throw new RangeError("docsInto: no room for the list");
    let doc = -1;
    let k = 0;
    let value = 0;
    let shift = 0;
    for (let p = 0; p < bytes.length; p++) {
      const b = bytes[p];
      value += (b & 127) * 2 ** shift;
      if (b < 128) {
        if (value === 0 || k >= count) fail("bad posting list");
        doc += value;
        out[at + k++] = doc;
        value = 0;
        shift = 0;
      } else if ((shift += 7) > 28) fail("bad posting list");
    }
    if (k !== count || shift !== 0 || (count > 0 && out[at + count - 1] >= this.toc.docs)) {
      fail("bad posting list");
    }
    return count;
  }

  toFiles(docs: Int32Array): Int32Array {
    const out = new Int32Array(docs.length);
    let n = 0;
    for (let i = 0; i < docs.length; i++) {
      const f = this.docFile[docs[i]];
      if (n === 0 || out[n - 1] !== f) out[n++] = f;
    }
    return out.subarray(0, n);
  }

  /** Trigrams of this shard, ascending (compaction and tests). */
  get trigrams(): Int32Array {
    const out = new Int32Array(this.#tris);
    for (let i = 0; i < out.length; i++) out[i] = this.#table[i * 4];
    return out;
  }

  close(): void {
    try {
      this.#file?.close();
    } catch {
      // already closed
    }
    this.#file = null;
  }
}
