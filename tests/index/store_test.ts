/**
 * The stored index's shard format (lib/index/store/shard_format.ts, stored_shard.ts) and the layered
 * index over it: a round trip answers as the in-memory index does; a changed byte anywhere, a
 * truncated file, another format version or another root's key is refused, never trusted.
 */
import assert from "node:assert/strict";
import { checksum } from "../../lib/index/store/checksum.ts";
import { LayeredIndex } from "../../lib/index/live/layered_index.ts";
import { planQuery } from "../../lib/index/query/planner.ts";
import { TAIL_BYTES } from "../../lib/index/store/shard_format.ts";
import { shardBytes } from "./helpers.ts";
import { ShardError, StoredShard } from "../../lib/index/store/stored_shard.ts";

const KEY = "0123456789abcdef0123456789abcdef01234567";
const enc = new TextEncoder();

function files(): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < 60; i++) out[`src/f${String(i).padStart(2, "0")}.c`] = `int value_${i};\n`;
  out["src/hit.c"] = "void wanted_token(void);\nint other;\n";
  out["docs/readme.md"] = "the wanted_token is documented here\n";
  // Over 256 KiB: stored as several pieces.
  out["big/large.txt"] = "filler line\n".repeat(40_000) + "needle_in_piece\n" +
    "filler line\n".repeat(10_000);
  return out;
}

function built(contents: Record<string, string>, sealBytes?: number): LayeredIndex {
  const idx = new LayeredIndex(sealBytes);
  for (const rel of Object.keys(contents).sort()) {
    const bytes = enc.encode(contents[rel]);
    idx.add(
      { rel, real: "", size: bytes.length, mtimeMs: 1000, dev: 1, ino: 7, ctimeMs: 1000 },
      bytes,
    );
  }
  idx.overlay.ordered = idx.overlay.files.length;
  return idx;
}

async function written(idx: LayeredIndex, from = 0): Promise<string> {
  const path = await Deno.makeTempFile({ prefix: "shipcode-shard-", suffix: ".shard" });
  await Deno.writeFile(path, shardBytes(idx.shardInput(KEY, from)));
  return path;
}

function answer(idx: LayeredIndex, source: string): string[] | null {
  return idx.candidates(planQuery(source, ""), false, () => true)?.files ?? null;
}

const QUERIES = ["wanted_token", "value_4\\b", "needle_in_piece", "int", "no_such_thing_here"];

Deno.test("index store: a shard written and opened again answers as the in-memory index", async () => {
  const memory = built(files());
  const path = await written(memory);
  const shard = StoredShard.open(path, KEY);
  try {
    const stored = new LayeredIndex();
    stored.addLayer(shard);
    for (const q of QUERIES) assert.deepEqual(answer(stored, q), answer(memory, q), q);
    assert.deepEqual(answer(stored, "wanted_token"), ["docs/readme.md", "src/hit.c"]);
    // The large file's pieces: only the matching one is named, with the size and mtime to check.
    const c = stored.candidates(planQuery("needle_in_piece", ""), false, () => true)!;
    assert.deepEqual(c.files, ["big/large.txt"]);
    assert.equal(c.pieces[0]!.length, 4);
    assert.equal(stored.liveFiles, memory.liveFiles);
  } finally {
    shard.close();
    await Deno.remove(path);
  }
});

Deno.test("index store: a delta supersedes the base's changed and deleted files", async () => {
  const contents = files();
  const base = StoredShard.open(await written(built(contents)), KEY);
  const idx = new LayeredIndex();
  idx.addLayer(base);
  const changed = enc.encode("now wanted_token lives here too\n");
  idx.add({ rel: "src/f03.c", real: "", size: changed.length, mtimeMs: 2000 }, changed);
  idx.remove("src/hit.c");
  assert.deepEqual(answer(idx, "wanted_token"), ["docs/readme.md", "src/f03.c"]);
  const deltaPath = await written(idx, 1);
  const delta = StoredShard.open(deltaPath, KEY);
  try {
    assert.deepEqual([...delta.supersedes].sort(), ["src/f03.c", "src/hit.c"]);
    const again = new LayeredIndex();
    again.addLayer(StoredShard.open(base.path, KEY));
    again.addLayer(delta);
    for (const q of QUERIES) assert.deepEqual(answer(again, q), answer(idx, q), q);
    assert.equal(again.get("src/hit.c"), undefined);
    again.close();
  } finally {
    base.close();
    await Deno.remove(base.path);
    await Deno.remove(deltaPath);
  }
});

function refused(path: string, key = KEY): string {
  try {
    const shard = StoredShard.open(path, key);
    shard.close();
  } catch (error) {
    assert.ok(error instanceof ShardError, String(error));
    return error.message;
  }
  assert.fail("the shard was accepted");
}

Deno.test("index store: a base rewritten from a stored shard and a sealed overlay holds both", async () => {
  const words = ["alpha", "beta", "wanted_token", "kmalloc", "task_struct", "list_head"];
  const first: Record<string, string> = {};
  const later: Record<string, string> = {};
  for (let i = 0; i < 300; i++) {
    const text = Array.from({ length: 30 }, (_, k) => `${words[(i * 7 + k) % 6]}_${(i * k) % 97}`);
    // The later files interleave with the stored ones in walk order: documents are renumbered.
    (i % 3 === 0 ? later : first)[`src/f${String(i).padStart(3, "0")}.c`] = text.join("\n");
  }
  const base = await written(built(first));
  const shard = StoredShard.open(base, KEY);
  let rewritten = "";
  try {
    const layered = new LayeredIndex(2048);
    layered.addLayer(shard);
    for (const rel of Object.keys(later).sort()) {
      const bytes = enc.encode(later[rel]);
      layered.add({ rel, real: "", size: bytes.length, mtimeMs: 1000 }, bytes);
    }
    assert.ok(layered.overlay.postings.ranges > 1, "the overlay sealed no range");
    rewritten = await written(layered);
    const again = new LayeredIndex();
    again.addLayer(StoredShard.open(rewritten, KEY));
    const whole = built({ ...first, ...later });
    for (const w of words) {
      for (const q of [w, `${w}_4\\b`, `${w}_1[0-9]`]) {
        assert.deepEqual(answer(again, q), answer(whole, q), q);
      }
    }
    again.close();
  } finally {
    shard.close();
    await Deno.remove(base);
    if (rewritten !== "") await Deno.remove(rewritten);
  }
});

Deno.test("index store: a fresh build is written from its own records, byte for byte as a merge", () => {
  const contents: Record<string, string> = {
    ...files(),
    "src/names.c": "int defined_here(void) { return 0; }\n",
  };
  // In walk order the records are written as they are; added in reverse they are copied and
  // renumbered: the two shards must be the same bytes.
  const inOrder = built(contents);
  const reversed = new LayeredIndex();
  for (const rel of Object.keys(contents).sort().reverse()) {
    const bytes = enc.encode(contents[rel]);
    reversed.add(
      { rel, real: "", size: bytes.length, mtimeMs: 1000, dev: 1, ino: 7, ctimeMs: 1000 },
      bytes,
    );
  }
  assert.deepEqual(shardBytes(inOrder.shardInput(KEY, 0)), shardBytes(reversed.shardInput(KEY, 0)));
});

Deno.test("index store: a file removed while its index is being written leaves a valid shard", async () => {
  const memory = built(files());
  const input = memory.shardInput(KEY, 0);
  // The write is paced: the file records are encoded after the lists, by which time a change
  // may have tombstoned a record of the index being written.
  memory.remove("src/hit.c");
  const path = await Deno.makeTempFile({ prefix: "shipcode-shard-", suffix: ".shard" });
  try {
    await Deno.writeFile(path, shardBytes(input));
    const shard = StoredShard.open(path, KEY);
    const stored = new LayeredIndex();
    stored.addLayer(shard);
    assert.deepEqual(answer(stored, "wanted_token"), ["docs/readme.md", "src/hit.c"]);
    stored.close();
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("index store: a shard just written takes over its writer's records, answering the same", async () => {
  const memory = built(files());
  const input = memory.shardInput(KEY, 0);
  const path = await Deno.makeTempFile({ prefix: "shipcode-shard-", suffix: ".shard" });
  try {
    await Deno.writeFile(path, shardBytes(input));
    const taken = StoredShard.open(path, KEY, input.meta);
    const parsed = StoredShard.open(path, KEY);
    assert.equal(taken.files, input.meta.files);
    assert.notEqual(parsed.files, input.meta.files);
    assert.deepEqual(
      taken.files.map((f) => [f.rel, f.size, f.state, f.docs]),
      parsed.files.map((f) => [f.rel, f.size, f.state, f.docs]),
    );
    for (const shard of [taken, parsed]) {
      const stored = new LayeredIndex();
      stored.addLayer(shard);
      for (const q of QUERIES) assert.deepEqual(answer(stored, q), answer(memory, q), q);
      stored.close();
    }
    // Records of another count are not taken over: the shard's own are read.
    const other = StoredShard.open(path, KEY, { ...input.meta, files: input.meta.files.slice(1) });
    assert.equal(other.files.length, input.meta.files.length);
    other.close();
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("index store: a changed byte in any table, a truncated file or another root's key is refused", async () => {
  const path = await written(built(files()));
  const bytes = await Deno.readFile(path);
  try {
    // Truncated anywhere.
    for (const cut of [0, 5, bytes.length - 1, Math.floor(bytes.length / 2)]) {
      await Deno.writeFile(path, bytes.subarray(0, cut));
      refused(path);
    }
    // One byte flipped in the tables at the end (document table, trigrams, file records, toc).
    const tocLength = new DataView(bytes.buffer).getUint32(bytes.length - TAIL_BYTES, true);
    const tocStart = bytes.length - TAIL_BYTES - tocLength;
    const toc = JSON.parse(
      new TextDecoder().decode(bytes.subarray(tocStart, tocStart + tocLength)),
    );
    for (
      const at of [
        toc.docTable[0] + 3,
        toc.triTable[0] + 9,
        toc.cols[0] + 5,
        toc.meta[0] + 20,
        tocStart + 4,
      ]
    ) {
      const bad = bytes.slice();
      bad[at] ^= 0x20;
      await Deno.writeFile(path, bad);
      refused(path);
    }
    await Deno.writeFile(path, bytes);
    assert.match(refused(path, "f".repeat(40)), /another root/);
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("index store: a posting list that fails its checksum is refused when it is read", async () => {
  const path = await written(built(files()));
  const bytes = await Deno.readFile(path);
  try {
    const bad = bytes.slice();
    bad[0] ^= 0x01; // the first posting list
    await Deno.writeFile(path, bad);
    const shard = StoredShard.open(path, KEY); // the tables are fine
    try {
      const idx = new LayeredIndex();
      idx.addLayer(shard);
      let threw = 0;
      for (const tri of shard.trigrams.slice(0, 3)) {
        try {
          shard.docs(tri);
        } catch (error) {
          assert.ok(error instanceof ShardError);
          threw++;
        }
      }
      assert.equal(threw, 1);
    } finally {
      shard.close();
    }
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("index store: a shard of another format version is refused", async () => {
  const path = await written(built(files()));
  const bytes = await Deno.readFile(path);
  try {
    const view = new DataView(bytes.buffer);
    const tocLength = view.getUint32(bytes.length - TAIL_BYTES, true);
    const tocStart = bytes.length - TAIL_BYTES - tocLength;
    const toc = JSON.parse(
      new TextDecoder().decode(bytes.subarray(tocStart, tocStart + tocLength)),
    );
    const newer = enc.encode(JSON.stringify({ ...toc, version: toc.version + 1 }));
    const tail = new Uint8Array(TAIL_BYTES);
    const tv = new DataView(tail.buffer);
    tv.setUint32(0, newer.length, true);
    tv.setUint32(4, checksum(newer), true);
    tv.setUint32(8, view.getUint32(bytes.length - 4, true), true);
    const out = new Uint8Array(tocStart + newer.length + TAIL_BYTES);
    out.set(bytes.subarray(0, tocStart));
    out.set(newer, tocStart);
    out.set(tail, tocStart + newer.length);
    await Deno.writeFile(path, out);
    assert.match(refused(path), /format version/);
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("index store: a FIFO, a folder or a link where the shard should be is never opened", async () => {
  const dir = await Deno.makeTempDir({ prefix: "shipcode-shard-odd-" });
  try {
    const fifo = `${dir}/fifo.shard`;
    const mk = new Deno.Command("mkfifo", { args: [fifo] }).outputSync();
    assert.ok(mk.success);
    assert.match(refused(fifo), /not a plain file/);
    await Deno.mkdir(`${dir}/folder.shard`);
    assert.match(refused(`${dir}/folder.shard`), /not a plain file/);
    const real = await written(built(files()));
    await Deno.symlink(real, `${dir}/link.shard`);
    assert.match(refused(`${dir}/link.shard`), /not a plain file/);
    await Deno.remove(real);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
