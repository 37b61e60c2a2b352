/**
 * The query evaluator against the plain reading of a trigram query (a trigram: its list; AND:
 * the intersection of the parts that narrow; OR: the union, unless a part cannot narrow), on
 * random lists and random queries, at document and at file level.
 */
import assert from "node:assert/strict";
import { seededRandom } from "../helpers/random.ts";
import { evaluate, type PostingSource } from "../../lib/index/query/evaluate.ts";
import type { Query } from "../../lib/index/query/query.ts";

const TRIGRAMS = 12;
const DOCS = 400;

/** Random ascending lists per trigram (some empty, some dense), and a file for every document. */
function randomSource(random: () => number) {
  const lists = new Map<number, Int32Array>();
  for (let tri = 0; tri < TRIGRAMS; tri++) {
    const density = [0, 0.01, 0.1, 0.5, 0.95][Math.floor(random() * 5)];
    const docs: number[] = [];
    for (let d = 0; d < DOCS; d++) if (random() < density) docs.push(d);
    lists.set(tri, Int32Array.from(docs));
  }
  // Documents are pieces of files: 1 to 4 consecutive documents per file.
  const docFile = new Int32Array(DOCS);
  for (let d = 0, f = 0; d < DOCS; f++) {
    const pieces = 1 + Math.floor(random() * 4);
    for (let k = 0; k < pieces && d < DOCS; k++) docFile[d++] = f;
  }
  const source: PostingSource = {
    docs: (tri) => lists.get(tri)?.slice() ?? new Int32Array(0),
    docsInto: (tri, out, at) => {
      const list = lists.get(tri) ?? new Int32Array(0);
      out.set(list, at);
      return list.length;
    },
    count: (tri) => lists.get(tri)?.length ?? 0,
    toFiles(docs) {
      const out: number[] = [];
      for (const d of docs) {
        if (out.length === 0 || out[out.length - 1] !== docFile[d]) out.push(docFile[d]);
      }
      return Int32Array.from(out);
    },
  };
  return { source, lists, docFile };
}

function randomQuery(random: () => number, depth: number): Query {
  const r = random();
  if (depth === 0 || r < 0.35) {
    if (r < 0.03) return { op: "all" };
    if (r < 0.05) return { op: "none" };
    return { op: "tri", tri: Math.floor(random() * TRIGRAMS) };
  }
  const subs: Query[] = [];
  const n = 2 + Math.floor(random() * 6);
  for (let i = 0; i < n; i++) subs.push(randomQuery(random, depth - 1));
  return { op: r < 0.7 ? "and" : "or", subs };
}

/** The plain reading, on sets. */
function reference(
  q: Query,
  lists: Map<number, Int32Array>,
  docFile: Int32Array,
  fileLevel: boolean,
): Set<number> | null {
  switch (q.op) {
    case "all":
      return null;
    case "none":
      return new Set();
    case "tri": {
      const docs = [...(lists.get(q.tri) ?? [])];
      return new Set(fileLevel ? docs.map((d) => docFile[d]) : docs);
    }
    case "and": {
      let acc: Set<number> | null = null;
      for (const s of q.subs) {
        const r = reference(s, lists, docFile, fileLevel);
        if (r === null) continue;
        const prev: Set<number> | null = acc;
        acc = prev === null ? r : new Set([...prev].filter((x: number) => r.has(x)));
      }
      return acc;
    }
    case "or": {
      const acc = new Set<number>();
      for (const s of q.subs) {
        const r = reference(s, lists, docFile, fileLevel);
        if (r === null) return null;
        for (const x of r) acc.add(x);
      }
      return acc;
    }
  }
}

Deno.test("index evaluate: equals the plain reading of random queries over random lists", () => {
  const random = seededRandom(20261203);
  let narrowed = 0;
  for (let round = 0; round < 400; round++) {
    const fileLevel = round % 2 === 1;
    const { source, lists, docFile } = randomSource(random);
    const q = randomQuery(random, 3);
    const got = evaluate(q, source, fileLevel);
    const want = reference(q, lists, docFile, fileLevel);
    if (want === null) {
      assert.equal(got, null, `round ${round}: ${JSON.stringify(q)}`);
      continue;
    }
    narrowed++;
    assert.ok(got !== null, `round ${round}: ${JSON.stringify(q)}`);
    const ids = [...got];
    assert.deepEqual(ids, [...want].sort((a, b) => a - b), `round ${round}: ${JSON.stringify(q)}`);
  }
  assert.ok(narrowed > 200, `only ${narrowed} of the random queries narrowed`);
});

Deno.test("index evaluate: an AND takes only its cheapest part whole; the others are decoded into one buffer", () => {
  const range = (from: number, to: number) =>
    Int32Array.from({ length: to - from }, (_, k) => from + k);
  const lists = new Map<number, Int32Array>([
    [0, range(1, 100)],
    [1, range(50, 300)],
    [2, range(0, 400)],
    [3, Int32Array.from([10, 60, 70])],
  ]);
  const calls = { docs: [] as number[], into: 0 };
  const source: PostingSource = {
    docs(tri) {
      calls.docs.push(tri);
      return lists.get(tri)!.slice();
    },
    count: (tri) => lists.get(tri)!.length,
    toFiles: (docs) => docs,
    docsInto(tri, out, at) {
      calls.into++;
      out.set(lists.get(tri)!, at);
      return lists.get(tri)!.length;
    },
  };
  // A case-insensitive shape: every part an OR of two variants.
  const q: Query = {
    op: "and",
    subs: [0, 1, 2, 3].map((tri) => ({
      op: "or",
      subs: [{ op: "tri", tri }, { op: "tri", tri }],
    })),
  };
  assert.deepEqual([...evaluate(q, source, false)!], [60, 70]);
  assert.deepEqual(
    calls.docs,
    [3, 3],
    "the cheapest part (two variants of trigram 3) is taken whole",
  );
  assert.equal(calls.into, 6, "every other list goes through the buffer");
});
