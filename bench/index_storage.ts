// deno-lint-ignore-file no-console
/**
 * The storage choice of the stored index (docs/index.md, "Storage"): the same posting lists in
 * our shard file and in one SQLite database (node:sqlite, one row per trigram, the list as a
 * varint blob, WAL), written and queried side by side.
 *
 *   deno run --allow-read --allow-write --allow-env bench/index_storage.ts SHARD_FILE KEY [DB_DIR]
 *
 * SHARD_FILE is a base shard written by a session (in the cache folder), KEY its folder name.
 */
import { StoredShard } from "../lib/index/store/stored_shard.ts";
import { planQuery } from "../lib/index/query/planner.ts";
import type { Query } from "../lib/index/query/query.ts";

const [shardPath, key, dbDir = await Deno.makeTempDir({ prefix: "shipcode-sqlite-" })] = Deno.args;
if (shardPath === undefined || key === undefined) {
  console.error("usage: index_storage.ts SHARD_FILE KEY [DB_DIR]");
  Deno.exit(2);
}

function varints(docs: Int32Array): Uint8Array {
  const out = new Uint8Array(docs.length * 5);
  let n = 0;
  let last = -1;
  for (const d of docs) {
    let delta = d - last;
    last = d;
    while (delta >= 128) {
      out[n++] = (delta & 127) | 128;
      delta >>>= 7;
    }
    out[n++] = delta;
  }
  return out.subarray(0, n);
}

function decode(bytes: Uint8Array): number {
  let n = 0;
  for (const b of bytes) if (b < 128) n++;
  return n;
}

function trigramsOf(q: Query, out: number[]): number[] {
  if (q.op === "tri") out.push(q.tri);
  if (q.op === "and" || q.op === "or") { for (const s of q.subs) trigramsOf(s, out); }
  return out;
}

const QUERIES = ["PM_RESUME", "ext4_fill_super", "schedule_timeout", "copy_page_from_iter\\("];

let t = performance.now();
const shard = StoredShard.open(shardPath, key);
const openMs = performance.now() - t;
const tris = shard.trigrams;
console.log(
  `shard: ${tris.length} trigrams, ${shard.toc.docs} documents, opened in ${openMs.toFixed(0)} ms`,
);

const { DatabaseSync } = await import("node:sqlite");
const dbPath = `${dbDir}/index.sqlite`;
t = performance.now();
const db = new DatabaseSync(dbPath);
db.exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;");
db.exec("CREATE TABLE IF NOT EXISTS postings (tri INTEGER PRIMARY KEY, n INTEGER, docs BLOB)");
const insert = db.prepare("INSERT OR REPLACE INTO postings (tri, n, docs) VALUES (?, ?, ?)");
let readMs = 0;
db.exec("BEGIN");
for (const tri of tris) {
  const r = performance.now();
  const docs = shard.docs(tri);
  readMs += performance.now() - r;
  insert.run(tri, docs.length, varints(docs));
}
db.exec("COMMIT");
db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
const sqliteWriteMs = performance.now() - t - readMs;
const sqliteBytes = Deno.statSync(dbPath).size;
console.log(
  `sqlite: written in ${sqliteWriteMs.toFixed(0)} ms (list reads from the shard excluded: ` +
    `${readMs.toFixed(0)} ms), ${(sqliteBytes / 1048576).toFixed(1)} MiB; shard file ${
      (Deno.statSync(shardPath).size / 1048576).toFixed(1)
    } MiB`,
);

const select = db.prepare("SELECT docs FROM postings WHERE tri = ?");
for (const source of QUERIES) {
  const list = trigramsOf(planQuery(source, ""), []);
  const rounds = 5;
  let shardMs = 0;
  let sqliteMs = 0;
  let a = 0;
  let b = 0;
  for (let r = 0; r < rounds; r++) {
    let s = performance.now();
    for (const tri of list) a += shard.docs(tri).length;
    shardMs += performance.now() - s;
    s = performance.now();
    for (const tri of list) {
      const row = select.get(tri) as { docs: Uint8Array } | undefined;
      if (row !== undefined) b += decode(row.docs);
    }
    sqliteMs += performance.now() - s;
  }
  console.log(
    `${source}: ${list.length} lists, shard ${(shardMs / rounds).toFixed(2)} ms, sqlite ${
      (sqliteMs / rounds).toFixed(2)
    } ms per query (${a === b ? "same" : "DIFFERENT"} documents)`,
  );
}
db.close();
shard.close();
