/**
 * The index a session queries: stored shards (a base, and at most one delta written after it),
 * each with a mask of the files still live in it, under an in-memory overlay (trigram_index.ts)
 * for the files that changed since. A file lives in exactly one place: adding or removing a path
 * masks it out of every shard. Without a cache the overlay alone is the whole index.
 */
import { comparePaths } from "../../workspace/names.ts";
import type { Candidates } from "../../search/protocol.ts";
import { evaluate } from "../query/evaluate.ts";
import { unionOfSorted } from "../lists/posting_store.ts";
import type { Query } from "../query/query.ts";
import { columnsOf, type ShardInput, type StoredFile } from "../store/shard_format.ts";
import type { StoredShard } from "../store/stored_shard.ts";
import {
  chooseFiles,
  type Chosen,
  type FileEntry,
  type FileRecord,
  GONE,
  INDEXED,
  SCAN,
  toCandidates,
  TrigramIndex,
} from "./trigram_index.ts";

interface Layer {
  shard: StoredShard;
  /** 1: the shard's record of this file is the live one. */
  live: Uint8Array;
  byRel: Map<string, number>;
  liveCount: number;
  /** The shard's files in state SCAN, ascending (chooseFiles looks at them and the hits only). */
  scans: Int32Array;
}

/** What the encoder reads of one source: its live records, documents and lists. */
interface EncodeSource {
  records: ArrayLike<StoredFile | FileRecord>;
  namesOf(i: number): Uint32Array | null;
  isLive(i: number): boolean;
  count(tri: number): number;
  /** Writes the source's ascending documents of `tri` into `out` from `at`; returns how many. */
  docsInto(tri: number, out: Int32Array, at: number): number;
  docCount: number;
  docTable(doc: number): [number, number, number];
  trigrams: Int32Array;
}

export class LayeredIndex {
  readonly #layers: Layer[] = [];
  readonly #sealBytes: number | undefined;
  #overlay: TrigramIndex;
  /** Paths added or removed since the last snapshot() (what a persist must catch up on). */
  readonly #changed = new Set<string>();
  /** Counts every change of what the index answers (a file added or removed, a layer stacked). */
  #version = 0;

  /** `sealBytes`: when the overlay's growing posting lists are sealed (posting_store.ts). */
  constructor(sealBytes?: number) {
    this.#sealBytes = sealBytes;
    this.#overlay = new TrigramIndex(sealBytes);
  }

  /** Stacks a stored shard; its records supersede those of the layers below for their paths. */
  addLayer(shard: StoredShard): void {
    this.#version++;
    for (const rel of shard.supersedes) this.#maskLayers(rel);
    const files = shard.files;
    const live = new Uint8Array(files.length);
    const byRel = new Map<string, number>();
    const below = this.#layers.length > 0 || this.#overlay.liveFiles > 0;
    let liveCount = 0;
    for (let i = 0; i < files.length; i++) {
      const rel = files[i].rel;
      if (byRel.has(rel)) continue; // a repeated path: the first record wins, the rest are dead
      if (below) this.#maskLayers(rel);
      byRel.set(rel, i);
      live[i] = 1;
      liveCount++;
    }
    const scans: number[] = [];
    for (let i = 0; i < files.length; i++) if (files[i].state === SCAN) scans.push(i);
    this.#layers.push({ shard, live, byRel, liveCount, scans: Int32Array.from(scans) });
  }

  get layers(): readonly StoredShard[] {
    return this.#layers.map((l) => l.shard);
  }

  get overlay(): TrigramIndex {
    return this.#overlay;
  }

  /** The live record of `rel`, wherever it is. */
  get(rel: string): StoredFile | FileRecord | undefined {
    const own = this.#overlay.get(rel);
    if (own !== undefined) return own;
    for (let k = this.#layers.length - 1; k >= 0; k--) {
      const layer = this.#layers[k];
      const i = layer.byRel.get(rel);
      if (i !== undefined && layer.live[i] === 1) return layer.shard.files[i];
    }
    return undefined;
  }

  /** Is the live record of `rel` in a stored shard (not re-read this session)? */
  isStored(rel: string): boolean {
    return this.#overlay.get(rel) === undefined && this.get(rel) !== undefined;
  }

  /** Grows with every change of what the index answers: equal versions, equal answers. */
  get version(): number {
    return this.#version;
  }

  remove(rel: string): void {
    this.#version++;
    this.#overlay.remove(rel);
    this.#maskLayers(rel);
    this.#changed.add(rel);
  }

  add(entry: FileEntry, bytes: Uint8Array | null): FileRecord {
    this.#version++;
    this.#maskLayers(entry.rel);
    this.#changed.add(entry.rel);
    return this.#overlay.add(entry, bytes);
  }

  #maskLayers(rel: string): void {
    for (const layer of this.#layers) {
      const i = layer.byRel.get(rel);
      if (i !== undefined && layer.live[i] === 1) {
        layer.live[i] = 0;
        layer.liveCount--;
      }
    }
  }

  /** Every live path. */
  rels(): string[] {
    const out: string[] = [];
    for (const layer of this.#layers) {
      for (const [rel, i] of layer.byRel) if (layer.live[i] === 1) out.push(rel);
    }
    for (const rel of this.#overlay.byRel.keys()) out.push(rel);
    return out;
  }

  /** Every live record, in rels()'s order (what a stat pass compares with the disk). */
  liveRecords(): (StoredFile | FileRecord)[] {
    const out: (StoredFile | FileRecord)[] = [];
    for (const layer of this.#layers) {
      const files = layer.shard.files;
      for (let i = 0; i < files.length; i++) if (layer.live[i] === 1) out.push(files[i]);
    }
    for (const rel of this.#overlay.byRel.keys()) {
      const own = this.#overlay.get(rel);
      if (own !== undefined) out.push(own);
    }
    return out;
  }

  get liveFiles(): number {
    let n = this.#overlay.liveFiles;
    for (const layer of this.#layers) n += layer.liveCount;
    return n;
  }

  /** Files of the stored shards that are no longer live (superseded or gone). */
  get deadStored(): number {
    let n = 0;
    for (const layer of this.#layers) n += layer.shard.files.length - layer.liveCount;
    return n;
  }

  get storedFiles(): number {
    let n = 0;
    for (const layer of this.#layers) n += layer.shard.files.length;
    return n;
  }

  get textBytes(): number {
    let n = this.#overlay.textBytes;
    for (const layer of this.#layers) {
      layer.shard.files.forEach((f, i) => {
        if (layer.live[i] === 1 && f.state === INDEXED) n += f.size;
      });
    }
    return n;
  }

  /** Bytes held in memory (the overlay; the shards' lists stay on disk). */
  get bytes(): number {
    return this.#overlay.bytes;
  }

  /** Bytes of the stored shards on disk. */
  get diskBytes(): number {
    let n = 0;
    for (const layer of this.#layers) n += layer.shard.diskBytes;
    return n;
  }

  /** The overlay is mostly tombstones, or the shards mostly superseded: time for a rebuild. */
  get wornOut(): boolean {
    const o = this.#overlay;
    if (o.docCount > 1000 && o.deadDocs * 4 > o.docCount) return true;
    const stored = this.storedFiles;
    return stored > 1000 && this.deadStored * 4 > stored;
  }

  /** Starts a new change set: what changes from now on is what the next persist catches up on. */
  snapshot(): void {
    this.#changed.clear();
  }

  get changedSinceSnapshot(): ReadonlySet<string> {
    return this.#changed;
  }

  /**
   * The files that may hold a match, in walk order; null when the query cannot narrow. With
   * `defines` (the hash of find_symbol's name) files with a names list are kept only when it
   * holds the hash (trigram_index.ts mayDefineName).
   */
  candidates(
    q: Query,
    fileLevel: boolean,
    keep: (rel: string) => boolean,
    defines: number | null = null,
  ): Candidates | null {
    const chosen: Chosen[] = [];
    let sources = 0;
    for (const layer of this.#layers) {
      const hits = evaluate(q, layer.shard, fileLevel);
      if (hits === null) return null;
      const shard = layer.shard;
      const last = chooseFiles(hits, {
        files: shard.files,
        docFile: shard.docFile,
        docOff: shard.docOff,
        docLen: shard.docLen,
        isLive: (f) => layer.live[f] === 1,
        namesOf: (f) => shard.namesOf(f),
        scanFiles: layer.scans,
      }, { fileLevel, keep, defines, out: chosen });
      if (last >= 0) sources++;
    }
    const before = chosen.length;
    const { narrowed, unordered } = this.#overlay.collect(q, fileLevel, keep, chosen, defines);
    if (!narrowed) return null;
    if (chosen.length > before) sources++;
    return toCandidates(chosen, sources > 1 || unordered);
  }

  /**
   * What a shard of the live files of the layers from `from` up, and of the overlay, holds (the
   * base: from 0 after a full build; a delta: from 1, superseding the base's dead paths).
   */
  shardInput(key: string, from: number): ShardInput {
    const sources: EncodeSource[] = [];
    for (const layer of this.#layers.slice(from)) {
      const shard = layer.shard;
      sources.push({
        records: shard.files,
        namesOf: (i) => shard.namesOf(i),
        isLive: (i) => layer.live[i] === 1,
        count: (tri) => shard.count(tri),
        docsInto: (tri, out, at) => shard.docsInto(tri, out, at),
        docCount: shard.toc.docs,
        docTable: (d) => [shard.docFile[d], shard.docOff[d], shard.docLen[d]],
        trigrams: shard.trigrams,
      });
    }
    const o = this.#overlay;
    sources.push({
      records: o.files,
      namesOf: (i) => o.namesOf(o.files[i]),
      isLive: (i) => o.files[i].state !== GONE,
      count: (tri) => o.count(tri),
      docsInto: (tri, out, at) => o.postings.docsInto(tri, out, at),
      docCount: o.docCount,
      docTable: (d) => o.doc(d),
      trigrams: o.postings.trigramList(),
    });
    const supersedes: string[] = [];
    if (from > 0) {
      for (const layer of this.#layers.slice(0, from)) {
        for (const [rel, i] of layer.byRel) if (layer.live[i] === 0) supersedes.push(rel);
      }
    }
    return mergeSources(key, sources, supersedes);
  }

  close(): void {
    this.#version++;
    for (const layer of this.#layers) layer.shard.close();
    this.#layers.length = 0;
    this.#overlay = new TrigramIndex(this.#sealBytes);
  }
}

/**
 * The records of a lone source that already are what a shard holds: every one live, in walk
 * order, with its documents in order and none dead (the index a build has just made); null
 * otherwise. A copy of the list, not of the records.
 */
function alreadyStored(src: EncodeSource): StoredFile[] | null {
  const records = src.records;
  let next = 0;
  for (let i = 0; i < records.length; i++) {
    const r = records[i];
    if (!src.isLive(i) || (i > 0 && comparePaths(records[i - 1].rel, r.rel) >= 0)) return null;
    if (r.docs > 0) {
      if (r.firstDoc !== next) return null;
      next += r.docs;
    }
  }
  return next === src.docCount ? Array.from(records) : null;
}

/** The shard input of the live files of `sources`, in walk order, documents renumbered. */
function mergeSources(key: string, sources: EncodeSource[], supersedes: string[]): ShardInput {
  const lone = sources.length === 1 ? alreadyStored(sources[0]) : null;
  const { files, docMaps, docFile, docOff, docLen } = lone !== null
    ? keptAsTheyAre(sources[0], lone)
    : renumbered(sources);
  const trigrams = unionOfSorted(sources.map((s) => s.trigrams));
  let raw = new Int32Array(1024);
  let out = new Int32Array(1024);
  return {
    key,
    // The index's own records are read as they are; their columns are taken now, since a file
    // removed while the write is paced changes its record (its names are then left out, which
    // only keeps the file for a find_symbol query).
    meta: lone !== null
      ? { files, supersedes, folders: null, namesOf: (i) => sources[0].namesOf(i) }
      : { files, supersedes, folders: null },
    cols: lone !== null ? columnsOf(files) : undefined,
    docFile,
    docOff,
    docLen,
    trigrams,
    docsOf(tri) {
      // Every list goes through the same two buffers (the encoder copies each before asking for
      // the next): a write allocates nothing per list.
      let n = 0;
      let sorted = true;
      sources.forEach((src, s) => {
        const count = src.count(tri);
        if (count === 0) return;
        if (raw.length < count) raw = new Int32Array(Math.max(count, raw.length * 2));
        if (out.length < n + count) {
          const grown = new Int32Array(Math.max(n + count, out.length * 2));
          grown.set(out.subarray(0, n));
          out = grown;
        }
        const got = src.docsInto(tri, raw, 0);
        const map = docMaps[s];
        for (let k = 0; k < got; k++) {
          // Documents added since the snapshot (the write is paced) have no place: left out.
          const d = raw[k] < map.length ? map[raw[k]] : -1;
          if (d < 0) continue;
          if (n > 0 && d < out[n - 1]) sorted = false;
          out[n++] = d;
        }
      });
      const docs = out.subarray(0, n);
      return sorted ? docs : docs.sort();
    },
  };
}

interface Renumbering {
  files: StoredFile[];
  /** Per source, its document ids -> the shard's (-1: not written). */
  docMaps: Int32Array[];
  docFile: Int32Array;
  docOff: Float64Array;
  docLen: Float64Array;
}

/** A lone source already in shard order: its records and documents keep their places. */
function keptAsTheyAre(src: EncodeSource, files: StoredFile[]): Renumbering {
  const n = src.docCount;
  const docMap = new Int32Array(n);
  const docFile = new Int32Array(n);
  const docOff = new Float64Array(n);
  const docLen = new Float64Array(n);
  for (let d = 0; d < n; d++) {
    const [file, off, len] = src.docTable(d);
    docMap[d] = d;
    docFile[d] = file;
    docOff[d] = off;
    docLen[d] = len;
  }
  return { files, docMaps: [docMap], docFile, docOff, docLen };
}

/** The live records of every source in walk order, copied, and their documents renumbered. */
function renumbered(sources: EncodeSource[]): Renumbering {
  const picked: { s: number; i: number; rel: string }[] = [];
  sources.forEach((src, s) => {
    for (let i = 0; i < src.records.length; i++) {
      if (src.isLive(i)) picked.push({ s, i, rel: src.records[i].rel });
    }
  });
  picked.sort((a, b) => comparePaths(a.rel, b.rel));
  const docMaps = sources.map((src) => new Int32Array(src.docCount).fill(-1));
  let docCount = 0;
  for (const p of picked) docCount += sources[p.s].records[p.i].docs;
  const docFile = new Int32Array(docCount);
  const docOff = new Float64Array(docCount);
  const docLen = new Float64Array(docCount);
  const files: StoredFile[] = [];
  let next = 0;
  picked.forEach((p, newFile) => {
    const src = sources[p.s];
    const r = src.records[p.i];
    files.push({
      rel: r.rel,
      real: r.real,
      dev: r.dev,
      ino: r.ino,
      size: r.size,
      mtimeMs: r.mtimeMs,
      ctimeMs: r.ctimeMs,
      seenAt: r.seenAt,
      state: r.state,
      firstDoc: r.docs > 0 ? next : 0,
      docs: r.docs,
      names: src.namesOf(p.i),
    });
    for (let d = r.firstDoc; d < r.firstDoc + r.docs; d++) {
      const [, off, len] = src.docTable(d);
      docMaps[p.s][d] = next;
      docFile[next] = newFile;
      docOff[next] = off;
      docLen[next] = len;
      next++;
    }
  });
  return { files, docMaps, docFile, docOff, docLen };
}
