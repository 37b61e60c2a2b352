/**
 * Growing posting lists: for each byte trigram, the ascending ids of the documents (files or
 * pieces of large files) that hold it, delta-encoded as varints in chains of 32-byte blocks
 * inside 4 MiB arena chunks. Documents are added in ascending id order, so a list only ever grows
 * at its end. A trigram's slot is found through an open-addressing hash table. The index keeps
 * these only for its newest documents: posting_store.ts seals them into frozen lists (their
 * compact form) and clears them for reuse.
 */

import { freeNow } from "../../free_buffer.ts";

const BLOCK = 32; // [next block: int32][28 payload bytes]
const CHUNK_BITS = 22;
const CHUNK = 1 << CHUNK_BITS;
const CHUNK_MASK = CHUNK - 1;

export class Postings {
  #keys = new Int32Array(1 << 12); // trigram + 1, 0 = empty
  #slots = new Int32Array(1 << 12);
  #bits = 12;
  #count = 0;
  #head = new Int32Array(1024);
  #tail = new Int32Array(1024);
  #last = new Int32Array(1024);
  #n = new Int32Array(1024);
  /** Payload bytes of each list (its varints, without the block links). */
  #len = new Int32Array(1024);
  #chunks: Uint8Array[] = [];
  #used = BLOCK; // position 0 is never a block: 0 means "no next block"

  /** Bytes held (arena, tables), for the memory cap. */
  get bytes(): number {
    return this.#chunks.length * CHUNK + this.#keys.length * 8 + this.#head.length * 16;
  }

  /** Distinct trigrams seen. */
  get trigrams(): number {
    return this.#count;
  }

  /** Bytes of the arena's blocks in use (what a seal is measured by). */
  get arenaUsed(): number {
    return this.#used;
  }

  /** No list holds anything. */
  get empty(): boolean {
    return this.#count === 0;
  }

  /**
   * Forgets every list but keeps the arena and the tables for the next documents (a seal: the
   * lists now live in frozen form).
   */
  clear(): void {
    this.#keys.fill(0);
    this.#count = 0;
    this.#used = BLOCK;
  }

  /** Forgets every list and gives the arena and the tables back (the build is done). */
  release(): void {
    for (const chunk of this.#chunks) freeNow(chunk);
    this.#chunks = [];
    this.#keys = new Int32Array(1 << 12);
    this.#slots = new Int32Array(1 << 12);
    this.#bits = 12;
    this.#head = new Int32Array(1024);
    this.#tail = new Int32Array(1024);
    this.#last = new Int32Array(1024);
    this.#n = new Int32Array(1024);
    this.#len = new Int32Array(1024);
    this.clear();
  }

  #find(tri: number): number {
    const keys = this.#keys;
    const mask = keys.length - 1;
    let h = Math.imul(tri, 0x9e3779b1) >>> (32 - this.#bits);
    const want = tri + 1;
    for (;;) {
      const k = keys[h];
      if (k === want) return this.#slots[h];
      if (k === 0) return -1 - h;
      h = (h + 1) & mask;
    }
  }

  #grow(): void {
    const oldKeys = this.#keys;
    const oldSlots = this.#slots;
    this.#bits++;
    this.#keys = new Int32Array(1 << this.#bits);
    this.#slots = new Int32Array(1 << this.#bits);
    for (let i = 0; i < oldKeys.length; i++) {
      if (oldKeys[i] !== 0) {
        const at = -1 - this.#find(oldKeys[i] - 1);
        this.#keys[at] = oldKeys[i];
        this.#slots[at] = oldSlots[i];
      }
    }
  }

  #newSlot(tri: number, at: number): number {
    const id = this.#count++;
    this.#keys[at] = tri + 1;
    this.#slots[at] = id;
    if (id >= this.#head.length) {
      const grow = (a: Int32Array) => {
        const b = new Int32Array(a.length * 2);
        b.set(a);
        return b;
      };
      this.#head = grow(this.#head);
      this.#tail = grow(this.#tail);
      this.#last = grow(this.#last);
      this.#n = grow(this.#n);
      this.#len = grow(this.#len);
    }
    const block = this.#alloc();
    this.#head[id] = block;
    this.#tail[id] = block + 4;
    this.#last[id] = -1;
    this.#n[id] = 0;
    this.#len[id] = 0;
    if (this.#count * 2 > this.#keys.length) this.#grow();
    return id;
  }

  #alloc(): number {
    const at = this.#used;
    if ((at >>> CHUNK_BITS) >= this.#chunks.length) this.#chunks.push(new Uint8Array(CHUNK));
    this.#used += BLOCK;
    return at;
  }

  #put(id: number, byte: number): void {
    let pos = this.#tail[id];
    if ((pos & (BLOCK - 1)) === 0) {
      const block = this.#alloc();
      const prev = pos - BLOCK;
      const c = this.#chunks[prev >>> CHUNK_BITS];
      const o = prev & CHUNK_MASK;
      c[o] = block & 255;
      c[o + 1] = (block >>> 8) & 255;
      c[o + 2] = (block >>> 16) & 255;
      c[o + 3] = block >>> 24;
      pos = block + 4;
    }
    this.#chunks[pos >>> CHUNK_BITS][pos & CHUNK_MASK] = byte;
    this.#tail[id] = pos + 1;
    this.#len[id]++;
  }

  /** Records that document `doc` holds trigram `tri` (docs in ascending order; repeats ignored). */
  add(tri: number, doc: number): void {
    let id = this.#find(tri);
    if (id < 0) id = this.#newSlot(tri, -1 - id);
    const last = this.#last[id];
    if (last === doc) return;
    let delta = doc - last;
    this.#last[id] = doc;
    this.#n[id]++;
    while (delta >= 128) {
      this.#put(id, (delta & 127) | 128);
      delta >>>= 7;
    }
    this.#put(id, delta);
  }

  /** Every trigram held, ascending. */
  trigramList(): Int32Array {
    const out = new Int32Array(this.#count);
    let n = 0;
    for (let i = 0; i < this.#keys.length; i++) {
      if (this.#keys[i] !== 0) out[n++] = this.#keys[i] - 1;
    }
    return out.sort();
  }

  /** How many documents hold `tri`. */
  count(tri: number): number {
    const id = this.#find(tri);
    return id < 0 ? 0 : this.#n[id];
  }

  /** The ascending document ids holding `tri`. */
  docs(tri: number): Int32Array {
    const id = this.#find(tri);
    if (id < 0) return new Int32Array(0);
    const out = new Int32Array(this.#n[id]);
    this.#decode(id, out, 0);
    return out;
  }

  /**
   * What sealing the list of `tri` needs: its count, its first document and its payload bytes
   * (the varints as held here, the first one counted from document -1); null when absent.
   */
  shape(tri: number): { count: number; first: number; bytes: number } | null {
    const id = this.#find(tri);
    if (id < 0) return null;
    let pos = this.#head[id] + 4;
    const chunk = this.#chunks[pos >>> CHUNK_BITS];
    let value = 0;
    let shift = 0;
    for (;;) {
      const b = chunk[pos++ & CHUNK_MASK];
      value += (b & 127) * 2 ** shift;
      if (b < 128) break;
      shift += 7;
    }
    return { count: this.#n[id], first: value - 1, bytes: this.#len[id] };
  }

  /**
   * Writes the ascending document ids of `tri` into `out` from `at` (it must have room for
   * count(tri) more); returns how many were written.
   */
  docsInto(tri: number, out: Int32Array, at: number): number {
    const id = this.#find(tri);
    if (id < 0) return 0;
    this.#decode(id, out, at);
    return this.#n[id];
  }

  #decode(id: number, out: Int32Array, at: number): void {
    const end = this.#tail[id];
    let pos = this.#head[id] + 4;
    let chunk = this.#chunks[pos >>> CHUNK_BITS];
    let doc = -1;
    let k = at;
    let value = 0;
    let shift = 0;
    while (pos !== end) {
      if ((pos & (BLOCK - 1)) === 0) {
        const prev = (pos - BLOCK) & CHUNK_MASK;
        const c = this.#chunks[(pos - BLOCK) >>> CHUNK_BITS];
        pos = (c[prev] | (c[prev + 1] << 8) | (c[prev + 2] << 16) | (c[prev + 3] << 24)) + 4;
        chunk = this.#chunks[pos >>> CHUNK_BITS];
        continue;
      }
      const b = chunk[pos & CHUNK_MASK];
      pos++;
      value |= (b & 127) << shift;
      if (b < 128) {
        doc += value;
        out[k++] = doc;
        value = 0;
        shift = 0;
      } else shift += 7;
    }
  }
}
