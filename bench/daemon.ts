// deno-lint-ignore-file no-console
/**
 * The shared daemon against ripgrep and against one process (docs/BENCHMARKS.md, "The shared
 * daemon"), all in one run, rounds interleaved so that the machine's load hits every side alike:
 *
 * - initialize: spawn to the initialize answer, `--daemon` (a relay) against `--no-daemon`;
 * - the first session ever on the tree (an empty index cache), its first grep (sent right after
 *   the handshake) against `rg -c --hidden -L --no-unicode`, with `--no-daemon` and with
 *   `--daemon` (the daemon's start included), plus `--no-index` (a full scan alone);
 * - a new session while a daemon runs (another session holds it, its index built): its first grep
 *   against rg;
 * - ping round trips through a relay against `--no-daemon`.
 *
 *   BENCH_CORPUS=/path/to/fastapi deno run --allow-read --allow-write --allow-run --allow-env \
 *     bench/daemon.ts [rounds]
 *
 * Every daemon it starts has its own socket folder (an XDG_RUNTIME_DIR in a temp folder) and
 * `--daemon-idle-s 0`; the ones still running at the end are killed.
 */

import { Peer } from "./client.ts";
import { CORPUS, oursCommand, serverLabel } from "./servers.ts";
import { loadAverage } from "./client.ts";
import { killDaemons } from "./daemons.ts";

const ROUNDS = Number(Deno.args[0] ?? 7);
const QUERIES = ["HTTPException", "def get_openapi", "response_model_exclude_unset", "Depends\\("];

const top = await Deno.makeTempDir({ prefix: "shipcode-bench-daemon-" });

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function rg(pattern: string): Promise<number> {
  const t0 = performance.now();
  const out = await new Deno.Command("rg", {
    args: ["-c", "--hidden", "-L", "--no-unicode", "-e", pattern, "."],
    cwd: CORPUS,
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).output();
  const ms = performance.now() - t0;
  if (out.stdout.length === 0) throw new Error(`rg found nothing for ${pattern}`);
  return ms;
}

let runtimes = 0;
/** A fresh socket folder parent (XDG_RUNTIME_DIR), mode 0700. */
async function freshRuntime(): Promise<string> {
  const dir = `${top}/run${runtimes++}`;
  await Deno.mkdir(dir, { mode: 0o700 });
  await Deno.chmod(dir, 0o700);
  return dir;
}

let caches = 0;
async function freshCache(): Promise<string> {
  const dir = `${top}/cache${caches++}`;
  await Deno.mkdir(dir);
  return dir;
}

function spawn(extra: string[], runtime: string): Peer {
  Deno.env.set("XDG_RUNTIME_DIR", runtime);
  return new Peer("ours", oursCommand(CORPUS, extra));
}

interface First {
  initMs: number;
  grepMs: number;
  /** The same grep again in the same session (the session's own start no longer in it). */
  secondMs: number;
}

/** Spawns a session, times spawn -> initialize answer, then its first grep (count mode). */
async function firstGrep(extra: string[], runtime: string, pattern: string): Promise<First> {
  const t0 = performance.now();
  const peer = spawn(extra, runtime);
  await peer.handshake();
  const initMs = performance.now() - t0;
  const t1 = performance.now();
  const answer = await peer.request("tools/call", {
    name: "grep",
    arguments: { pattern, output_mode: "count", head_limit: 0 },
  }, { timeoutMs: 120_000 });
  const grepMs = performance.now() - t1;
  if (answer.result === undefined) throw new Error(JSON.stringify(answer));
  const t2 = performance.now();
  await peer.request("tools/call", {
    name: "grep",
    arguments: { pattern, output_mode: "count", head_limit: 0 },
  }, { timeoutMs: 120_000 });
  const secondMs = performance.now() - t2;
  await peer.close();
  return { initMs, grepMs, secondMs };
}

async function pings(peer: Peer, count: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    await peer.request("ping");
    times.push(performance.now() - t0);
  }
  return median(times);
}

console.log(`# shared daemon bench: ${serverLabel()}`);
console.log(`# corpus ${CORPUS}, ${ROUNDS} rounds, load ${loadAverage()}`);

const initNo: number[] = [], initRelay: number[] = [];
const warmFirst: number[] = [], warmSecond: number[] = [];
const rows = new Map<string, { ours: number[]; rg: number[] }>();
const add = (name: string, ours: number, rgMs: number) => {
  const row = rows.get(name) ?? { ours: [], rg: [] };
  row.ours.push(ours);
  row.rg.push(rgMs);
  rows.set(name, row);
};

try {
  // Warm the OS cache and Deno's module cache once.
  await rg(QUERIES[0]);
  await firstGrep(["--no-daemon", "--no-cache"], await freshRuntime(), QUERIES[0]);

  // A session that holds a daemon (with its index built) for the "daemon running" rounds.
  const heldCache = await freshCache();
  const heldRuntime = await freshRuntime();
  const holder = spawn(["--daemon", "--cache-dir", heldCache, "--daemon-idle-s", "0"], heldRuntime);
  await holder.handshake();
  await holder.request("tools/call", { name: "grep", arguments: { pattern: "x" } });
  // The index builds in the daemon; a few seconds cover 3,000 files.
  await new Promise((resolve) => setTimeout(resolve, 8_000));

  for (let round = 0; round < ROUNDS; round++) {
    const pattern = QUERIES[round % QUERIES.length];
    const r1 = await rg(pattern);
    const no = await firstGrep(
      ["--no-daemon", "--cache-dir", await freshCache()],
      await freshRuntime(),
      pattern,
    );
    add("first session ever, --no-daemon", no.grepMs, r1);
    initNo.push(no.initMs);
    const r2 = await rg(pattern);
    const viaDaemon = await firstGrep(
      ["--daemon", "--daemon-idle-s", "0", "--cache-dir", await freshCache()],
      await freshRuntime(),
      pattern,
    );
    add("first session ever, --daemon (its start included)", viaDaemon.grepMs, r2);
    initRelay.push(viaDaemon.initMs);
    const r3 = await rg(pattern);
    const scan = await firstGrep(["--no-daemon", "--no-index"], await freshRuntime(), pattern);
    add("first session, --no-index (full scan only)", scan.grepMs, r3);
    const r4 = await rg(pattern);
    const warm = await firstGrep(
      ["--daemon", "--cache-dir", heldCache, "--daemon-idle-s", "0"],
      heldRuntime,
      pattern,
    );
    add("new session, daemon running (index built)", warm.grepMs, r4);
    warmFirst.push(warm.grepMs);
    warmSecond.push(warm.secondMs);
    initRelay.push(warm.initMs);
  }

  const pingRelay = await pings(holder, 300);
  const single = spawn(["--no-daemon", "--no-cache"], await freshRuntime());
  await single.handshake();
  const pingNo = await pings(single, 300);
  await single.close();
  await holder.close();

  console.log(
    "\n| first grep (count mode) | ours median ms | rg median ms | median ratio ours/rg |",
  );
  console.log("| --- | --- | --- | --- |");
  for (const [name, row] of rows) {
    const ratios = row.ours.map((ms, i) => ms / row.rg[i]);
    console.log(
      `| ${name} | ${median(row.ours).toFixed(1)} | ${median(row.rg).toFixed(1)} | ${
        median(ratios).toFixed(2)
      }x |`,
    );
  }
  console.log(
    `\ninitialize (spawn -> answer), median: --no-daemon ${median(initNo).toFixed(1)} ms, ` +
      `--daemon relay ${median(initRelay).toFixed(1)} ms (${
        (median(initRelay) / median(initNo)).toFixed(2)
      }x)`,
  );
  console.log(
    `new session with a daemon running: first grep median ${median(warmFirst).toFixed(1)} ms, ` +
      `the same grep again ${median(warmSecond).toFixed(1)} ms (the session's start: ${
        (median(warmFirst) - median(warmSecond)).toFixed(1)
      } ms)`,
  );
  console.log(
    `ping round trip, median of 300: --no-daemon ${pingNo.toFixed(3)} ms, through a relay ${
      pingRelay.toFixed(3)
    } ms`,
  );
} finally {
  killDaemons(`--root ${CORPUS} `, top);
  await Deno.remove(top, { recursive: true }).catch(() => {});
}
