import assert from "node:assert/strict";
import { PostingStore } from "../../lib/index/lists/posting_store.ts";
import { TrigramIndex } from "../../lib/index/live/trigram_index.ts";

/** A small deterministic generator (the same lists on every run). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/**
 * Documents 0..docs-1 with trigrams of every shape: in every document (a bitmap), in most of a
 * stretch, in one document in thousands (deltas of several varint bytes), and a long tail of rare.
 */
function lists(docs: number, seed: number): Map<number, number[]> {
  const next = random(seed);
  const model = new Map<number, number[]>();
  const put = (tri: number, doc: number) => {
    let list = model.get(tri);
    if (list === undefined) model.set(tri, list = []);
    list.push(doc);
  };
  for (let doc = 0; doc < docs; doc++) {
    put(0x616263, doc);
    if (doc > docs / 3 && doc < docs / 2 && next() < 0.9) put(0x202020, doc);
    if (doc % 3_001 === 7) put(0x7a7a7a, doc);
    for (let k = 0; k < 6; k++) put(Math.floor(next() ** 3 * 0xffffff), doc);
  }
  for (const list of model.values()) list.splice(0, list.length, ...new Set(list));
  return model;
}

function fill(store: PostingStore, model: Map<number, number[]>, from: number, to: number): void {
  const byDoc: number[][] = [];
  for (const [tri, docs] of model) {
    for (const d of docs) if (d >= from && d < to) (byDoc[d - from] ??= []).push(tri);
  }
  for (let d = from; d < to; d++) {
    for (const tri of byDoc[d - from] ?? []) store.add(tri, d);
    store.endDocument(d);
  }
}

function assertHolds(store: PostingStore, model: Map<number, number[]>, upTo: number): void {
  const want = [...model.keys()].filter((t) => model.get(t)!.some((d) => d < upTo)).sort((a, b) =>
    a - b
  );
  assert.deepEqual([...store.trigramList()], want);
  for (const tri of want) {
    const docs = model.get(tri)!.filter((d) => d < upTo);
    assert.equal(store.count(tri), docs.length, `count of ${tri.toString(16)}`);
    assert.deepEqual([...store.docs(tri)], docs, `list of ${tri.toString(16)}`);
  }
  let absent = 0x010203;
  while (model.has(absent)) absent++;
  assert.equal(store.count(absent), 0);
  assert.deepEqual([...store.docs(absent)], []);
}

Deno.test("posting store: sealed ranges answer every list as the growing lists did", () => {
  const model = lists(20_000, 1);
  const store = new PostingStore(64 * 1024);
  fill(store, model, 0, 12_000);
  assert.ok(store.ranges >= 3, `only ${store.ranges} ranges sealed`);
  assertHolds(store, model, 12_000);
  store.compact();
  assertHolds(store, model, 12_000);
  // Files re-indexed after the build grow the lists again, after the sealed ranges.
  fill(store, model, 12_000, 20_000);
  assertHolds(store, model, 20_000);
  store.compact();
  assertHolds(store, model, 20_000);
});

Deno.test("posting store: a dense list is held in a bit per document", () => {
  const store = new PostingStore();
  const empty = store.bytes;
  for (let d = 0; d < 80_000; d++) {
    store.add(0x616263, d);
    store.endDocument(d);
  }
  const growing = store.bytes;
  store.compact();
  // 80,000 one-byte deltas as varints; 10,000 bytes as a bitmap.
  const sealed = store.bytes - empty;
  assert.ok(sealed < 12_000, `the sealed list holds ${sealed} bytes`);
  assert.ok(growing - empty > sealed * 8);
  const docs = store.docs(0x616263);
  assert.equal(docs.length, 80_000);
  assert.equal(docs[0], 0);
  assert.equal(docs[79_999], 79_999);
});

Deno.test("posting store: the index's lists and its answers are the same sealed or not", () => {
  const next = random(7);
  const files: [string, Uint8Array][] = [];
  const words = ["alpha", "beta", "gamma", "delta", "kmalloc", "task_struct", "list_head"];
  for (let i = 0; i < 400; i++) {
    const lines: string[] = [];
    for (let l = 0; l < 40; l++) {
      lines.push(`${words[Math.floor(next() * words.length)]}_${Math.floor(next() ** 4 * 999)}`);
    }
    files.push([
      `src/f${String(i).padStart(3, "0")}.c`,
      new TextEncoder().encode(lines.join("\n")),
    ]);
  }
  const sealed = new TrigramIndex(4096);
  const whole = new TrigramIndex(Number.MAX_SAFE_INTEGER);
  for (const idx of [sealed, whole]) {
    for (const [rel, bytes] of files) {
      idx.add({ rel, real: "", size: bytes.length, mtimeMs: 1 }, bytes);
    }
  }
  assert.ok(sealed.postings.ranges > 1);
  sealed.compact();
  const tris = whole.postings.trigramList();
  assert.deepEqual(sealed.postings.trigramList(), tris);
  for (const tri of tris) assert.deepEqual(sealed.docs(tri), whole.docs(tri));
});
