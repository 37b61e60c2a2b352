// deno-lint-ignore-file no-console
/**
 * The shared daemon on the Linux kernel tree (docs/BENCHMARKS.md, "The shared daemon on the
 * kernel"), in one run:
 *
 * 1. the index is built once into the bench's own cache folder (a `--no-daemon` session, waiting
 *    for the base shard on disk);
 * 2. with a daemon running (a session holds it, the stored index loaded), each selective query as
 *    the first grep of a new session (a relay), against `rg -c --hidden -L --no-unicode` in the
 *    same round;
 * 3. four sessions at once in a fresh world (their own daemon, loading the stored index), each
 *    running every query: the daemon's peak RSS plus the four relays', against one `--no-daemon`
 *    session that runs the same queries;
 * 4. ping round trips and the read of a ~1 MiB file (resources/read), through a relay against
 *    `--no-daemon`, alternating.
 *
 *   BENCH_CORPUS=/path/to/linux-source-6.1 deno run --allow-read --allow-write --allow-run \
 *     --allow-env bench/daemon_kernel.ts [rounds]
 *
 * Each world has its own socket folder (an XDG_RUNTIME_DIR in a temp folder) and a PATH whose
 * first `deno` is this executable (the launch line's `--allow-run=deno` is resolved on PATH);
 * every daemon runs with `--daemon-idle-s 0`, and the ones still running at the end are killed.
 */

import { loadAverage, Peer, procStatusKiB } from "./client.ts";
import { CORPUS, fileUri, oursCommand, serverLabel } from "./servers.ts";
import { daemonPids, killDaemons } from "./daemons.ts";
import { grepCounts } from "./grep_counts.ts";

const ROUNDS = Number(Deno.args[0] ?? 3);
const QUERIES = ["PM_RESUME", "ext4_fill_super", "schedule_timeout", "copy_page_from_iter\\("];
const BIG_FILE = "drivers/net/wireless/realtek/rtw89/rtw8852c_table.c";

const top = await Deno.makeTempDir({ prefix: "shipcode-bench-kdaemon-" });
const cache = `${top}/cache`;
await Deno.mkdir(cache);
await Deno.mkdir(`${top}/bin`);
await Deno.symlink(Deno.execPath(), `${top}/bin/deno`);
Deno.env.set("PATH", `${top}/bin:${Deno.env.get("PATH") ?? ""}`);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** rg's time and its total count (it reads the corpus path given, never stdin). */
async function rg(pattern: string): Promise<{ ms: number; total: number }> {
  const t0 = performance.now();
  const out = await new Deno.Command("rg", {
    args: ["-c", "--hidden", "-L", "--no-unicode", "-e", pattern, CORPUS],
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).output();
  const ms = performance.now() - t0;
  const text = new TextDecoder().decode(out.stdout);
  let total = 0;
  for (const line of text.split("\n")) {
    if (line !== "") total += Number(line.slice(line.lastIndexOf(":") + 1));
  }
  if (total === 0) throw new Error(`rg found nothing for ${pattern}`);
  return { ms, total };
}

let worlds = 0;
/** A fresh socket folder parent (XDG_RUNTIME_DIR), mode 0700. */
async function freshRuntime(): Promise<string> {
  const dir = `${top}/run${worlds++}`;
  await Deno.mkdir(dir, { mode: 0o700 });
  await Deno.chmod(dir, 0o700);
  return dir;
}

function spawn(extra: string[], runtime: string, onLine?: (line: string) => void): Peer {
  Deno.env.set("XDG_RUNTIME_DIR", runtime);
  return new Peer(
    "ours",
    oursCommand(CORPUS, ["--cache-dir", cache, ...extra]),
    onLine ? { stderr: "piped", onStderrLine: onLine } : {},
  );
}

const RELAY = ["--daemon", "--daemon-idle-s", "0"];

/** A count-mode grep, timed from the request to the answer, with its total of matching lines. */
async function grep(peer: Peer, pattern: string): Promise<{ ms: number; total: number }> {
  const answer = await grepCounts(peer, { pattern, output_mode: "count" });
  if (answer.error !== undefined) throw new Error(answer.error.slice(0, 300));
  return { ms: answer.ms, total: answer.matches };
}

/** The daemon of this world: the one serve-daemon process that was not there before. */
function newDaemon(before: number[]): number {
  const now = daemonPids(top).filter((p) => !before.includes(p));
  if (now.length !== 1) throw new Error(`expected one new daemon, found ${now.length}`);
  return now[0];
}

async function waitFor(check: () => boolean, timeoutMs = 600_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 200));
  }
}

const mib = (kib: number) => (kib / 1024).toFixed(1);

console.log(`# shared daemon on the kernel: ${serverLabel()}`);
console.log(`# corpus ${CORPUS}, ${ROUNDS} rounds, load ${loadAverage()}`);

try {
  // 1. The index, built once into this bench's cache folder.
  {
    let written = false;
    const t0 = performance.now();
    const builder = spawn(["--no-daemon", "--log-level", "debug"], await freshRuntime(), (l) => {
      if (l.includes("debug: index written: base")) written = true;
    });
    await builder.handshake();
    await grep(builder, QUERIES[0]);
    await waitFor(() => written);
    console.log(`index built and stored in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    await builder.close();
  }

  // 2. A new session's first grep with a daemon running.
  const heldRuntime = await freshRuntime();
  const before = daemonPids(top);
  const holder = spawn(RELAY, heldRuntime);
  await holder.handshake();
  await grep(holder, QUERIES[1]);
  const heldDaemon = newDaemon(before);
  // Wait until the daemon's index answers (a selective grep well under a full scan's time).
  for (let i = 0; i < 30 && (await grep(holder, QUERIES[2])).ms > 300; i++) {
    await new Promise((r) => setTimeout(r, 1000));
  }
  console.log(`holder's daemon ${heldDaemon}, load ${loadAverage()}`);
  console.log("\n| query | round | ours first grep ms | rg ms | ratio | ours total | rg total |");
  console.log("| --- | --- | --- | --- | --- | --- | --- |");
  const ratios = new Map<string, number[]>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const pattern of QUERIES) {
      const r = await rg(pattern);
      const peer = spawn(RELAY, heldRuntime);
      await peer.handshake();
      const ours = await grep(peer, pattern);
      await peer.close();
      const list = ratios.get(pattern) ?? [];
      list.push(ours.ms / r.ms);
      ratios.set(pattern, list);
      console.log(
        `| ${pattern} | ${round} | ${ours.ms.toFixed(1)} | ${r.ms.toFixed(1)} | ${
          (ours.ms / r.ms).toFixed(3)
        } | ${ours.total} | ${r.total} |`,
      );
    }
  }
  for (const [pattern, list] of ratios) {
    console.log(`median ratio ${pattern}: ${median(list).toFixed(3)}x`);
  }
  console.log(`holder's daemon peak RSS ${mib(procStatusKiB(heldDaemon, "VmHWM"))} MiB`);
  await holder.close();
  console.log(`load ${loadAverage()}`);

  // 3. Four sessions at once (a fresh world) against one --no-daemon session.
  {
    const runtime = await freshRuntime();
    const before4 = daemonPids(top);
    const relays = [0, 1, 2, 3].map(() => spawn(RELAY, runtime));
    await Promise.all(relays.map((p) => p.handshake()));
    await Promise.all(relays.map(async (p, i) => {
      for (let k = 0; k < QUERIES.length; k++) {
        await grep(p, QUERIES[(i + k) % QUERIES.length]);
      }
    }));
    const daemon = newDaemon(before4);
    const relayPeaks = relays.map((p) => p.peakRssKiB());
    const daemonPeak = procStatusKiB(daemon, "VmHWM");
    await Promise.all(relays.map((p) => p.close()));
    const single = spawn(["--no-daemon"], await freshRuntime());
    await single.handshake();
    for (const pattern of QUERIES) await grep(single, pattern);
    const singlePeak = single.peakRssKiB();
    await single.close();
    const total = daemonPeak + relayPeaks.reduce((a, b) => a + b, 0);
    console.log(
      `\nfour sessions: daemon peak ${mib(daemonPeak)} MiB, relays ${
        relayPeaks.map(mib).join(", ")
      } MiB, total ${mib(total)} MiB; one --no-daemon session ${mib(singlePeak)} MiB; ratio ${
        (total / singlePeak).toFixed(2)
      }x (load ${loadAverage()})`,
    );
  }

  // 4. ping and a ~1 MiB resources/read, through a relay against --no-daemon, alternating.
  {
    const size = (await Deno.stat(`${CORPUS}/${BIG_FILE}`)).size;
    const relay = spawn(RELAY, await freshRuntime());
    const single = spawn(["--no-daemon"], await freshRuntime());
    await relay.handshake();
    await single.handshake();
    await relay.request("ping");
    const pings = { relay: [] as number[], single: [] as number[] };
    const reads = { relay: [] as number[], single: [] as number[] };
    const time = async (peer: Peer, method: string, params?: Record<string, unknown>) => {
      const t0 = performance.now();
      const a = await peer.request(method, params, { timeoutMs: 60_000 });
      const ms = performance.now() - t0;
      if (a.result === undefined) throw new Error(JSON.stringify(a).slice(0, 300));
      return ms;
    };
    for (let i = 0; i < 200; i++) {
      pings.relay.push(await time(relay, "ping"));
      pings.single.push(await time(single, "ping"));
    }
    const read = { uri: fileUri(`${CORPUS}/${BIG_FILE}`) };
    for (let i = 0; i < 30; i++) {
      reads.relay.push(await time(relay, "resources/read", read));
      reads.single.push(await time(single, "resources/read", read));
    }
    await relay.close();
    await single.close();
    console.log(
      `\nping median of 200: --no-daemon ${median(pings.single).toFixed(3)} ms, relay ${
        median(pings.relay).toFixed(3)
      } ms (+${(median(pings.relay) - median(pings.single)).toFixed(3)} ms)`,
    );
    console.log(
      `resources/read of ${BIG_FILE} (${size} bytes), median of 30: --no-daemon ${
        median(reads.single).toFixed(1)
      } ms, relay ${median(reads.relay).toFixed(1)} ms (${
        (median(reads.relay) / median(reads.single)).toFixed(3)
      }x); load ${loadAverage()}`,
    );
  }
} finally {
  killDaemons(top);
  await Deno.remove(top, { recursive: true }).catch(() => {});
}
