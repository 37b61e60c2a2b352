// deno-lint-ignore-file no-console
/**
 * Before and after for the shared daemon (docs/BENCHMARKS.md, "The shared daemon"): a new
 * session's first count grep while a daemon runs, for two or more checkouts of the server side
 * by side, each query's rounds interleaved with `rg -c --hidden -L --no-unicode` and the
 * checkouts taken in turn (the order reversed every other round), so that the machine's load
 * hits every side alike. Each checkout has its own daemon (the build is part of the key), held
 * by one session of its own over one index cache folder that all of them read.
 *
 *   BENCH_CORPUS=/path/to/tree BENCH_SERVER_DIRS=/tmp/before,/tmp/after \
 *     deno run --allow-read --allow-write --allow-run --allow-env bench/daemon_ab.ts [rounds] [query...]
 *
 * A checkout is an export of a commit (`git archive COMMIT | tar -x -C DIR`); without
 * BENCH_SERVER_DIRS, this checkout alone. The index is built first into the bench's cache folder
 * (a `--no-daemon` session waiting for its base shard on disk; on the kernel about a minute and a
 * half), or taken from BENCH_CACHE_DIR when given. The daemons run with `--daemon-idle-s 0` in
 * the bench's own socket folder and are killed at the end.
 */

import { loadAverage, Peer } from "./client.ts";
import { CORPUS, oursCommand, SERVER_DIR } from "./servers.ts";
import { killDaemons } from "./daemons.ts";
import { grepCounts } from "./grep_counts.ts";

const ROUNDS = Number(Deno.args[0] ?? 3);
const QUERIES = Deno.args.length > 1
  ? Deno.args.slice(1)
  : CORPUS.includes("linux")
  ? ["PM_RESUME", "ext4_fill_super", "schedule_timeout", "copy_page_from_iter\\("]
  : ["HTTPException", "def get_openapi", "response_model_exclude_unset", "Depends\\("];
const DIRS = (Deno.env.get("BENCH_SERVER_DIRS") ?? SERVER_DIR).split(",").filter((d) => d);
const name = (dir: string) => dir.slice(dir.lastIndexOf("/") + 1);

const top = await Deno.makeTempDir({ prefix: "shipcode-bench-daemon-ab-" });
const cache = Deno.env.get("BENCH_CACHE_DIR") ?? `${top}/cache`;
await Deno.mkdir(cache, { recursive: true });
await Deno.mkdir(`${top}/run`, { mode: 0o700 });
await Deno.chmod(`${top}/run`, 0o700);
await Deno.mkdir(`${top}/bin`);
// The launch line's --allow-run=deno is resolved on PATH: its first deno is this executable.
await Deno.symlink(Deno.execPath(), `${top}/bin/deno`);
Deno.env.set("PATH", `${top}/bin:${Deno.env.get("PATH") ?? ""}`);
Deno.env.set("XDG_RUNTIME_DIR", `${top}/run`);
const RELAY = ["--daemon", "--cache-dir", cache, "--daemon-idle-s", "0"];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function rg(pattern: string): Promise<number> {
  const t0 = performance.now();
  const out = await new Deno.Command("rg", {
    args: ["-c", "--hidden", "-L", "--no-unicode", "-e", pattern, CORPUS],
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).output();
  const ms = performance.now() - t0;
  if (out.stdout.length === 0) throw new Error(`rg found nothing for ${pattern}`);
  return ms;
}

/** A count-mode grep, timed from the request to the answer, with its total of matching lines. */
async function grep(peer: Peer, pattern: string): Promise<{ ms: number; total: number }> {
  const answer = await grepCounts(peer, { pattern, output_mode: "count" });
  if (answer.error !== undefined) throw new Error(answer.error.slice(0, 300));
  return { ms: answer.ms, total: answer.matches };
}

console.log(`# a new session's first grep, daemon running: ${DIRS.join(" vs ")}`);
console.log(`# corpus ${CORPUS}, ${ROUNDS} rounds, load ${loadAverage()}`);
const holders: Peer[] = [];
try {
  if (Deno.env.get("BENCH_CACHE_DIR") === undefined) {
    let written = false;
    const builder = new Peer(
      "build",
      oursCommand(CORPUS, ["--no-daemon", "--cache-dir", cache, "--log-level", "debug"], DIRS[0]),
      {
        stderr: "piped",
        onStderrLine: (line) => {
          if (line.includes("debug: index written: base")) written = true;
        },
      },
    );
    await builder.handshake();
    await grep(builder, QUERIES[0]);
    const until = Date.now() + 600_000;
    while (!written && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
    await builder.close();
    if (!written) throw new Error("the index was not written within 10 minutes");
  }
  for (const dir of DIRS) {
    const holder = new Peer("holder", oursCommand(CORPUS, RELAY, dir));
    await holder.handshake();
    // Until its index answers (a selective grep well under a full scan's time).
    for (let i = 0; i < 30 && (await grep(holder, QUERIES[0])).ms > 300; i++) {
      await new Promise((r) => setTimeout(r, 1000));
    }
    holders.push(holder);
  }
  const ours = QUERIES.map(() => DIRS.map(() => [] as number[]));
  const theirs = QUERIES.map(() => [] as number[]);
  console.log(
    `\n| query | round | rg ms | ${DIRS.map((d) => `${name(d)} ms (total)`).join(" | ")} |`,
  );
  console.log(`| --- | --- | --- | ${DIRS.map(() => "---").join(" | ")} |`);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [q, pattern] of QUERIES.entries()) {
      const r = await rg(pattern);
      theirs[q].push(r);
      const cells: string[] = DIRS.map(() => "");
      const order = DIRS.map((_, k) => round % 2 === 0 ? k : DIRS.length - 1 - k);
      for (const k of order) {
        const peer = new Peer("session", oursCommand(CORPUS, RELAY, DIRS[k]));
        await peer.handshake();
        const first = await grep(peer, pattern);
        await peer.close();
        ours[q][k].push(first.ms);
        cells[k] = `${first.ms.toFixed(1)} (${first.total})`;
      }
      console.log(`| ${pattern} | ${round} | ${r.toFixed(1)} | ${cells.join(" | ")} |`);
    }
  }
  console.log(`\nload ${loadAverage()}`);
  console.log(
    `\n| query | rg median ms | ${DIRS.map((d) => `${name(d)} median ms, ratio`).join(" | ")} |`,
  );
  console.log(`| --- | --- | ${DIRS.map(() => "---").join(" | ")} |`);
  for (const [q, pattern] of QUERIES.entries()) {
    const cells = DIRS.map((_, k) => {
      const ratio = median(ours[q][k].map((ms, i) => ms / theirs[q][i]));
      return `${median(ours[q][k]).toFixed(1)}, ${ratio.toFixed(3)}x`;
    });
    console.log(`| ${pattern} | ${median(theirs[q]).toFixed(1)} | ${cells.join(" | ")} |`);
  }
} finally {
  for (const holder of holders) await holder.close().catch(() => {});
  killDaemons(top);
  await Deno.remove(top, { recursive: true }).catch(() => {});
}
