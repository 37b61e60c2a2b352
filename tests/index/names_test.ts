/**
 * The names lists the index keeps for C/C++ files (lib/index/lists/name_hashes.ts): a query with
 * `defines` keeps a C/C++ file only when it may define the name (in any case), leaves out the
 * files that cannot, and treats every other file as before; the lists survive a shard round
 * trip, and a names section that fails its check is refused when a query reads it.
 */
import assert from "node:assert/strict";
import { LayeredIndex } from "../../lib/index/live/layered_index.ts";
import { nameHash } from "../../lib/index/lists/name_hashes.ts";
import { planQuery } from "../../lib/index/query/planner.ts";
import { TAIL_BYTES } from "../../lib/index/store/shard_format.ts";
import { shardBytes } from "./helpers.ts";
import { ShardError, StoredShard } from "../../lib/index/store/stored_shard.ts";

const KEY = "0123456789abcdef0123456789abcdef01234567";
const enc = new TextEncoder();

const TREE: Record<string, string> = {
  "src/def.c": "void *wanted_fn(int n)\n{\n\treturn 0;\n}\n",
  "src/use.c": "static int caller(void)\n{\n\treturn wanted_fn(1) != 0;\n}\n",
  "src/proto.h": "void *wanted_fn(int n);\n",
  "src/WANTED.H": "#define WANTED_FN(x) (x)\n",
  "src/tool.py": "def wanted_fn():\n    pass\n",
  "docs/notes.md": "wanted_fn allocates\n",
  // Over the 1 MiB a list is kept for: searched as before.
  "src/big.c": "int filler;\n".repeat(100_000) + "int f(void) { return wanted_fn(2); }\n",
};

function built(): LayeredIndex {
  const idx = new LayeredIndex();
  for (const rel of Object.keys(TREE).sort()) {
    const bytes = enc.encode(TREE[rel]);
    idx.add(
      { rel, real: "", size: bytes.length, mtimeMs: 1000, dev: 1, ino: 7, ctimeMs: 1000 },
      bytes,
    );
  }
  idx.overlay.ordered = idx.overlay.files.length;
  return idx;
}

function ask(idx: LayeredIndex, defines: string | null, ignoreCase = false) {
  const found = idx.candidates(
    planQuery("\\bwanted_fn\\b", ignoreCase ? "i" : ""),
    false,
    () => true,
    defines === null ? null : nameHash(defines),
  );
  assert.ok(found !== null);
  return { files: found.files.sort() };
}

function assertNarrowed(idx: LayeredIndex): void {
  assert.deepEqual(ask(idx, null), {
    files: ["docs/notes.md", "src/big.c", "src/def.c", "src/proto.h", "src/tool.py", "src/use.c"],
  });
  // use.c calls it inside a body: left out; def.c and proto.h may define it; the others have no
  // list (not C/C++, or over 1 MiB).
  const kept = ["docs/notes.md", "src/big.c", "src/def.c", "src/proto.h", "src/tool.py"];
  assert.deepEqual(ask(idx, "wanted_fn").files, kept);
  // The lists hold the names in lower case: -i finds WANTED.H's macro too.
  assert.deepEqual(ask(idx, "WANTED_FN", true).files, [...kept, "src/WANTED.H"].sort());
}

Deno.test("index names: a defines query keeps only the C/C++ files that may define the name", () => {
  assertNarrowed(built());
});

Deno.test("index names: a file re-added with new text gets a new list", () => {
  const idx = built();
  const bytes = enc.encode("int wanted_fn = 3;\n");
  idx.add({ rel: "src/use.c", real: "", size: bytes.length, mtimeMs: 2000 }, bytes);
  assert.ok(ask(idx, "wanted_fn").files.includes("src/use.c"));
  idx.remove("src/def.c");
  assert.ok(!ask(idx, "wanted_fn").files.includes("src/def.c"));
});

async function written(idx: LayeredIndex): Promise<{ path: string; bytes: Uint8Array }> {
  const bytes = shardBytes(idx.shardInput(KEY, 0));
  const path = await Deno.makeTempFile({ prefix: "shipcode-names-", suffix: ".shard" });
  await Deno.writeFile(path, bytes);
  return { path, bytes };
}

Deno.test("index names: the lists survive a shard round trip", async () => {
  const { path } = await written(built());
  const shard = StoredShard.open(path, KEY);
  try {
    const idx = new LayeredIndex();
    idx.addLayer(shard);
    assertNarrowed(idx);
  } finally {
    shard.close();
    await Deno.remove(path);
  }
});

Deno.test("index names: a names section that fails its check is refused when a query reads it", async () => {
  const { path, bytes } = await written(built());
  const tocLength = new DataView(bytes.buffer).getUint32(bytes.length - TAIL_BYTES, true);
  const tocStart = bytes.length - TAIL_BYTES - tocLength;
  const toc = JSON.parse(new TextDecoder().decode(bytes.subarray(tocStart, tocStart + tocLength)));
  const bad = bytes.slice();
  bad[toc.names[0] + toc.names[1] - 2] ^= 0x10; // a byte of the last list
  await Deno.writeFile(path, bad);
  const shard = StoredShard.open(path, KEY); // read lazily: the other tables are fine
  try {
    const idx = new LayeredIndex();
    idx.addLayer(shard);
    // Queries without a name never read the section.
    assert.equal(ask(idx, null).files.length, 6);
    assert.throws(() => ask(idx, "wanted_fn"), ShardError);
  } finally {
    shard.close();
    await Deno.remove(path);
  }
});
