// deno-lint-ignore-file no-console
/**
 * Trigram index benchmark on the kernel tree (warm cache). One server with the index (default
 * flags plus --log-level debug, whose stderr says when the index is ready and whether each grep
 * used it) and one with --no-index.
 *
 * 1. Time until the index is in use: from spawn; the kernel is a large tree, so the build starts
 *    with the first grep. Pings are sent every 50 ms meanwhile: their round trips are reported.
 * 2. Queries, interleaved with `rg -c --hidden -L --no-unicode` (rounds of rg then ours, back to
 *    back), count mode (files and counts checked against rg, minus secret files) and two content
 *    mode queries (total matching lines checked against rg).
 * 3. The same queries on the --no-index server (today's full scan), and peak RSS (VmHWM) of both.
 *
 *   BENCH_CORPUS=../corpora/linux-source-6.1 deno run --allow-read --allow-run --allow-env \
 *     bench/index.ts [--rounds 3] [--build-only]
 */
import { cpuSeconds, loadAverage, Peer, procStatusKiB } from "./client.ts";
import { againstRg, type GrepCounts, grepCounts, rgCounts } from "./grep_counts.ts";
import {
  CORPUS,
  median,
  oursCommand,
  requireCorpusAndServer,
  serverLabel,
  timed,
} from "./servers.ts";
import { numFlag } from "./flags.ts";

const ROUNDS = numFlag("--rounds", 3);
/** --build-only: measure the build (time, CPU, pings, RSS) and stop. */
const BUILD_ONLY = Deno.args.includes("--build-only");

interface Query {
  label: string;
  args: Record<string, unknown>;
  rg: string[];
  /** Target: ours/rg at most this (null: the no-index scan is the reference). */
  target: number | null;
}

const RG = ["-c", "--hidden", "-L", "--no-unicode"];

function q(pattern: string, target: number | null, extra: Record<string, unknown> = {}): Query {
  const insensitive = extra["-i"] === true;
  const content = extra.output_mode === "content";
  return {
    label: `${content ? "content " : ""}${insensitive ? "-i " : ""}\`${pattern}\``,
    args: { pattern, output_mode: "count", ...extra },
    rg: [...RG, ...(insensitive ? ["-i"] : []), "-e", pattern],
    target,
  };
}

const QUERIES: Query[] = [
  q("PM_RESUME", 0.2),
  q("[A-Z]+_RESUME", 0.2),
  q("schedule_timeout", 0.2),
  q("task_struct", 0.2),
  q("PM_RESUME", 1 / 3, { "-i": true }),
  q("ext4_fill_super", 0.2),
  q("copy_page_from_iter\\(", 0.2, { output_mode: "content" }),
  q("struct task_struct \\{", 0.2, { output_mode: "content" }),
  q("static int", null),
  q("\\w{5}\\s+\\w{5}\\s+\\w{5}\\s+\\w{5}\\s+\\w{5}", null),
];

requireCorpusAndServer();
const LOAD = loadAverage();

let readyAt = 0;
let readyNote = "";
const grepNotes: string[] = [];
const spawnedAt = performance.now();
const ours = new Peer("ours", oursCommand(CORPUS, ["--log-level", "debug"]), {
  stderr: "piped",
  onStderrLine: (line) => {
    if (line.includes("debug: index ready") && readyAt === 0) {
      readyAt = performance.now();
      readyNote = line.replace(/^.*debug: /, "");
    }
    if (line.includes("debug: grep /")) grepNotes.push(line.replace(/^.*debug: /, ""));
  },
});
await ours.handshake();

/** A query's grep on `peer` (count or content mode, no head limit), timed. */
function call(peer: Peer, query: Query): Promise<GrepCounts> {
  return grepCounts(peer, query.args);
}

// 1. The build, with pings (and, as the machine's baseline, pings for 5 s before the first grep).
let pings: number[] = [];
let pinging = true;
const pingLoop = (async () => {
  while (pinging) {
    const t0 = performance.now();
    await ours.requestLine("ping", {});
    pings.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 50));
  }
})();
await new Promise((r) => setTimeout(r, 5000));
const idlePings = pings;
pings = [];
const firstGrep = await call(ours, QUERIES[0]);
const firstGrepEnd = performance.now();
const cpuAtBuildStart = cpuSeconds(ours.pid);
while (readyAt === 0 && performance.now() - spawnedAt < 600_000) {
  await new Promise((r) => setTimeout(r, 100));
}
const buildCpu = cpuSeconds(ours.pid) - cpuAtBuildStart;
pinging = false;
await pingLoop;
const rssAfterBuild = ours.peakRssKiB() / 1024;
const rssNowAfterBuild = procStatusKiB(ours.pid, "VmRSS") / 1024;
console.error(
  `index bench: ready after ${((readyAt - spawnedAt) / 1000).toFixed(1)} s; ${readyNote}; ` +
    `build ${buildCpu.toFixed(1)} s of CPU (whole process, all threads, pings included), ` +
    `load average now ${loadAverage()}`,
);
if (BUILD_ONLY) {
  const sorted = [...pings].sort((a, b) => a - b);
  console.error(
    `index bench: pings ${sorted.length}, median ${sorted[sorted.length >> 1]?.toFixed(1)} ms, ` +
      `max ${sorted.at(-1)?.toFixed(1)} ms; RSS ${
        (procStatusKiB(ours.pid, "VmRSS") / 1024).toFixed(0)
      } MiB, peak ${(ours.peakRssKiB() / 1024).toFixed(0)} MiB`,
  );
  await ours.close();
  Deno.exit(0);
}

// 2. Queries against rg.
interface Row {
  query: Query;
  oursMs: number;
  rgMs: number;
  ratio: number;
  check: string;
  ok: boolean;
  how: string;
}
const rows: Row[] = [];
for (const query of QUERIES) {
  const rgCmd = ["rg", ...query.rg];
  let rg = await timed(rgCmd, CORPUS);
  let first = await call(ours, query);
  const how = grepNotes.at(-1) ?? "";
  const oursMs: number[] = [];
  const rgMs: number[] = [];
  const ratios: number[] = [];
  for (let i = 0; i < ROUNDS && first.error === undefined; i++) {
    rg = await timed(rgCmd, CORPUS);
    const r = await call(ours, query);
    rgMs.push(rg.ms);
    oursMs.push(r.ms);
    ratios.push(r.ms / rg.ms);
    if (r.error !== undefined) first = r;
  }
  const verdict = againstRg(first, rgCounts(CORPUS, rg.stdout));
  let check: string;
  let ok = first.error === undefined;
  if (!ok) check = `not checked: ${first.error!.slice(0, 200)}`;
  else if (first.counts !== undefined) {
    const bad = verdict.differ;
    ok = verdict.ok;
    check = ok
      ? `PASS ${first.counts.size} files, ${first.matches} lines = rg`
      : `FAIL ${bad.length} paths differ [${bad.slice(0, 5).join(", ")}]`;
  } else {
    ok = verdict.ok;
    check = ok
      ? `PASS ${first.files} files, ${first.matches} lines = rg`
      : `FAIL ours ${first.files} files ${first.matches} lines, rg ${verdict.rgFiles} files ${verdict.rgLines} lines`;
  }
  rows.push({
    query,
    oursMs: median(oursMs),
    rgMs: median(rgMs),
    ratio: median(ratios),
    check,
    ok,
    how: how.replace(/^grep \/.*?\/\w*: /, ""),
  });
  console.error(`index bench: ${query.label} done`);
}
const rssIndexed = ours.peakRssKiB() / 1024;
await ours.close();

// 3. The same queries without the index.
const plain = new Peer("no-index", oursCommand(CORPUS, ["--no-index"]));
await plain.handshake();
const plainMs = new Map<Query, number>();
for (const query of QUERIES) {
  await call(plain, query);
  const times: number[] = [];
  for (let i = 0; i < Math.min(ROUNDS, 2); i++) times.push((await call(plain, query)).ms);
  plainMs.set(query, median(times));
}
const rssPlain = plain.peakRssKiB() / 1024;
await plain.close();

// 4. A smaller tree (default: the kernel's arch/, ~17k files, 144 MB): peak RSS with and without
// the index after the same greps (one with a trigram, one without).
const SMALL = Deno.env.get("BENCH_SMALL") ?? `${CORPUS}/arch`;
async function smallRun(extra: string[]): Promise<{ hwm: number; ms: number }> {
  let ready = extra.length > 0;
  const peer = new Peer("small", oursCommand(SMALL, ["--log-level", "debug", ...extra]), {
    stderr: "piped",
    onStderrLine: (line) => {
      if (line.includes("debug: index ready")) ready = true;
    },
  });
  await peer.handshake();
  const t0 = performance.now();
  while (!ready && performance.now() - t0 < 300_000) await new Promise((r) => setTimeout(r, 100));
  const ms = performance.now() - t0;
  for (const query of [QUERIES[0], QUERIES[3], QUERIES[9]]) await call(peer, query);
  const hwm = peer.peakRssKiB() / 1024;
  await peer.close();
  return { hwm, ms };
}
const smallIndexed = await smallRun([]);
const smallPlain = await smallRun(["--no-index"]);

const sortedPings = [...pings].sort((a, b) => a - b);
const pct = (p: number) =>
  sortedPings[Math.min(sortedPings.length - 1, Math.floor(p * sortedPings.length))];
console.log(
  `index bench on ${CORPUS}, warm cache, median of ${ROUNDS} paired rounds (rg, ours) after one ` +
    `warm-up each; deno ${Deno.version.deno}, ${navigator.hardwareConcurrency} cores, load average ` +
    `at start ${LOAD}; server ${serverLabel()}\n`,
);
console.log(
  `- index in use ${((readyAt - spawnedAt) / 1000).toFixed(1)} s after spawn, ${
    buildCpu.toFixed(1)
  } s of CPU for the build (build started by ` +
    `the first grep, which took ${(firstGrep.ms / 1000).toFixed(1)} s as a full scan and ended ` +
    `${((firstGrepEnd - spawnedAt) / 1000).toFixed(1)} s after spawn); ${readyNote}`,
);
const sortedIdle = [...idlePings].sort((a, b) => a - b);
const idlePct = (p: number) =>
  sortedIdle[Math.min(sortedIdle.length - 1, Math.floor(p * sortedIdle.length))];
console.log(
  `- ping during the build: ${pings.length} pings, median ${pct(0.5).toFixed(1)} ms, p99 ${
    pct(0.99).toFixed(1)
  } ms, max ${sortedPings.at(-1)?.toFixed(1)} ms (target < 20 ms); the machine's baseline, ` +
    `${idlePings.length} pings in the 5 s before the first grep: median ${
      idlePct(0.5).toFixed(1)
    } ms, p99 ${idlePct(0.99).toFixed(1)} ms, max ${sortedIdle.at(-1)?.toFixed(1)} ms`,
);
console.log(
  `- peak RSS (VmHWM): with the index ${rssIndexed.toFixed(0)} MiB (${
    rssAfterBuild.toFixed(0)
  } MiB once built, RSS then ${rssNowAfterBuild.toFixed(0)} MiB), --no-index ${
    rssPlain.toFixed(0)
  } MiB (target <= 350 MiB)`,
);
console.log(
  `- ${SMALL}: peak RSS with the index ${smallIndexed.hwm.toFixed(0)} MiB (ready ${
    (smallIndexed.ms / 1000).toFixed(1)
  } s after the handshake), --no-index ${smallPlain.hwm.toFixed(0)} MiB: +${
    (smallIndexed.hwm - smallPlain.hwm).toFixed(0)
  } MiB (target <= +30 MiB on a 10k-file repository)\n`,
);
console.log("| query | ours (ms) | rg (ms) | ours/rg | target | | no-index (ms) | how | CHECK |");
console.log("|---|---:|---:|---:|---|---|---:|---|---|");
for (const r of rows) {
  const target = r.query.target;
  const plainTime = plainMs.get(r.query)!;
  const met = target === null
    ? (r.oursMs <= plainTime * 1.15 ? "met (no slower than no-index)" : "**missed**")
    : r.ratio <= target
    ? "met"
    : "**missed**";
  console.log(
    `| ${r.query.label.replaceAll("|", "\\|")} | ${r.oursMs.toFixed(0)} | ${r.rgMs.toFixed(0)} | ${
      r.ratio.toFixed(2)
    }x | ${target === null ? "<= no-index" : `<= ${target.toFixed(2)}x`} | ${met} | ${
      plainTime.toFixed(0)
    } | ${r.how} | ${r.check} |`,
  );
}
if (rows.some((r) => !r.ok)) Deno.exitCode = 1;
