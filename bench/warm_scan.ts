// deno-lint-ignore-file no-console
/**
 * The warm full scan alone (docs/BENCHMARKS.md, "The first session's warm scan"): the search pool
 * of a checkout, in this process, answers a count-mode grep over the whole corpus (no index)
 * again and again, beside `rg -c --hidden -L --no-unicode` in the same round. No server, no
 * protocol: the walk, the reads, the decoding, the matching and the workers' messages. The
 * workers start as the server starts them (narrowed to reading when this process holds more), so
 * Deno's permission checks on every open are counted as in the server. CPU is the process's
 * (every thread), which moves less with the machine's load than the wall time.
 *
 *   BENCH_CORPUS=/path/to/fastapi deno run --allow-read --allow-write --allow-run --allow-env \
 *     --unstable-worker-options bench/warm_scan.ts [rounds] [pattern]
 *
 * BENCH_SERVER_DIR picks the checkout whose lib/search is measured (bench/servers.ts).
 */
import process from "node:process";
import { loadAverage } from "./client.ts";
import { CORPUS, SERVER_DIR, serverLabel } from "./servers.ts";

const ROUNDS = Number(Deno.args[0] ?? 15);
const PATTERN = Deno.args[1] ?? "HTTPException";

const { SearchPool } = await import(`${SERVER_DIR}/lib/search/pool.ts`);
const { WorkQueue } = await import(`${SERVER_DIR}/lib/work_queue.ts`);
const { runGrep } = await import(`${SERVER_DIR}/lib/search/grep_job.ts`);
const { translatePattern } = await import(`${SERVER_DIR}/lib/search/pattern.ts`);

function cpuMs(): number {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function rg(): Promise<number> {
  const t0 = performance.now();
  await new Deno.Command("rg", {
    args: ["-c", "--hidden", "-L", "--no-unicode", "-e", PATTERN, "."],
    cwd: CORPUS,
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).output();
  return performance.now() - t0;
}

const spec = translatePattern(PATTERN, { ignoreCase: false, fixedStrings: false, multiline: false })
  .spec;
const pool = new SearchPool(new WorkQueue(2));
const ws = { root: Deno.realPathSync(CORPUS), noIgnore: false, allowSecrets: false };

/** One count grep over the whole corpus: its wall and CPU milliseconds, and the files found. */
async function grep(): Promise<{ wall: number; cpu: number; files: number }> {
  const t0 = performance.now();
  const c0 = cpuMs();
  const outcome = await runGrep(pool, {
    ws,
    base: "",
    single: false,
    globs: [],
    typeGlobs: [],
    spec,
    mode: "count",
    content: { before: 0, after: 0, lineNumbers: true },
    collectLines: Infinity,
    collectChars: Infinity,
    offset: 0,
  }, { signal: new AbortController().signal, progress: () => {}, timeoutMs: 10_000 });
  return { wall: performance.now() - t0, cpu: cpuMs() - c0, files: outcome.results.length };
}

console.log(`# warm full scan: ${serverLabel()}`);
console.log(`# corpus ${CORPUS}, pattern ${PATTERN}, ${ROUNDS} rounds, load ${loadAverage()}`);
const first = await grep(); // starts the workers and warms the JIT: not counted
const walls: number[] = [];
const cpus: number[] = [];
const rgs: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  rgs.push(await rg());
  const { wall, cpu } = await grep();
  walls.push(wall);
  cpus.push(cpu);
}
pool.stop();
const ratio = median(walls) / median(rgs);
console.log(`files with matches: ${first.files}; load at the end ${loadAverage()}`);
console.log("| scan wall median | scan wall min | scan CPU median | rg median | wall / rg |");
console.log("| --- | --- | --- | --- | --- |");
console.log(
  `| ${median(walls).toFixed(1)} ms | ${Math.min(...walls).toFixed(1)} ms | ${
    median(cpus).toFixed(1)
  } ms | ${median(rgs).toFixed(1)} ms | ${ratio.toFixed(1)}x |`,
);
