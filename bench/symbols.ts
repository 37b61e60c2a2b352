// deno-lint-ignore-file no-console
/**
 * Symbol tools benchmark (docs/BENCHMARKS.md "Symbols"), on the kernel tree (bench/corpus.sh):
 * - outline of kernel/fork.c (86 KB): p50/p90 of warm calls, client round trip;
 * - find_symbol cold (a fresh server per call) against our own whole-word grep for the same
 *   name, also on a fresh server (tools/call grep `\bNAME\b`, files_with_matches, head_limit 0),
 *   rounds interleaved; the ratio is the median of the per-round ratios;
 * - peak RSS (VmHWM) of the find_symbol servers;
 * - agreement with universal-ctags on a fixed sample of kernel C files and on this repository's
 *   TypeScript (bench/symbols_ctags.ts), parsed in-process by the same symbol service.
 *
 *   BENCH_CORPUS=/path/to/linux-source-6.1 \
 *     deno run --allow-read --allow-run --allow-env bench/symbols.ts [--rounds 3] [--warm 30]
 */
import { loadAverage, parseLine, Peer } from "./client.ts";
import {
  CORPUS,
  median,
  oursCommand,
  REPO,
  requireCorpusAndServer,
  serverLabel,
} from "./servers.ts";
import { compareWithCtags } from "./symbols_ctags.ts";
import { numFlag } from "./flags.ts";

const ROUNDS = numFlag("--rounds", 3);
const WARM = numFlag("--warm", 30);

/** Names of several kinds and frequencies; `files` is how many kernel files mention each. */
const NAMES = [
  { name: "schedule_timeout_interruptible", note: "function" },
  { name: "kmem_cache_create", note: "function" },
  { name: "task_struct", note: "struct" },
];

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
for (const { name, note } of NAMES) {
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

// 3. ctags agreement.
function sampleFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (
      const e of [...Deno.readDirSync(`${CORPUS}/${dir}`)].sort((a, b) => a.name < b.name ? -1 : 1)
    ) {
      const rel = `${dir}/${e.name}`;
      if (e.isDirectory) walk(rel);
      else if (e.isFile && /\.[ch]$/.test(e.name)) files.push(rel);
    }
  };
  for (const d of KERNEL_SAMPLE_DIRS) walk(d);
  return files.filter((_, i) => i % 10 === 0);
}
const kernelFiles = sampleFiles();
const kernel = await compareWithCtags(CORPUS, kernelFiles);
const tsFiles: string[] = [];
const walkTs = (dir: string) => {
  for (const e of Deno.readDirSync(`${REPO}/${dir}`)) {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory && e.name !== "testdata") walkTs(rel);
    else if (e.isFile && e.name.endsWith(".ts")) tsFiles.push(rel);
  }
};
for (const d of ["lib", "tests", "bench"]) walkTs(d);
tsFiles.sort();
const ts = await compareWithCtags(REPO, tsFiles);
console.error("symbols bench: ctags done");

// Report.
const pct = (a: { found: number; total: number }) => (100 * a.found / a.total).toFixed(1);
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
      `whole-word grep: ${r.grepMs.toFixed(0)} | ${r.ratio.toFixed(2)}x | <= 1.5x | ${
        r.ratio <= 1.5 ? "met" : "**missed**"
      } |`,
  );
}
console.log(
  `| peak RSS of the find_symbol servers (MiB, VmHWM) | ${peakRss.toFixed(0)} | grep servers: ${
    grepPeakRss.toFixed(0)
  } | | <= 400 MiB | ${peakRss <= 400 ? "met" : "**missed**"} |`,
);
console.log(
  `| ctags function/struct definitions found at the same line, kernel sample (${kernelFiles.length} files) | ${kernel.found}/${kernel.total} = ${
    pct(kernel)
  }% | | | >= 95% | ${kernel.found / kernel.total >= 0.95 ? "met" : "**missed**"} |`,
);
console.log(
  `| ctags function/class definitions found at the same line, this repository's TypeScript (${tsFiles.length} files) | ${ts.found}/${ts.total} = ${
    pct(ts)
  }% | | | >= 95% | ${ts.found / ts.total >= 0.95 ? "met" : "**missed**"} |`,
);
console.log("\nkernel misses (first 15):");
for (const m of kernel.misses.slice(0, 15)) {
  console.log(`- ${m.path}:${m.line} ${m.kind} ${m.name}`);
}
if (ts.misses.length > 0) {
  console.log("TypeScript misses (first 15):");
  for (const m of ts.misses.slice(0, 15)) console.log(`- ${m.path}:${m.line} ${m.kind} ${m.name}`);
}
