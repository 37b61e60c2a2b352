// deno-lint-ignore-file no-console
/**
 * Qualified find_symbol against the bare name (docs/BENCHMARKS.md "Qualified names"): for each
 * pair (`fastapi.routing.APIRouter` and `APIRouter`), calls on one server, warm (the symbol cache
 * filled by a first call of each), the qualified and the bare call interleaved round by round;
 * p50 of each and the median of the per-round ratios. A second pass asks each pair once on a fresh
 * server per call (cold: the scan and the parse included), bare first, then qualified.
 *
 *   BENCH_CORPUS=/path/to/fastapi deno run --allow-read --allow-run --allow-env \
 *     --unstable-worker-options bench/qualified_names.ts --pairs fastapi.routing.APIRouter,... \
 *     [--rounds 20] [--cold 3]
 */
import { loadAverage, parseLine, Peer } from "./client.ts";
import { CORPUS, median, oursCommand, requireCorpusAndServer, serverLabel } from "./servers.ts";
import { flagValue, numFlag } from "./flags.ts";

const ROUNDS = numFlag("--rounds", 20);
const COLD = numFlag("--cold", 3);
const PAIRS = (flagValue("--pairs") ?? "").split(",").filter((s) => s !== "");
if (PAIRS.length === 0) throw new Error("give --pairs with qualified names");

requireCorpusAndServer();
const LOAD = loadAverage();

/** The bare name of a qualified one: its last part (Go's `(*T).M` -> `M`). */
function bare(name: string): string {
  return name.split(/::|\.|#/).pop() ?? name;
}

async function call(peer: Peer, name: string): Promise<{ ms: number; total: number }> {
  const t0 = performance.now();
  const a = await peer.requestLine("tools/call", {
    name: "find_symbol",
    arguments: { name, head_limit: 0 },
  }, { timeoutMs: 600_000 });
  const ms = performance.now() - t0;
  const msg = parseLine(a.line) as {
    result?: { isError?: boolean; content: { text?: string }[]; structuredContent?: never };
  };
  if (msg.result === undefined || msg.result.isError) {
    throw new Error(`find_symbol ${name} failed: ${JSON.stringify(msg)}`);
  }
  const structured = msg.result.structuredContent as { total: number } | undefined;
  return { ms, total: structured?.total ?? 0 };
}

async function fresh(): Promise<Peer> {
  const peer = new Peer("find_symbol", oursCommand(CORPUS), { stderr: "inherit" });
  await peer.handshake();
  return peer;
}

const rows: string[] = [];
const peer = await fresh();
try {
  // Every name a few times first: the symbol cache filled, the index built in the meantime.
  for (let round = 0; round < 3; round++) {
    for (const qualified of PAIRS) {
      await call(peer, bare(qualified));
      await call(peer, qualified);
    }
  }
  for (const qualified of PAIRS) {
    const name = bare(qualified);
    const first = await call(peer, name);
    const firstQualified = await call(peer, qualified);
    const bareMs: number[] = [];
    const qualifiedMs: number[] = [];
    const ratios: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate which goes first, so neither always follows the other.
      const order = round % 2 === 0 ? [name, qualified] : [qualified, name];
      const times = new Map<string, number>();
      for (const n of order) times.set(n, (await call(peer, n)).ms);
      bareMs.push(times.get(name)!);
      qualifiedMs.push(times.get(qualified)!);
      ratios.push(times.get(qualified)! / times.get(name)!);
    }
    rows.push(
      `| \`${qualified}\` | ${firstQualified.total} of ${first.total} | warm | ` +
        `${median(bareMs).toFixed(1)} | ${median(qualifiedMs).toFixed(1)} | ` +
        `${median(ratios).toFixed(2)} |`,
    );
  }
} finally {
  await peer.close();
}
for (const qualified of PAIRS) {
  const name = bare(qualified);
  const bareMs: number[] = [];
  const qualifiedMs: number[] = [];
  const ratios: number[] = [];
  let totals = "";
  for (let round = 0; round < COLD; round++) {
    const times: number[] = [];
    const found: number[] = [];
    for (const n of [name, qualified]) {
      const p = await fresh();
      try {
        const r = await call(p, n);
        times.push(r.ms);
        found.push(r.total);
      } finally {
        await p.close();
      }
    }
    bareMs.push(times[0]);
    qualifiedMs.push(times[1]);
    ratios.push(times[1] / times[0]);
    totals = `${found[1]} of ${found[0]}`;
  }
  rows.push(
    `| \`${qualified}\` | ${totals} | cold | ${median(bareMs).toFixed(1)} | ` +
      `${median(qualifiedMs).toFixed(1)} | ${median(ratios).toFixed(2)} |`,
  );
}
console.log(`server ${serverLabel()}, corpus ${CORPUS}, load average at start ${LOAD}`);
console.log(`${ROUNDS} warm rounds, ${COLD} cold rounds\n`);
console.log(
  "| qualified name | definitions (qualified of bare) | | bare p50 ms | qualified p50 ms | ratio |",
);
console.log("|---|---|---|---:|---:|---:|");
for (const row of rows) console.log(row);
