// deno-lint-ignore-file no-console
/**
 * What the first grep of a first session pays on a fastapi-size tree (docs/BENCHMARKS.md, "The
 * shared daemon on fastapi/fastapi"), against `rg -c --hidden -L --no-unicode` in the same round:
 * a fresh `--no-daemon --no-index` process (no index build beside it) answers the same grep three
 * times: the first pays the features' load, the workers' start and a cold JIT, the later ones only
 * the scan. The same with `--allow-all` in place of the start task's permissions shows what Deno's
 * per-file permission check costs the scan (the server never runs so; measured for the record).
 *
 *   BENCH_CORPUS=/path/to/fastapi deno run --allow-read --allow-write --allow-run --allow-env \
 *     bench/first_session.ts [rounds]
 */

import { Peer } from "./client.ts";
import { loadAverage } from "./client.ts";
import { CORPUS, oursCommand, serverLabel } from "./servers.ts";

const ROUNDS = Number(Deno.args[0] ?? 5);
const QUERIES = ["HTTPException", "def get_openapi", "response_model_exclude_unset", "Depends\\("];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function rg(pattern: string): Promise<number> {
  const t0 = performance.now();
  await new Deno.Command("rg", {
    args: ["-c", "--hidden", "-L", "--no-unicode", "-e", pattern, "."],
    cwd: CORPUS,
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).output();
  return performance.now() - t0;
}

/** The start task's command with every permission flag replaced by --allow-all. */
function allowAll(cmd: string[]): string[] {
  const kept = cmd.filter((w) => !/^--(allow|no-prompt)/.test(w));
  const run = kept.indexOf("run");
  return [...kept.slice(0, run + 1), "--allow-all", ...kept.slice(run + 1)];
}

async function session(cmd: string[], pattern: string): Promise<number[]> {
  const t0 = performance.now();
  const peer = new Peer("ours", cmd);
  await peer.handshake();
  const times = [performance.now() - t0];
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    const answer = await peer.request("tools/call", {
      name: "grep",
      arguments: { pattern, output_mode: "count", head_limit: 0 },
    }, { timeoutMs: 120_000 });
    if (answer.result === undefined) throw new Error(JSON.stringify(answer));
    times.push(performance.now() - t);
  }
  await peer.close();
  return times;
}

console.log(`# first-session costs: ${serverLabel()}`);
console.log(`# corpus ${CORPUS}, ${ROUNDS} rounds, load ${loadAverage()}`);
const base = oursCommand(CORPUS, ["--no-daemon", "--no-index", "--no-cache"]);
const sides = { "start flags": base, "--allow-all": allowAll(base) };
const rows = new Map<string, number[][]>();
const rgTimes: number[] = [];
await session(base, QUERIES[0]); // warm the OS and module caches
for (let round = 0; round < ROUNDS; round++) {
  const pattern = QUERIES[round % QUERIES.length];
  rgTimes.push(await rg(pattern));
  for (const [name, cmd] of Object.entries(sides)) {
    const times = await session(cmd, pattern);
    const row = rows.get(name) ?? [[], [], [], []];
    times.forEach((ms, i) => row[i].push(ms));
    rows.set(name, row);
  }
}
const rgMs = median(rgTimes);
console.log(`\nrg median ${rgMs.toFixed(1)} ms\n`);
console.log(
  "| permissions | spawn to initialize | 1st grep | 2nd grep | 3rd grep | 1st / rg | 3rd / rg |",
);
console.log("| --- | --- | --- | --- | --- | --- | --- |");
for (const [name, row] of rows) {
  const [init, g1, g2, g3] = row.map(median);
  console.log(
    `| ${name} | ${init.toFixed(1)} | ${g1.toFixed(1)} | ${g2.toFixed(1)} | ${g3.toFixed(1)} | ${
      (g1 / rgMs).toFixed(1)
    }x | ${(g3 / rgMs).toFixed(1)}x |`,
  );
}
