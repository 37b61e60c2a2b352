/**
 * The stored index's shard file: immutable, written once under a temp name and renamed into
 * place (zoekt's way). Little-endian; sections first, a table of contents at the end, so the
 * writer streams the posting lists without knowing their size beforehand:
 *
 *   postings   varint-delta document ids, one list per trigram, ascending trigram order
 *   docs       int32 file index per document, then float64 offset and float64 length
 *   tris       int32 trigram, uint32 list offset (into postings), uint32 count, uint32 checksum
 *              per trigram, then one more uint32 offset (the end of the last list)
 *   cols       per file: float64 dev, ino, size, mtime, ctime, seen-at; int32 state, first
 *              document, document count (column by column)
 *   names      per file a uint32 count of its names list (NO_NAMES: none), then the lists,
 *              each sorted ascending (name_hashes.ts: the names a C/C++ file may define)
 *   meta       UTF-8 JSON: the files' paths (and real paths where they differ), the paths of
 *              the base that a delta shard supersedes, the folder table (folder_table.ts)
 *   toc        UTF-8 JSON: format version, key, counts, [offset, length, checksum] per section
 *   tail       uint32 toc length, uint32 toc checksum, uint32 magic
 *
 * Every section is checked against its checksum (sectionChecksum; the lists and the toc:
 * checksum) when read, and every posting list when it is
 * read (on demand); a shard that fails any check is discarded, never trusted.
 */
import { checksum, SectionChecksum, sectionChecksum } from "./checksum.ts";
import { freeNow } from "../../free_buffer.ts";
import type { FolderJson } from "./folder_table.ts";
import { writeDeltas } from "../lists/varints.ts";

export const SHARD_MAGIC = 0x31495853; // "SXI1"
/**
 * The format version, checked when a shard is opened: a shard of another version is not read
 * (the index is rebuilt). Bump it with every change to what a shard holds or how it is laid out,
 * and say here what the version added and why:
 *
 * 1: the first stored index: postings, docs, tris (with a checksum per list), cols, meta and the
 *    toc, each section checksummed; a delta shard names the base files it supersedes.
 * 2: meta holds the folder table (each folder's identity, mtime and ignore-file stats), so that
 *    the next start's stat pass reads again only the folders that changed.
 * 3: the sections carry a word-wise checksum (sectionChecksum), so that the trigram table is
 *    read in place as words, without copies, and a shard opens faster.
 * 4: the names section: per C/C++ file the hashes of the names it may define (name_hashes.ts),
 *    so that find_symbol reads only the files that may define the name.
 */
export const SHARD_VERSION = 4;
/** A names count meaning "this file keeps no list". */
export const NO_NAMES = 0xffffffff;
export const TAIL_BYTES = 12;

/** One file record as stored (and as the stat pass compares it with the disk). */
export interface StoredFile {
  rel: string;
  /** Real absolute path when it differs from root + "/" + rel, else "". */
  real: string;
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  /** Date.now() right before the file was read: an mtime not older than this is "racy". */
  seenAt: number;
  /** INDEXED, BINARY or SCAN (trigram_index.ts). */
  state: number;
  firstDoc: number;
  docs: number;
  /**
   * Written: the file's names list (name_hashes.ts), or null. Read from a shard: absent
   * (StoredShard.namesOf reads the lists when a query first asks).
   */
  names?: Uint32Array | null;
}

export interface ShardMeta {
  files: StoredFile[];
  /** Where the writer's names lists come from when the records carry none (`names`). */
  namesOf?: (i: number) => Uint32Array | null;
  /** Root-relative paths of the base shard that this (delta) shard supersedes. */
  supersedes: string[];
  /**
   * The folders as listed when the shard was written (folder_table.ts; checked when decoded):
   * the newest shard's table is the one the next stat pass uses. Null: none (a full walk).
   */
  folders: FolderJson | null;
}

export interface ShardToc {
  magic: "shipcode-mcp index shard";
  version: number;
  key: string;
  files: number;
  docs: number;
  tris: number;
  postings: [number, number];
  docTable: [number, number, number];
  triTable: [number, number, number];
  cols: [number, number, number];
  names: [number, number, number];
  meta: [number, number, number];
}

/** Bytes per file in the cols section. */
export const COL_BYTES = 6 * 8 + 3 * 4;

/** The JSON part of the file records: paths only (the numbers are columns). */
export interface MetaJson {
  rels: string[];
  /** [file index, real path] for the files whose real path differs. */
  reals: [number, string][];
  supersedes: string[];
  folders?: FolderJson | null;
}

/** The file records as columns (what the cols section holds). */
export function columnsOf(files: readonly StoredFile[]): Uint8Array {
  const n = files.length;
  const out = new Uint8Array(n * COL_BYTES);
  const f64 = new Float64Array(out.buffer, 0, n * 6);
  const i32 = new Int32Array(out.buffer, n * 48, n * 3);
  files.forEach((f, i) => {
    f64[i] = f.dev;
    f64[n + i] = f.ino;
    f64[2 * n + i] = f.size;
    f64[3 * n + i] = f.mtimeMs;
    f64[4 * n + i] = f.ctimeMs;
    f64[5 * n + i] = f.seenAt;
    i32[i] = f.state;
    i32[n + i] = f.docs > 0 ? f.firstDoc : 0;
    i32[2 * n + i] = f.docs;
  });
  return out;
}

/** Where the encoder's bytes go (the cache writer, or a test's buffer), in order. */
export type ShardSink = (bytes: Uint8Array) => void;

/** What the encoder needs of a posting source: each trigram's document ids, ascending. */
export interface ShardInput {
  key: string;
  meta: ShardMeta;
  /** Document table, indexed by the new document ids. */
  docFile: Int32Array;
  docOff: Float64Array;
  docLen: Float64Array;
  /** Trigrams to store, ascending. */
  trigrams: Int32Array;
  /**
   * The cols section as of the snapshot, when the records are the index's own (which a file's
   * removal during the paced write would change); else it is encoded from the records.
   */
  cols?: Uint8Array;
  /**
   * The new document ids (ascending) holding `tri`; empty lists are left out. The answer may be
   * a view of a buffer the next call reuses: it is read before the next is asked for.
   */
  docsOf(tri: number): Int32Array;
}

const CHUNK = 4 * 1024 * 1024;

/** Buffers output into chunks of CHUNK bytes for the sink (each chunk is handed over whole). */
class ChunkedOut {
  readonly #sink: ShardSink;
  #buf = new Uint8Array(CHUNK);
  #n = 0;
  written = 0;

  constructor(sink: ShardSink) {
    this.#sink = sink;
  }

  byte(b: number): void {
    if (this.#n === this.#buf.length) this.flush();
    this.#buf[this.#n++] = b;
    this.written++;
  }

  bytes(b: Uint8Array): void {
    let done = 0;
    while (done < b.length) {
      if (this.#n === this.#buf.length) this.flush();
      const take = Math.min(b.length - done, this.#buf.length - this.#n);
      this.#buf.set(b.subarray(done, done + take), this.#n);
      this.#n += take;
      done += take;
    }
    this.written += b.length;
  }

  flush(): void {
    if (this.#n === 0) return;
    this.#sink(this.#buf.subarray(0, this.#n));
    this.#buf = new Uint8Array(CHUNK);
    this.#n = 0;
  }
}

/** Encodes one varint-delta list into `scratch` (grown as needed); returns the bytes. */
function encodeList(docs: Int32Array, scratch: { buf: Uint8Array }): Uint8Array {
  if (scratch.buf.length < docs.length * 5) scratch.buf = new Uint8Array(docs.length * 5);
  return scratch.buf.subarray(0, writeDeltas(docs, docs.length, -1, scratch.buf, 0));
}

function bytesOf(a: Int32Array | Float64Array | Uint32Array): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

/** Writes a shard to `sink`; returns its table of contents. */
export function encodeShard(input: ShardInput, sink: ShardSink): ShardToc {
  const parts = encodeShardParts(input);
  for (;;) {
    const next = parts.next();
    if (next.done) return next.value;
    sink(next.value);
  }
}

/**
 * The shard's bytes as a sequence of chunks (each a fresh buffer of up to 4 MiB), so that the
 * writer can take them at its own pace: the caller asks for the next chunk once the disk has
 * taken enough of the earlier ones, and no more than a few chunks are held at once.
 */
export function* encodeShardParts(input: ShardInput): Generator<Uint8Array, ShardToc> {
  const ready: Uint8Array[] = [];
  const out = new ChunkedOut((bytes) => ready.push(bytes));
  const lists = yield* writePostings(input, out, ready);
  const postingsEnd = out.written;
  const docCount = input.docFile.length;
  const docStart = out.written;
  out.bytes(bytesOf(input.docFile));
  out.bytes(bytesOf(input.docOff));
  out.bytes(bytesOf(input.docLen));
  const docEnd = out.written;
  const triTable = triTableOf(lists, postingsEnd);
  yield* drain(ready);
  const triStart = out.written;
  out.bytes(triTable);
  const triSum = sectionChecksum(triTable);
  freeNow(triTable);
  yield* drain(ready);
  const cols = input.cols ?? columnsOf(input.meta.files);
  const colStart = out.written;
  out.bytes(cols);
  const colSum = sectionChecksum(cols);
  freeNow(cols);
  yield* drain(ready);
  const names = yield* writeNames(input.meta, out, ready);
  const meta = metaOf(input.meta);
  yield* drain(ready);
  const metaStart = out.written;
  out.bytes(meta);
  const metaSum = sectionChecksum(meta);
  const metaLength = meta.length;
  freeNow(meta);
  const docSum = checksumOfTable(input);
  const held = lists.held;
  const toc: ShardToc = {
    magic: "shipcode-mcp index shard",
    version: SHARD_VERSION,
    key: input.key,
    files: input.meta.files.length,
    docs: docCount,
    tris: held,
    postings: [0, postingsEnd],
    docTable: [docStart, docEnd - docStart, docSum],
    triTable: [triStart, held * 16 + 4, triSum],
    cols: [colStart, input.meta.files.length * COL_BYTES, colSum],
    names,
    meta: [metaStart, metaLength, metaSum],
  };
  writeTail(out, toc);
  out.flush();
  yield* ready;
  return toc;
}

/** The chunks the output has ready, handed on. */
function* drain(ready: Uint8Array[]): Generator<Uint8Array, void> {
  while (ready.length > 0) yield ready.shift()!;
}

/** Where each written posting list is: its trigram, offset, document count and checksum. */
interface WrittenLists {
  tris: Int32Array;
  offs: Uint32Array;
  counts: Uint32Array;
  sums: Uint32Array;
  /** How many lists were written (trigrams without documents are left out). */
  held: number;
}

/** The postings section: one varint-delta list per trigram that has documents. */
function* writePostings(
  input: ShardInput,
  out: ChunkedOut,
  ready: Uint8Array[],
): Generator<Uint8Array, WrittenLists> {
  const most = input.trigrams.length;
  const lists: WrittenLists = {
    tris: new Int32Array(most),
    offs: new Uint32Array(most),
    counts: new Uint32Array(most),
    sums: new Uint32Array(most),
    held: 0,
  };
  const scratch = { buf: new Uint8Array(1 << 16) };
  for (let i = 0; i < input.trigrams.length; i++) {
    const tri = input.trigrams[i];
    const docs = input.docsOf(tri);
    if (docs.length === 0) continue;
    const list = encodeList(docs, scratch);
    const held = lists.held++;
    lists.tris[held] = tri;
    lists.offs[held] = out.written;
    lists.counts[held] = docs.length;
    lists.sums[held] = checksum(list, tri);
    out.bytes(list);
    yield* drain(ready);
  }
  return lists;
}

/** The tris section: 16 bytes per written list, then the end of the last list. */
function triTableOf(lists: WrittenLists, postingsEnd: number): Uint8Array {
  const held = lists.held;
  const triTable = new Uint8Array(held * 16 + 4);
  const view = new DataView(triTable.buffer);
  for (let i = 0; i < held; i++) {
    view.setInt32(i * 16, lists.tris[i], true);
    view.setUint32(i * 16 + 4, lists.offs[i], true);
    view.setUint32(i * 16 + 8, lists.counts[i], true);
    view.setUint32(i * 16 + 12, lists.sums[i], true);
  }
  view.setUint32(held * 16, postingsEnd, true);
  return triTable;
}

/**
 * The names section (each file's count, NO_NAMES for none, then the lists) goes out list by
 * list: on the kernel it is 20 MiB, which is not built whole beside its chunks. Returns its
 * [offset, length, checksum].
 */
function* writeNames(
  meta: ShardMeta,
  out: ChunkedOut,
  ready: Uint8Array[],
): Generator<Uint8Array, [number, number, number]> {
  const files = meta.files;
  const namesOf = meta.namesOf ?? ((i: number) => files[i].names ?? null);
  // Each list is taken once: a file removed while the chunks go out (the write yields between
  // them) must not change the section between its counts and its lists.
  const lists = Array.from({ length: files.length }, (_, i) => namesOf(i));
  const namesCounts = new Uint32Array(files.length);
  let namesWords = files.length;
  for (let i = 0; i < files.length; i++) {
    const list = lists[i];
    namesCounts[i] = list === null ? NO_NAMES : list.length;
    if (list !== null) namesWords += list.length;
  }
  const namesStart = out.written;
  const namesLength = namesWords * 4;
  const namesSum = new SectionChecksum(namesLength);
  namesSum.words(namesCounts);
  out.bytes(bytesOf(namesCounts));
  for (const list of lists) {
    if (list === null) continue;
    namesSum.words(list);
    out.bytes(bytesOf(list));
    yield* drain(ready);
  }
  return [namesStart, namesLength, namesSum.digest()];
}

/** The meta section: the files' paths, the superseded paths and the folder table, as JSON. */
function metaOf(meta: ShardMeta): Uint8Array {
  const json: MetaJson = {
    rels: meta.files.map((f) => f.rel),
    reals: meta.files.flatMap((f, i): [number, string][] => f.real === "" ? [] : [[i, f.real]]),
    supersedes: meta.supersedes,
    folders: meta.folders,
  };
  return new TextEncoder().encode(JSON.stringify(json));
}

/** The table of contents and the tail that finds it. */
function writeTail(out: ChunkedOut, toc: ShardToc): void {
  const tocBytes = new TextEncoder().encode(JSON.stringify(toc));
  out.bytes(tocBytes);
  const tail = new Uint8Array(TAIL_BYTES);
  const tv = new DataView(tail.buffer);
  tv.setUint32(0, tocBytes.length, true);
  tv.setUint32(4, checksum(tocBytes), true);
  tv.setUint32(8, SHARD_MAGIC, true);
  out.bytes(tail);
}

function checksumOfTable(input: ShardInput): number {
  const all = new Uint8Array(input.docFile.byteLength * 5);
  all.set(bytesOf(input.docFile), 0);
  all.set(bytesOf(input.docOff), input.docFile.byteLength);
  all.set(bytesOf(input.docLen), input.docFile.byteLength * 3);
  const sum = sectionChecksum(all);
  freeNow(all);
  return sum;
}
