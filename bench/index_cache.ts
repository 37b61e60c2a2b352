// deno-lint-ignore-file no-console
/**
 * The stored index on the kernel tree (bench/index.ts measures the in-memory build and warm
 * queries; this one the sessions after it), side by side with ripgrep and with codesearch's
 * on-disk index (cindex/csearch) in one run:
 *
 * 1. First build with a cache folder: time from the first grep to "index ready", and from ready to
 *    the base shard on disk; peak RSS; bytes on disk.
 * 2. Second start: each selective query as the FIRST call of a NEW session, timed from the
 *    request (feature loading after initialize included), then `rg` and `csearch -l` on the same
 *    query; answers checked against rg. Then all of them in one new session (each query's first
 *    call). Peak RSS of those sessions.
 *    The same with the query sent PAUSE_MS after initialize (a client that reads tools/list and
 *    thinks before its first call): the stat pass is then done when the query arrives.
 * 3. Pings (every 5 ms) during the stat pass of a new session: p99.
 * 4. Re-index after N changed files (a copy of the kernel's fs/ tree): from spawn to the delta
 *    shard written, for N = 10, 100, 1000.
 *
 *   BENCH_CORPUS=../corpora/linux-source-6.1 deno run --allow-read --allow-write --allow-run \
 *     --allow-env bench/index_cache.ts [--cache-dir DIR] [--rounds 3]
 *
 * --cache-dir: reuse a cache folder (step 1 is skipped when it holds the index already).
 * --pause-ms: the pause before the first call of the "after a pause" sessions (default 3000).
 */
import { loadAverage, Peer } from "./client.ts";
import { againstRg, type GrepCounts, grepCounts, rgCounts } from "./grep_counts.ts";
import {
  CORPUS,
  median,
  oursCommand,
  requireCorpusAndServer,
  serverLabel,
  timed,
} from "./servers.ts";
import { flagValue, numFlag } from "./flags.ts";

requireCorpusAndServer();
const ROUNDS = numFlag("--rounds", 3);
const CACHE = flagValue("--cache-dir") ??
  await Deno.makeTempDir({ prefix: "shipcode-bench-cache-" });
const LOAD = loadAverage();
/** The pause between initialize and the first call in the "after a pause" sessions. */
const PAUSE_MS = numFlag("--pause-ms", 3000);

interface Query {
  label: string;
  args: Record<string, unknown>;
  rg: string[];
  cs: string[];
  target: number;
}

function q(pattern: string, target: number, extra: Record<string, unknown> = {}): Query {
  const i = extra["-i"] === true;
  const content = extra.output_mode === "content";
  return {
    label: `${content ? "content " : ""}${i ? "-i " : ""}\`${pattern}\``,
    args: { pattern, output_mode: "count", ...extra },
    rg: ["rg", "-c", "--hidden", "-L", "--no-unicode", ...(i ? ["-i"] : []), "-e", pattern],
    cs: ["csearch", "-l", ...(i ? ["-i"] : []), pattern],
    target,
  };
}

const QUERIES: Query[] = [
  q("PM_RESUME", 0.2),
  q("ext4_fill_super", 0.2),
  q("schedule_timeout", 0.2),
  q("copy_page_from_iter\\(", 0.2, { output_mode: "content" }),
  q("PM_RESUME", 1 / 3, { "-i": true }),
];

function ours(root: string, lines: (line: string) => void): Peer {
  return new Peer("ours", oursCommand(root, ["--cache-dir", CACHE, "--log-level", "debug"]), {
    stderr: "piped",
    onStderrLine: lines,
  });
}

/** A query's grep on `peer` (count or content mode, no head limit), timed. */
function grep(peer: Peer, query: Query): Promise<GrepCounts> {
  return grepCounts(peer, query.args);
}

function check(query: Query, got: GrepCounts, rgOut: string): string {
  if (got.error !== undefined) return `FAIL ${got.error.slice(0, 200)}`;
  const verdict = againstRg(got, rgCounts(CORPUS, rgOut));
  if (query.args.output_mode === "content") {
    return verdict.ok
      ? `PASS ${got.files} files = rg`
      : `FAIL ${got.files}/${got.matches} vs rg ${verdict.rgFiles}/${verdict.rgLines}`;
  }
  return verdict.ok
    ? `PASS ${got.counts?.size ?? 0} files = rg`
    : `FAIL ${verdict.differ.length} differ`;
}

async function du(dir: string): Promise<number> {
  let n = 0;
  for await (const e of Deno.readDir(dir)) {
    const p = `${dir}/${e.name}`;
    const info = await Deno.lstat(p);
    n += info.isDirectory ? await du(p) : info.size;
  }
  return n;
}

function waitFor(test: () => boolean, ms = 900_000): Promise<void> {
  const until = performance.now() + ms;
  return new Promise((resolve, reject) => {
    const look = () => {
      if (test()) resolve();
      else if (performance.now() > until) reject(new Error("timed out"));
      else setTimeout(look, 20);
    };
    look();
  });
}

const report: string[] = [];

// 1. First build with the cache (skipped when the cache holds the kernel's index already).
let stored = false;
try {
  for await (const e of Deno.readDir(CACHE)) if (e.isDirectory) stored = true;
} catch {
  // no cache folder yet
}
if (!stored) {
  let readyAt = 0;
  let writtenAt = 0;
  let readyNote = "";
  let writtenNote = "";
  const peer = ours(CORPUS, (line) => {
    if (line.includes("debug: index ready") && readyAt === 0) {
      readyAt = performance.now();
      readyNote = line.replace(/^.*debug: /, "");
    }
    if (line.includes("debug: index written: base") && writtenAt === 0) {
      writtenAt = performance.now();
      writtenNote = line.replace(/^.*debug: /, "");
    }
  });
  await peer.handshake();
  const first = await grep(peer, QUERIES[0]);
  const grepEnd = performance.now();
  await waitFor(() => writtenAt > 0);
  report.push(
    `- first build (cache empty): the first grep (a full scan) took ${
      (first.ms / 1000).toFixed(1)
    } s; ` +
      `index ready ${((readyAt - grepEnd) / 1000).toFixed(1)} s after it (${readyNote}); ` +
      `base shard on disk ${((writtenAt - readyAt) / 1000).toFixed(1)} s after ready ` +
      `(${writtenNote}); peak RSS ${(peer.peakRssKiB() / 1024).toFixed(0)} MiB`,
  );
  await peer.close();
}
const diskBytes = await du(CACHE);
report.push(`- cache on disk: ${(diskBytes / 1048576).toFixed(1)} MiB (target <= 400 MiB)`);

// csearch's own index of the same tree.
const csIndex = `${CACHE}-csearchindex`;
const cindexRun = await (async () => {
  const t0 = performance.now();
  const out = await new Deno.Command("cindex", {
    args: [CORPUS],
    env: { CSEARCHINDEX: csIndex },
    stdout: "null",
    stderr: "null",
  }).output();
  return { ms: performance.now() - t0, ok: out.success };
})();
const csBytes = cindexRun.ok ? (await Deno.stat(csIndex)).size : 0;
report.push(
  `- csearch anchor: cindex ${(cindexRun.ms / 1000).toFixed(1)} s, ${
    (csBytes / 1048576).toFixed(1)
  } MiB`,
);
async function csearch(query: Query): Promise<number> {
  const t0 = performance.now();
  await new Deno.Command(query.cs[0], {
    args: query.cs.slice(1),
    env: { CSEARCHINDEX: csIndex },
    stdout: "null",
    stderr: "null",
  }).output();
  return performance.now() - t0;
}

// 2. Second start: each query the first call of a new session.
interface Row {
  query: Query;
  ours: number[];
  /** The first call sent PAUSE_MS after initialize. */
  paused: number[];
  rg: number[];
  cs: number[];
  check: string;
  how: string;
}
const rows: Row[] = QUERIES.map((query) => ({
  query,
  ours: [],
  paused: [],
  rg: [],
  cs: [],
  check: "",
  how: "",
}));
let peakRss = 0;
const statPass: string[] = [];
for (let round = 0; round < ROUNDS; round++) {
  for (const row of rows) {
    let how = "";
    const peer = ours(CORPUS, (line) => {
      if (line.includes("debug: grep /")) how = line.replace(/^.*debug: grep \/.*?\/\w*: /, "");
      if (line.includes("info: Stored index loaded")) statPass.push(line.replace(/^.*info: /, ""));
    });
    await peer.handshake();
    const got = await grep(peer, row.query);
    peakRss = Math.max(peakRss, peer.peakRssKiB() / 1024);
    await peer.close();
    const rg = await timed(row.query.rg, CORPUS);
    row.ours.push(got.ms);
    row.rg.push(rg.ms);
    row.cs.push(await csearch(row.query));
    row.how = how;
    if (round === 0) row.check = check(row.query, got, rg.stdout);
    const later = ours(CORPUS, () => {});
    await later.handshake();
    await new Promise((r) => setTimeout(r, PAUSE_MS));
    const gotLater = await grep(later, row.query);
    peakRss = Math.max(peakRss, later.peakRssKiB() / 1024);
    await later.close();
    row.paused.push(gotLater.ms);
    if (round === 0 && !row.check.startsWith("FAIL")) {
      const c = check(row.query, gotLater, rg.stdout);
      if (c.startsWith("FAIL")) row.check = `${c} (after the pause)`;
    }
  }
}
// All of them in one new session (each query's first call).
const session: { label: string; ms: number }[] = [];
{
  const peer = ours(CORPUS, () => {});
  await peer.handshake();
  for (const row of rows) {
    session.push({ label: row.query.label, ms: (await grep(peer, row.query)).ms });
  }
  peakRss = Math.max(peakRss, peer.peakRssKiB() / 1024);
  await peer.close();
}

// 3. Pings during the stat pass.
const pings: number[] = [];
{
  let loaded = false;
  const peer = ours(CORPUS, (line) => {
    if (line.includes("info: Stored index loaded")) loaded = true;
  });
  await peer.handshake();
  while (!loaded) {
    const t0 = performance.now();
    await peer.requestLine("ping", {});
    pings.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 5));
  }
  await peer.close();
}
pings.sort((a, b) => a - b);

// 4. Re-index after N changed files, on a copy of fs/.
const copy = await Deno.makeTempDir({ prefix: "shipcode-bench-fs-" });
await new Deno.Command("cp", { args: ["-r", `${CORPUS}/fs`, `${copy}/fs`] }).output();
const copyFiles: string[] = [];
for await (const e of walkFiles(`${copy}/fs`)) copyFiles.push(e);
async function* walkFiles(dir: string): AsyncGenerator<string> {
  for await (const e of Deno.readDir(dir)) {
    const p = `${dir}/${e.name}`;
    if (e.isDirectory) yield* walkFiles(p);
    else if (e.isFile) yield p;
  }
}
async function reindexSession(): Promise<{ spawnToWritten: number; note: string; write: string }> {
  let writtenAt = 0;
  let note = "";
  let write = "";
  const t0 = performance.now();
  const peer = ours(copy, (line) => {
    if (line.includes("debug: index written") && writtenAt === 0) {
      writtenAt = performance.now();
      write = line.replace(/^.*debug: index written: /, "");
    }
    if (line.includes("info: Stored index loaded")) note = line.replace(/^.*info: /, "");
  });
  await peer.handshake();
  await grep(peer, QUERIES[1]);
  await waitFor(() => writtenAt > 0, 300_000);
  await peer.close();
  return { spawnToWritten: writtenAt - t0, note, write };
}
await new Promise((r) => setTimeout(r, 2500)); // the copy's files no longer racy
await reindexSession(); // the base of the copy
await new Promise((r) => setTimeout(r, 2500)); // nothing racy
const reindex: { n: number; ms: number; note: string; write: string }[] = [];
for (const n of [10, 100, 1000]) {
  for (let i = 0; i < n; i++) {
    await Deno.writeTextFile(copyFiles[(i * 7919) % copyFiles.length], `\n/* changed ${n} */\n`, {
      append: true,
    });
  }
  await new Promise((r) => setTimeout(r, 2500));
  const r = await reindexSession();
  reindex.push({ n, ms: r.spawnToWritten, note: r.note, write: r.write });
}
await Deno.remove(copy, { recursive: true });

console.log(
  `index cache bench on ${CORPUS}; deno ${Deno.version.deno}, ${navigator.hardwareConcurrency} cores, ` +
    `load average at start ${LOAD}, at end ${loadAverage()}; ${ROUNDS} rounds; server ${serverLabel()}\n`,
);
for (const line of report) console.log(line);
console.log(
  `- stat pass (new sessions): ${statPass.slice(0, 3).join("; ")}`,
);
console.log(
  `- ping during the stat pass: ${pings.length} pings, median ${median(pings).toFixed(1)} ms, p99 ${
    pings[Math.min(pings.length - 1, Math.floor(pings.length * 0.99))]?.toFixed(1)
  } ms, ` +
    `max ${pings.at(-1)?.toFixed(1)} ms (target p99 < 20 ms)`,
);
console.log(
  `- peak RSS of the second-start sessions: ${peakRss.toFixed(0)} MiB (target <= 250 MiB)`,
);
console.log(
  `- re-index after N changed files (copy of fs/, ${copyFiles.length} files), spawn to delta on ` +
    `disk: ${
      reindex.map((r) => `N=${r.n}: ${(r.ms / 1000).toFixed(1)} s (${r.note})`).join("; ")
    }\n`,
);
console.log(
  `| query (first call of a new session) | ours (ms) | rg (ms) | ours/rg | target | | ours ${PAUSE_MS} ms after initialize (ms) | /rg | csearch -l (ms) | csearch/rg | how | CHECK |`,
);
console.log("|---|---:|---:|---:|---|---|---:|---:|---:|---:|---|---|");
for (const r of rows) {
  const ratios = r.ours.map((o, i) => o / r.rg[i]);
  const ratio = median(ratios);
  const csRatio = median(r.cs.map((c, i) => c / r.rg[i]));
  console.log(
    `| ${r.query.label} | ${median(r.ours).toFixed(0)} | ${median(r.rg).toFixed(0)} | ${
      ratio.toFixed(2)
    }x | <= ${r.query.target.toFixed(2)}x | ${ratio <= r.query.target ? "met" : "**missed**"} | ${
      median(r.paused).toFixed(0)
    } | ${median(r.paused.map((o, i) => o / r.rg[i])).toFixed(2)}x | ${median(r.cs).toFixed(0)} | ${
      csRatio.toFixed(2)
    }x | ${r.how} | ${r.check} |`,
  );
}
console.log(
  `\nOne new session, each query's first call in turn: ${
    session.map((s) => `${s.label} ${s.ms.toFixed(0)} ms`).join(", ")
  }`,
);
if (rows.some((r) => r.check.startsWith("FAIL"))) Deno.exitCode = 1;
