// deno-lint-ignore-file no-console
/**
 * Symbol tools benchmark (docs/BENCHMARKS.md "Symbols"), on the kernel tree (bench/corpus.sh):
 * - outline of kernel/fork.c (86 KB): p50/p90 of warm calls, client round trip;
 * - find_symbol cold (a fresh server per call) against our own whole-word grep for the same
 *   name, also on a fresh server (tools/call grep `\bNAME\b`, files_with_matches, head_limit 0),
 *   rounds interleaved; the ratio is the median of the per-round ratios;
 * - find_symbol once the trigram index is in use (one server, a grep starts the build, the
 *   names asked after "index ready"), against `rg -lw NAME` (ripgrep's own whole-word scan);
 * - peak RSS (VmHWM) of the find_symbol servers;
 * - agreement with universal-ctags at any depth, by kind, and the outline's top level
 *   (bench/symbols_ctags.ts, the same symbol service in-process) on a fixed kernel sample and,
 *   when they exist, denoland/std (`--std DIR`) and psf/requests (`--requests DIR`).
 *
 *   BENCH_CORPUS=/path/to/linux-source-6.1 \
 *     deno run --allow-read --allow-run --allow-env --unstable-worker-options bench/symbols.ts [--rounds 3] [--warm 30] \
 *     [--names a,b] [--std ../corpora/denoland+std] [--requests ../corpora/psf+requests] \
 *     [--skip cold,index,ctags]
 */
import { loadAverage, parseLine, Peer } from "./client.ts";
import { CORPUS, median, oursCommand, requireCorpusAndServer, serverLabel } from "./servers.ts";
import { type Agreement, agreementRows, compareWithCtags, sampleFiles } from "./symbols_ctags.ts";
import { flagValue, numFlag } from "./flags.ts";

const ROUNDS = numFlag("--rounds", 3);
const WARM = numFlag("--warm", 30);
const SKIP = new Set((flagValue("--skip") ?? "").split(",").filter((s) => s !== ""));

/** Names of several kinds and frequencies. */
const ALL_NAMES = [
  { name: "schedule_timeout_interruptible", note: "function" },
  { name: "kmem_cache_create", note: "function" },
  { name: "task_struct", note: "struct" },
  { name: "kmalloc", note: "function, behind attribute macros" },
];
const ASKED = flagValue("--names")?.split(",");
const NAMES = ASKED === undefined
  ? ALL_NAMES
  : ASKED.map((name) => ALL_NAMES.find((n) => n.name === name) ?? { name, note: "" });

const OUTLINE_FILE = "kernel/fork.c";

/** The fixed kernel sample for ctags: every 10th C file (sorted) of these folders. */
const KERNEL_SAMPLE_DIRS = ["kernel", "mm", "fs/ext4", "net/core", "drivers/net/ethernet/intel"];

requireCorpusAndServer();
const LOAD = loadAverage();

interface Call {
  ms: number;
  structured: Record<string, unknown>;
  error?: string;
}

async function call(peer: Peer, name: string, args: Record<string, unknown>): Promise<Call> {
  const t0 = performance.now();
  const a = await peer.requestLine("tools/call", { name, arguments: args }, {
    timeoutMs: 900_000,
  });
  const ms = performance.now() - t0;
  const msg = parseLine(a.line) as {
    result?: { isError?: boolean; content: { text?: string }[]; structuredContent?: never };
    error?: unknown;
  };
  if (!msg.result) return { ms, structured: {}, error: JSON.stringify(msg.error) };
  if (msg.result.isError) {
    return { ms, structured: {}, error: msg.result.content[0]?.text ?? "isError" };
  }
  return { ms, structured: msg.result.structuredContent ?? {} };
}

async function fresh(label: string): Promise<Peer> {
  const peer = new Peer(label, oursCommand(CORPUS), { stderr: "inherit" });
  await peer.handshake();
  return peer;
}

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
}

// 1. outline warm.
const outlinePeer = await fresh("outline");
const cold = await call(outlinePeer, "outline", { path: OUTLINE_FILE });
if (cold.error) throw new Error(`outline failed: ${cold.error}`);
const warm: number[] = [];
for (let i = 0; i < WARM; i++) {
  warm.push((await call(outlinePeer, "outline", { path: OUTLINE_FILE })).ms);
}
const outlineSymbols = cold.structured.total;
await outlinePeer.close();
console.error("symbols bench: outline done");

// 2. find_symbol cold vs whole-word grep cold, interleaved rounds.
interface NameRow {
  name: string;
  note: string;
  grepMs: number;
  findMs: number;
  ratio: number;
  definitions: string;
  candidates: number;
  hwm: number;
  grepHwm: number;
}
const nameRows: NameRow[] = [];
let peakRss = 0;
let grepPeakRss = 0;
for (const { name, note } of SKIP.has("cold") ? [] : NAMES) {
  const grepMs: number[] = [];
  const findMs: number[] = [];
  const ratios: number[] = [];
  let definitions = "";
  let candidates = 0;
  let hwm = 0;
  let grepHwm = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const g = await fresh("grep");
    const grep = await call(g, "grep", { pattern: `\\b${name}\\b`, head_limit: 0 });
    grepHwm = Math.max(grepHwm, g.peakRssKiB() / 1024);
    await g.close();
    if (grep.error) throw new Error(`grep failed: ${grep.error}`);
    candidates = (grep.structured.files as string[]).filter((p) =>
      /\.(c|h|cc|cpp|hpp|py|go|rs|java|rb|ts|tsx|js|jsx|mjs|cjs)$/.test(p)
    ).length;
    const f = await fresh("find_symbol");
    const found = await call(f, "find_symbol", { name, head_limit: 0 });
    hwm = Math.max(hwm, f.peakRssKiB() / 1024);
    await f.close();
    if (found.error) {
      throw new Error(`find_symbol failed: ${found.error}`);
    }
    // Entries are `path:line-end_line: kind name` strings.
    const symbols = found.structured.symbols as string[];
    definitions = `${symbols.length}: ${
      symbols.slice(0, 3).map((s) =>
        s.replace(/-\d+: (\S+) .*$/, " $1")
      ).join(", ")
    }${symbols.length > 3 ? ", ..." : ""}`;
    grepMs.push(grep.ms);
    findMs.push(found.ms);
    ratios.push(found.ms / grep.ms);
  }
  peakRss = Math.max(peakRss, hwm);
  grepPeakRss = Math.max(grepPeakRss, grepHwm);
  nameRows.push({
    name,
    note,
    grepMs: median(grepMs),
    findMs: median(findMs),
    ratio: median(ratios),
    definitions,
    candidates,
    hwm,
    grepHwm,
  });
  console.error(`symbols bench: find_symbol ${name} done`);
}

// 3. find_symbol with the index in use, against rg -lw.
interface IndexedRow {
  name: string;
  oursMs: number;
  rgMs: number;
  definitions: number;
}
const indexedRows: IndexedRow[] = [];
let indexedNote = "";
if (!SKIP.has("index")) {
  let ready = false;
  const peer = new Peer("indexed", oursCommand(CORPUS, ["--log-level", "debug"]), {
    stderr: "piped",
    onStderrLine: (line) => {
      if (line.includes("debug: index ready")) {
        ready = true;
        indexedNote = line.replace(/^.*debug: /, "");
      }
    },
  });
  await peer.handshake();
  await call(peer, "grep", { pattern: "index_bench_start_token", head_limit: 0 });
  const t0 = performance.now();
  while (!ready && performance.now() - t0 < 600_000) await new Promise((r) => setTimeout(r, 200));
  if (!ready) throw new Error("The index was not ready after 600 s");
  for (const { name } of NAMES) {
    const rgMs: number[] = [];
    const oursMs: number[] = [];
    let definitions = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const r0 = performance.now();
      new Deno.Command("rg", {
        args: ["-lw", "--hidden", "-L", "--no-unicode", name, "."],
        cwd: CORPUS,
        stdout: "null",
        stderr: "null",
      }).outputSync();
      rgMs.push(performance.now() - r0);
      // -i on later rounds: another name for the symbol cache, the same candidate files.
      const found = await call(peer, "find_symbol", { name, head_limit: 0, "-i": round > 0 });
      if (found.error) throw new Error(`find_symbol failed: ${found.error}`);
      oursMs.push(found.ms);
      if (round === 0) definitions = found.structured.total as number;
    }
    indexedRows.push({ name, oursMs: median(oursMs), rgMs: median(rgMs), definitions });
  }
  peakRss = Math.max(peakRss, peer.peakRssKiB() / 1024);
  await peer.close();
  console.error("symbols bench: indexed find_symbol done");
}

// 4. ctags agreement, at any depth.
const KERNEL_DIRS = [...KERNEL_SAMPLE_DIRS, "include/linux"];
const agreements: Array<{ label: string; files: number; agreement: Agreement }> = [];
if (!SKIP.has("ctags")) {
  const kernelFiles = sampleFiles(CORPUS, "c", { dirs: KERNEL_DIRS, every: 10 });
  agreements.push({
    label: "kernel C",
    files: kernelFiles.length,
    agreement: await compareWithCtags(CORPUS, kernelFiles),
  });
  for (
    const [flag, lang, label] of [["--std", "ts", "denoland/std TypeScript"], [
      "--requests",
      "py",
      "psf/requests Python",
    ]]
  ) {
    const root = flagValue(flag);
    if (root === undefined) continue;
    const files = sampleFiles(root, lang);
    agreements.push({ label, files: files.length, agreement: await compareWithCtags(root, files) });
  }
  console.error("symbols bench: ctags done");
}

// Report.
console.log(`Server: ${serverLabel()}; corpus ${CORPUS}; load average at start: ${LOAD}\n`);
console.log("| measure | ours | anchor | ratio | target | |");
console.log("|---|---:|---:|---:|---|---|");
const p50 = percentile(warm, 0.5);
console.log(
  `| outline ${OUTLINE_FILE} (86 KB, ${outlineSymbols} symbols), warm, p50 of ${WARM} (ms; p90 ${
    percentile(warm, 0.9).toFixed(1)
  }, cold ${cold.ms.toFixed(0)}) | ${p50.toFixed(1)} | | | <= 30 ms | ${
    p50 <= 30 ? "met" : "**missed**"
  } |`,
);
for (const r of nameRows) {
  console.log(
    `| find_symbol \`${r.name}\` cold (${r.note}; ${r.candidates} source files mention it; ` +
      `found ${r.definitions}) (ms, median of ${ROUNDS}) | ${r.findMs.toFixed(0)} | ` +
      `whole-word grep: ${r.grepMs.toFixed(0)} | ${r.ratio.toFixed(2)}x | <= 1.2x | ${
        r.ratio <= 1.2 ? "met" : "**missed**"
      } |`,
  );
}
for (const r of indexedRows) {
  const speedup = r.rgMs / r.oursMs;
  console.log(
    `| find_symbol \`${r.name}\`, index in use (${r.definitions} definitions) (ms, median of ${ROUNDS}) | ${
      r.oursMs.toFixed(0)
    } | rg -lw: ${r.rgMs.toFixed(0)} | ${speedup.toFixed(1)}x faster | >= 5x faster | ${
      speedup >= 5 ? "met" : "**missed**"
    } |`,
  );
}
console.log(
  `| peak RSS of the find_symbol servers (MiB, VmHWM) | ${peakRss.toFixed(0)} | grep servers: ${
    grepPeakRss.toFixed(0)
  } | | <= 400 MiB | ${peakRss <= 400 ? "met" : "**missed**"} |`,
);
if (indexedNote !== "") console.log(`\nindex: ${indexedNote}`);
for (const { label, files, agreement } of agreements) {
  console.log(`\nctags agreement, ${label} (${files} files):\n`);
  console.log("| sample | found | share | target | |\n|---|---:|---:|---|---|");
  for (const row of agreementRows(label, agreement)) console.log(row);
  console.log(`\n${label} misses (first 15 of ${agreement.misses.length}):`);
  for (const m of agreement.misses.slice(0, 15)) {
    console.log(`- ${m.path}:${m.line} ${m.kind} ${m.name}`);
  }
  console.log(`${label} top-level misses (first 10 of ${agreement.topMisses.length}):`);
  for (const m of agreement.topMisses.slice(0, 10)) {
    console.log(`- ${m.path}:${m.line} ${m.kind} ${m.name}`);
  }
}
