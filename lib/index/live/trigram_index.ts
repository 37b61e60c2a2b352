/**
 * The trigram index of one workspace: the files the walk serves, their documents (a file, or a
 * line-aligned piece of a file over 256 KiB), and the posting lists. Files are added in walk
 * order by the build; a file re-indexed later (freshness) gets new documents at the end and its
 * old ones become tombstones. Binary files (a NUL byte) are recorded but hold no documents: they
 * never match. Files that could not be read, or were left out by the memory cap, are "scan"
 * files: every query returns them, so they are always searched.
 */
import { comparePaths } from "../../workspace/names.ts";
import { PostingStore } from "../lists/posting_store.ts";
import { freeNow } from "../../free_buffer.ts";
import type { Query } from "../query/query.ts";
import { evaluate, type PostingSource } from "../query/evaluate.ts";
import type { Candidates } from "../../search/protocol.ts";
import type { StoredFile } from "../store/shard_format.ts";
import { chunkEnd } from "../../search/decode.ts";
import { definableHashes, holdsHash } from "../lists/name_hashes.ts";

/** Same size and cut rule as the full scan's chunks (lib/search/decode.ts). */
export const PIECE_BYTES = 256 * 1024;

export const INDEXED = 0;
export const BINARY = 1;
export const SCAN = 2;
export const GONE = 3;

export interface FileRecord {
  rel: string;
  /** Real absolute path when it differs from root + "/" + rel (symlinks), else "". */
  real: string;
  size: number;
  mtimeMs: number;
  /** Identity and change time as walked (the stored index's stat pass compares them). */
  dev: number;
  ino: number;
  ctimeMs: number;
  /** Date.now() right before the file was read. */
  seenAt: number;
  state: number;
  firstDoc: number;
  docs: number;
  /**
   * Where the file's names list (name_hashes.ts: the names a C/C++ file may define) lies in its
   * index's pool (TrigramIndex.namesOf), and its length; -1: the file keeps no list.
   */
  nameStart: number;
  nameCount: number;
}

/** What a file is added with: its walk entry's stat. */
export interface FileEntry {
  rel: string;
  real: string;
  size: number;
  mtimeMs: number;
  dev?: number;
  ino?: number;
  ctimeMs?: number;
  seenAt?: number;
}

/** One chosen file of a query: its record and, for a large file, the pieces that can match. */
export interface Chosen {
  rel: string;
  real: string;
  size: number;
  mtimeMs: number;
  docs: number;
  /** [offset, length, ...] of the matching pieces, or null: all of them. */
  pieces: number[] | null;
}

/**
 * The largest chunk of the names pool in words, and the stride of a record's `nameStart`
 * (chunk * NAME_CHUNK + offset): a list never spans two chunks, and a 1 MiB file's fits one.
 */
const NAME_CHUNK = 1 << 20;

/**
 * Whether a query for find_symbol (`defines`: the hash of its name) keeps a chosen file: one with
 * a names list only when the list holds the hash; any other file always.
 */
export function mayDefineName(names: Uint32Array | null, defines: number): boolean {
  return names === null || holdsHash(names, defines);
}

export type { Candidates };

function grown<T extends Int32Array | Float64Array | Uint8Array>(a: T, need: number): T {
  if (need <= a.length) return a;
  const b = new (a.constructor as { new (n: number): T })(Math.max(need, a.length * 2));
  b.set(a);
  return b;
}

/** Line-aligned cut points of `bytes` (as the full scan's countInChunks cuts). */
export function pieceEnds(bytes: Uint8Array): number[] {
  const ends: number[] = [];
  let start = 0;
  while (start < bytes.length) {
    const end = chunkEnd(bytes, start, PIECE_BYTES);
    ends.push(end);
    start = end;
  }
  return ends;
}

export class TrigramIndex implements PostingSource {
  readonly files: FileRecord[] = [];
  readonly byRel = new Map<string, number>();
  readonly postings: PostingStore;
  /** Records below this one are in walk order (the build's); later ones need sorting. */
  ordered = 0;
  #docFile = new Int32Array(1024);
  #docOff = new Float64Array(1024);
  #docLen = new Float64Array(1024);
  #dead = new Uint8Array(1024);
  #docCount = 0;
  #deadDocs = 0;
  #deadFiles = 0;
  #textBytes = 0;
  /** The names lists of the records, in chunks of NAME_CHUNK words. */
  readonly #names: Uint32Array[] = [];
  #namesUsed = 0;
  #nameBytes = 0;
  /** One bit per trigram: seen in the current document. */
  #seen = new Int32Array(1 << 19);
  #touched = new Int32Array(1 << 16);

  /** `sealBytes`: when the growing posting lists are sealed (posting_store.ts; tests set it). */
  constructor(sealBytes?: number) {
    this.postings = new PostingStore(sealBytes);
  }

  /**
   * The build is done: every posting list goes to its compact form and the growing lists'
   * arena is given back (files re-indexed later grow a small one again).
   */
  compact(): void {
    this.postings.compact();
  }

  get docCount(): number {
    return this.#docCount;
  }

  get deadDocs(): number {
    return this.#deadDocs;
  }

  /** Records that are gone (replaced or deleted): garbage a rebuild would drop. */
  get deadFiles(): number {
    return this.#deadFiles;
  }

  get liveFiles(): number {
    return this.files.length - this.#deadFiles;
  }

  /** Text bytes indexed. */
  get textBytes(): number {
    return this.#textBytes;
  }

  /** Approximate bytes held (postings, document and file tables). */
  get bytes(): number {
    return this.postings.bytes + this.#docFile.length * 21 + this.files.length * 120 +
      this.#seen.length * 4 + this.#touched.length * 4 + this.#nameBytes;
  }

  /** The live record of `rel`, if any. */
  get(rel: string): FileRecord | undefined {
    const i = this.byRel.get(rel);
    return i === undefined ? undefined : this.files[i];
  }

  /** Tombstones the live record of `rel` (deleted, or about to be re-added). */
  remove(rel: string): void {
    const i = this.byRel.get(rel);
    if (i === undefined) return;
    this.byRel.delete(rel);
    const f = this.files[i];
    for (let d = f.firstDoc; d < f.firstDoc + f.docs; d++) {
      this.#dead[d] = 1;
      this.#deadDocs++;
    }
    if (f.state === INDEXED) this.#textBytes -= f.size;
    f.nameCount = -1;
    f.state = GONE;
    this.#deadFiles++;
  }

  /**
   * Adds `rel` (replacing its live record): `bytes` null makes it a "scan" file (always
   * searched), bytes with a NUL a binary file, anything else is indexed.
   */
  add(entry: FileEntry, bytes: Uint8Array | null): FileRecord {
    this.remove(entry.rel);
    const record: FileRecord = {
      rel: entry.rel,
      real: entry.real,
      size: bytes === null ? entry.size : bytes.length,
      mtimeMs: entry.mtimeMs,
      dev: entry.dev ?? 0,
      ino: entry.ino ?? 0,
      ctimeMs: entry.ctimeMs ?? 0,
      seenAt: entry.seenAt ?? 0,
      state: SCAN,
      firstDoc: this.#docCount,
      docs: 0,
      nameStart: 0,
      nameCount: -1,
    };
    const index = this.files.length;
    this.files.push(record);
    this.byRel.set(entry.rel, index);
    if (bytes === null) return record;
    if (bytes.indexOf(0) >= 0) {
      record.state = BINARY;
      return record;
    }
    record.state = INDEXED;
    this.#textBytes += bytes.length;
    const names = definableHashes(entry.rel, bytes);
    // A list longer than a chunk cannot come from a file within NAMED_MAX_BYTES; none is kept.
    if (names !== null && names.length <= NAME_CHUNK) this.#keepNames(record, names);
    let start = 0;
    for (const end of pieceEnds(bytes)) {
      this.#addDoc(index, bytes, start, end);
      record.docs++;
      start = end;
    }
    return record;
  }

  #keepNames(record: FileRecord, names: Uint32Array): void {
    const last = this.#names[this.#names.length - 1];
    if (last === undefined || this.#namesUsed + names.length > last.length) {
      // Chunks grow from 16 Ki words (a small tree holds little) up to NAME_CHUNK.
      const size = last === undefined ? 1 << 14 : Math.min(NAME_CHUNK, last.length * 2);
      this.#names.push(new Uint32Array(Math.max(size, names.length)));
      this.#nameBytes += this.#names[this.#names.length - 1].byteLength;
      this.#namesUsed = 0;
    }
    const chunk = this.#names.length - 1;
    this.#names[chunk].set(names, this.#namesUsed);
    record.nameStart = chunk * NAME_CHUNK + this.#namesUsed;
    record.nameCount = names.length;
    this.#namesUsed += names.length;
  }

  /**
   * Gives the posting lists' and the names lists' buffers back now: a persist wrote them to a
   * shard that replaced this index, and the collector would free them only later, after the
   * shard's own tables were read. Queries no longer see any document or name of this index.
   */
  release(): void {
    this.postings.release();
    for (const chunk of this.#names) freeNow(chunk);
    this.#names.length = 0;
    this.#nameBytes = 0;
  }

  /** The names list of a record of this index, or null when it keeps none. */
  namesOf(record: FileRecord): Uint32Array | null {
    if (record.nameCount < 0) return null;
    const chunk = Math.floor(record.nameStart / NAME_CHUNK);
    const at = record.nameStart - chunk * NAME_CHUNK;
    return this.#names[chunk]?.subarray(at, at + record.nameCount) ?? null;
  }

  #addDoc(file: number, bytes: Uint8Array, start: number, end: number): void {
    const doc = this.#docCount++;
    this.#docFile = grown(this.#docFile, doc + 1);
    this.#docOff = grown(this.#docOff, doc + 1);
    this.#docLen = grown(this.#docLen, doc + 1);
    this.#dead = grown(this.#dead, doc + 1);
    this.#docFile[doc] = file;
    this.#docOff[doc] = start;
    this.#docLen[doc] = end - start;
    const seen = this.#seen;
    let touched = this.#touched;
    let nTouched = 0;
    const postings = this.postings;
    let t = 0;
    let run = 0;
    for (let i = start; i < end; i++) {
      const b = bytes[i];
      if (b === 10 || b === 13) {
        run = 0;
        continue;
      }
      t = ((t << 8) | b) & 0xffffff;
      if (++run < 3) continue;
      const word = t >>> 5;
      const bit = 1 << (t & 31);
      if ((seen[word] & bit) !== 0) continue;
      seen[word] |= bit;
      if (nTouched === touched.length) {
        touched = grown(touched, nTouched + 1);
        this.#touched = touched;
      }
      touched[nTouched++] = t;
      postings.add(t, doc);
    }
    for (let k = 0; k < nTouched; k++) seen[touched[k] >>> 5] = 0;
    postings.endDocument(doc);
  }

  docs(tri: number): Int32Array {
    return this.postings.docs(tri);
  }

  docsInto(tri: number, out: Int32Array, at: number): number {
    return this.postings.docsInto(tri, out, at);
  }

  count(tri: number): number {
    return this.postings.count(tri);
  }

  /** Is document `doc` a tombstone? */
  isDead(doc: number): boolean {
    return this.#dead[doc] === 1;
  }

  /** The document table (file index, byte offset, length) of document `doc`. */
  doc(doc: number): [number, number, number] {
    return [this.#docFile[doc], this.#docOff[doc], this.#docLen[doc]];
  }

  toFiles(docs: Int32Array): Int32Array {
    const out = new Int32Array(docs.length);
    let n = 0;
    for (let i = 0; i < docs.length; i++) {
      const f = this.#docFile[docs[i]];
      if (n === 0 || out[n - 1] !== f) out[n++] = f;
    }
    return out.subarray(0, n);
  }

  /**
   * The live files that may hold a match of a query, filtered by `keep`, appended to `out` (in
   * walk order unless `unordered` comes back true); false when the query cannot narrow (ALL).
   * `fileLevel` (multiline) evaluates the query per file instead of per piece, since a match
   * may then span pieces. Files that could not be read ("scan" files) are always chosen.
   */
  collect(
    q: Query,
    fileLevel: boolean,
    keep: (rel: string) => boolean,
    out: Chosen[],
    defines: number | null = null,
  ): { narrowed: boolean; unordered: boolean } {
    const hits = evaluate(q, this, fileLevel);
    if (hits === null) return { narrowed: false, unordered: false };
    const files = this.files;
    const last = chooseFiles(hits, {
      files,
      docFile: this.#docFile,
      docOff: this.#docOff,
      docLen: this.#docLen,
      deadDoc: (d) => this.#dead[d] === 1,
      isLive: (f) => files[f].state !== GONE,
      namesOf: (f) => this.namesOf(files[f]),
    }, { fileLevel, keep, defines, out });
    const unordered = last >= this.ordered;
    return { narrowed: true, unordered };
  }

  /** collect() as Candidates, in walk order; null when the query cannot narrow. */
  candidates(
    q: Query,
    fileLevel: boolean,
    keep: (rel: string) => boolean,
    defines: number | null = null,
  ): Candidates | null {
    const chosen: Chosen[] = [];
    const { narrowed, unordered } = this.collect(q, fileLevel, keep, chosen, defines);
    if (!narrowed) return null;
    return toCandidates(chosen, unordered);
  }
}

/** What chooseFiles reads of an index: its records, and per document its file and piece. */
export interface ChoiceSource {
  files: ReadonlyArray<FileRecord | StoredFile>;
  docFile: ArrayLike<number>;
  docOff: ArrayLike<number>;
  docLen: ArrayLike<number>;
  /** A tombstone (the old document of a re-indexed file); a stored shard has none. */
  deadDoc?: (doc: number) => boolean;
  /** The file's record here is the live one. */
  isLive(file: number): boolean;
  namesOf(file: number): Uint32Array | null;
  /**
   * The files whose state is SCAN, ascending, when the source keeps that list: then only the
   * files the hits name and these are looked at, not every file (84,000 on the kernel).
   */
  scanFiles?: Int32Array;
}

/** How chooseFiles reads the hits and where it puts the files they choose. */
export interface ChoiceOptions {
  /** The hits are files (multiline), not documents. */
  fileLevel: boolean;
  keep: (rel: string) => boolean;
  /** find_symbol's name hash (mayDefineName), or null. */
  defines: number | null;
  out: Chosen[];
}

/**
 * Appends to `out`, in file order, the live files of one index that a query's hits choose (and
 * its "scan" files, always chosen), each with its matching pieces when only some of its
 * documents hit; returns the highest file number appended, -1 when none was.
 */
export function chooseFiles(
  hits: Int32Array,
  source: ChoiceSource,
  options: ChoiceOptions,
): number {
  const { files, docFile, docOff, docLen, deadDoc } = source;
  const { fileLevel, keep, defines, out } = options;
  const take = new Uint8Array(files.length);
  /** The files taken, in the order first taken. */
  const taken: number[] = [];
  const piecesOf = new Map<number, number[]>();
  if (fileLevel) {
    for (const f of hits) {
      if (files[f].state === INDEXED && take[f] === 0) {
        take[f] = 1;
        taken.push(f);
      }
    }
  } else {
    for (const d of hits) {
      if (deadDoc !== undefined && deadDoc(d)) continue;
      const f = docFile[d];
      if (take[f] === 0) {
        take[f] = 1;
        taken.push(f);
      }
      if (files[f].docs > 1) {
        let list = piecesOf.get(f);
        if (list === undefined) piecesOf.set(f, list = []);
        list.push(docOff[d], docLen[d]);
      }
    }
  }
  let last = -1;
  const visit = (f: number) => {
    if (!source.isLive(f)) return;
    const record = files[f];
    if ((take[f] === 1 || record.state === SCAN) && keep(record.rel)) {
      if (defines !== null && !mayDefineName(source.namesOf(f), defines)) return;
      const list = piecesOf.get(f);
      out.push({
        rel: record.rel,
        real: record.real,
        size: record.size,
        mtimeMs: record.mtimeMs,
        docs: record.docs,
        pieces: list === undefined || list.length / 2 === record.docs ? null : list,
      });
      last = f;
    }
  };
  if (source.scanFiles === undefined) {
    for (let f = 0; f < files.length; f++) visit(f);
  } else for (const f of takenAndScan(taken, source.scanFiles)) visit(f);
  return last;
}

/** The files the hits took and the SCAN files, ascending, each once. */
function takenAndScan(taken: number[], scanFiles: Int32Array): number[] {
  const all = taken.concat(Array.from(scanFiles)).sort((a, b) => a - b);
  return all.filter((f, i) => i === 0 || all[i - 1] !== f);
}

/** Chosen files -> the grep's Candidates, sorted into walk order when `sort`. */
export function toCandidates(chosen: Chosen[], sort: boolean): Candidates {
  if (sort) chosen.sort((a, b) => comparePaths(a.rel, b.rel));
  const out: Candidates = { files: [], reals: [], pieces: [] };
  for (const c of chosen) {
    out.files.push(c.rel);
    out.reals.push(c.real);
    out.pieces.push(c.pieces === null ? null : [c.size, c.mtimeMs, ...c.pieces]);
  }
  return out;
}
