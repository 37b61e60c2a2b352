// deno-lint-ignore-file no-console
/**
 * A relay's own costs (docs/BENCHMARKS.md, "The shared daemon", the relay's own costs), checkouts
 * side by side in one run, rounds interleaved: for each checkout (the arguments; default this
 * one), a daemon held by one relay on a small generated root, then in each round a new relay of
 * each checkout: spawn to the initialize answer, its first call (a count grep, sent right after
 * the handshake: the relay's start after the initialize answer plus the daemon's per-session
 * set-up and the grep) and the same grep again, a listing, a content grep and three reads of a
 * 1.1 MB file, then its peak RSS (VmHWM, RssAnon, RssFile from /proc). Last, reads of the 1.1 MB
 * file through each holder relay, alternating with one `--no-daemon` session of the first
 * checkout.
 *
 *   deno run --allow-read --allow-write --allow-run --allow-env bench/relay.ts [DIR...]
 *
 * DIR is a checkout (or an export: `git archive COMMIT | tar -x -C DIR`). ROUNDS (default 5) and
 * READS (default 30) in the environment. Each checkout's daemon has its own socket folder and
 * `--daemon-idle-s 0`; the ones still running at the end are killed.
 */

import { loadAverage, Peer, readProc } from "./client.ts";
import { oursCommand, REPO } from "./servers.ts";
import { killDaemons } from "./daemons.ts";

const dirs = Deno.args.length > 0 ? Deno.args : [REPO];
const ROUNDS = Number(Deno.env.get("ROUNDS") ?? 5);
const READS = Number(Deno.env.get("READS") ?? 30);

const top = await Deno.realPath(await Deno.makeTempDir({ dir: "/tmp", prefix: "scr-" }));
const root = `${top}/root`;
await Deno.mkdir(root);
await Deno.mkdir(`${top}/bin`);
await Deno.symlink(Deno.execPath(), `${top}/bin/deno`);
Deno.env.set("PATH", `${top}/bin:${Deno.env.get("PATH") ?? ""}`);
// A 1.1 MB C-like file (escapes, tabs) and a few small ones.
{
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < 1_100_000; i++) {
    const line = `\t{0x${(i * 2654435761 % 65536).toString(16)}, "entry \\"${i}\\"", ${i}},\n`;
    lines.push(line);
    size += line.length;
  }
  await Deno.writeTextFile(`${root}/big.c`, lines.join(""));
  for (let i = 0; i < 5; i++) {
    await Deno.writeTextFile(`${root}/f${i}.c`, `int f${i}(void) { return ${i}; } // PM_RESUME\n`);
  }
}

let worlds = 0;
async function runtime(): Promise<string> {
  const dir = `${top}/run${worlds++}`;
  await Deno.mkdir(dir, { mode: 0o700 });
  await Deno.chmod(dir, 0o700);
  return dir;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function spawn(dir: string, extra: string[], run: string): Peer {
  Deno.env.set("XDG_RUNTIME_DIR", run);
  return new Peer("ours", oursCommand(root, extra, dir));
}

async function time(peer: Peer, method: string, params?: Record<string, unknown>) {
  const t0 = performance.now();
  const answer = await peer.request(method, params, { timeoutMs: 60_000 });
  const ms = performance.now() - t0;
  if (answer.result === undefined) throw new Error(JSON.stringify(answer).slice(0, 300));
  return ms;
}

const RELAY = ["--daemon", "--daemon-idle-s", "0", "--no-cache"];
const COUNT = { name: "grep", arguments: { pattern: "PM_RESUME", output_mode: "count" } };
const read = { uri: `file://${root}/big.c` };

interface World {
  dir: string;
  run: string;
  holder: Peer;
  init: number[];
  first: number[];
  second: number[];
  reads: number[];
  hwm: number[];
  anon: number[];
  file: number[];
}

console.log(`# a relay's own costs, ${ROUNDS} rounds, load ${loadAverage()}`);
const all: World[] = [];
try {
  for (const dir of dirs) {
    const run = await runtime();
    const holder = spawn(dir, RELAY, run);
    await holder.handshake();
    await time(holder, "tools/call", COUNT);
    all.push({
      dir,
      run,
      holder,
      init: [],
      first: [],
      second: [],
      reads: [],
      hwm: [],
      anon: [],
      file: [],
    });
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const world of all) {
      const t0 = performance.now();
      const relay = spawn(world.dir, RELAY, world.run);
      await relay.handshake();
      world.init.push(performance.now() - t0);
      world.first.push(await time(relay, "tools/call", COUNT));
      world.second.push(await time(relay, "tools/call", COUNT));
      await time(relay, "tools/list");
      await time(relay, "tools/call", { name: "grep", arguments: { pattern: "return" } });
      for (let i = 0; i < 3; i++) await time(relay, "resources/read", read);
      const status = readProc(relay.pid, "status");
      const mib = (key: string) =>
        Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(status)?.[1]) / 1024;
      world.hwm.push(mib("VmHWM"));
      world.anon.push(mib("RssAnon"));
      world.file.push(mib("RssFile"));
      await relay.close();
    }
  }
  const single = spawn(dirs[0], ["--no-daemon", "--no-cache"], await runtime());
  await single.handshake();
  const direct: number[] = [];
  for (let i = 0; i < READS; i++) {
    direct.push(await time(single, "resources/read", read));
    for (const world of all) world.reads.push(await time(world.holder, "resources/read", read));
  }
  await single.close();
  console.log(
    `1.1 MB resources/read, median of ${READS}: --no-daemon ${median(direct).toFixed(2)} ms`,
  );
  for (const world of all) {
    const f = (values: number[]) => values.map((v) => v.toFixed(1)).join(", ");
    console.log(`\n${world.dir}`);
    console.log(`  initialize (spawn to answer) median ${median(world.init).toFixed(1)} ms`);
    console.log(
      `  first call median ${median(world.first).toFixed(1)} ms [${f(world.first)}], ` +
        `the same call again ${median(world.second).toFixed(1)} ms`,
    );
    console.log(
      `  1.1 MB read through the relay ${median(world.reads).toFixed(2)} ms, ` +
        `${(median(world.reads) / median(direct)).toFixed(3)}x --no-daemon`,
    );
    console.log(
      `  VmHWM ${f(world.hwm)} MiB; RssAnon median ${median(world.anon).toFixed(1)}, ` +
        `RssFile median ${median(world.file).toFixed(1)} MiB`,
    );
  }
  console.log(`\nload ${loadAverage()}`);
} finally {
  for (const world of all) await world.holder.close().catch(() => {});
  killDaemons(`--root ${root} `);
  await Deno.remove(top, { recursive: true }).catch(() => {});
}
