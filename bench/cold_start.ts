// deno-lint-ignore-file no-console
/**
 * Cold start of several server checkouts side by side: spawn to initialize answer, each server
 * spawned in turn (interleaved), median of the spawns. Used to tell whether a change moved
 * start-up, independent of the machine's speed that day.
 *
 *   git archive da56c1b | tar -x -C /tmp/old    # an older server to compare with
 *   deno run --allow-read --allow-write --allow-run --allow-env bench/cold_start.ts \
 *     [--spawns 15] [--with-cache] . /tmp/old
 *
 * --with-cache: a checkout that has the index cache runs with a temp --cache-dir (its cache writer
 * starts before the answer) instead of --no-cache.
 */
import { numFlag } from "./flags.ts";
import { startFlags } from "./servers.ts";

const SPAWNS = numFlag("--spawns", 15);
const WITH_CACHE = Deno.args.includes("--with-cache");
const named = Deno.args.filter((arg, i) =>
  arg !== "--spawns" && Deno.args[i - 1] !== "--spawns" && arg !== "--with-cache"
);
const checkouts = named.length > 0 ? named : ["."];
const INIT =
  '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}\n';
const root = await Deno.makeTempDir({ prefix: "shipcode-cold-" });

/**
 * `--no-cache` (or, with --with-cache, a temp --cache-dir) for a checkout that knows it: the bench
 * never writes the user's cache.
 */
function noCache(dir: string): string[] {
  try {
    if (!Deno.readTextFileSync(`${dir}/lib/cli/args.ts`).includes('"--no-cache"')) return [];
    return WITH_CACHE ? ["--cache-dir", `${root}-cache`] : ["--no-cache"];
  } catch {
    return [];
  }
}

async function once(dir: string): Promise<number> {
  const flags = startFlags(dir);
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...flags, `${dir}/main.ts`, "--root", root, ...noCache(dir)],
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(INIT));
  const reader = child.stdout.getReader();
  await reader.read();
  const elapsed = performance.now() - started;
  await writer.close();
  reader.releaseLock();
  await child.stdout.cancel();
  await child.status;
  return elapsed;
}

const times = checkouts.map(() => [] as number[]);
for (let k = 0; k < SPAWNS; k++) {
  for (let i = 0; i < checkouts.length; i++) times[i].push(await once(checkouts[i]));
}
console.log(`| server | cold start, median of ${SPAWNS} (ms) |\n|---|---:|`);
for (let i = 0; i < checkouts.length; i++) {
  const sorted = times[i].sort((a, b) => a - b);
  console.log(`| ${checkouts[i]} | ${sorted[Math.floor(sorted.length / 2)].toFixed(1)} |`);
}
await Deno.remove(root, { recursive: true });
await Deno.remove(`${root}-cache`, { recursive: true }).catch(() => {});
