// deno-lint-ignore-file no-console
/**
 * The process memory budget (docs/BENCHMARKS.md "Memory"): peak RSS of the server process, read
 * from outside (VmHWM in /proc/<pid>/status, every thread and worker included), one fresh server
 * per session kind on the kernel tree (bench/corpus.sh), against the 400 MiB budget:
 *
 * - full-scan grep with unlimited content (`--no-index`, output_mode content, head_limit 0);
 * - symbols across the tree: find_symbol of a name in 4,500 files, then find_references of a
 *   name in 1,400 files (full parses); and symbols of every file: find_symbol with the prefix `s`;
 * - complete listings: glob `**` and list_dir of the whole tree, head_limit 0;
 * - the index build: a default server, one grep to start it, until "index ready" (in memory,
 *   `--no-cache`, as every bench server runs unless told otherwise);
 * - the first build with its write: the same with a cache folder of its own (a temp folder,
 *   removed after), until the base shard is written: what a user's first session on the tree
 *   does.
 *
 *   BENCH_CORPUS=/path/to/linux-source-6.1 \
 *     deno run --allow-read --allow-write --allow-run --allow-env bench/memory.ts [--only grep,symbols,...]
 */
import { loadAverage, parseLine, Peer, procStatusKiB } from "./client.ts";
import { CORPUS, oursCommand, requireCorpusAndServer, serverLabel } from "./servers.ts";
import { flagValue } from "./flags.ts";

const BUDGET_MIB = 400;

interface Step {
  tool: string;
  args: Record<string, unknown>;
}

interface Session {
  id: string;
  label: string;
  flags: string[];
  steps: Step[];
  /** Wait for this debug line after the steps ("index ready", "index written"). */
  waitFor?: string;
  /** Run with a cache folder of its own. */
  cache?: boolean;
}

const SESSIONS: Session[] = [
  {
    id: "grep",
    label: "full-scan grep, unlimited content (`static int`, --no-index)",
    flags: ["--no-index"],
    steps: [{
      tool: "grep",
      args: { pattern: "static int", output_mode: "content", head_limit: 0 },
    }],
  },
  {
    id: "symbols",
    label: "symbols across the tree (find_symbol `list_head`, 4,511 candidates, then " +
      "find_references `task_struct`, 1,422 files parsed whole)",
    flags: ["--no-index"],
    steps: [
      { tool: "find_symbol", args: { name: "list_head", head_limit: 0 } },
      { tool: "find_references", args: { name: "task_struct", head_limit: 0 } },
    ],
  },
  {
    id: "symbols-all",
    label: "symbols of every file (find_symbol prefix `s`, head_limit 0: every C file parsed, " +
      "a 6 MiB page of the definitions starting with s answered, the rest counted)",
    flags: ["--no-index"],
    steps: [{ tool: "find_symbol", args: { name: "s", match: "prefix", head_limit: 0 } }],
  },
  {
    id: "listings",
    label: "complete listings (glob `**`, list_dir depth 20, head_limit 0)",
    flags: ["--no-index"],
    steps: [
      { tool: "glob", args: { pattern: "**", head_limit: 0 } },
      { tool: "list_dir", args: { depth: 20, head_limit: 0 } },
    ],
  },
  {
    id: "index",
    label: "the index build (one grep, then until the index is ready)",
    flags: ["--log-level", "debug"],
    steps: [{ tool: "grep", args: { pattern: "memory_bench_token", head_limit: 0 } }],
    waitFor: "debug: index ready",
  },
  {
    id: "index-cached",
    label: "the first build with its write (a cache folder of its own, until the shard is written)",
    flags: ["--log-level", "debug"],
    steps: [{ tool: "grep", args: { pattern: "memory_bench_token", head_limit: 0 } }],
    waitFor: "debug: index written",
    cache: true,
  },
];

requireCorpusAndServer();
const LOAD = loadAverage();
const only = flagValue("--only")?.split(",");

interface Row {
  label: string;
  hwm: number;
  rss: number;
  seconds: number;
  answers: string;
}
const rows: Row[] = [];

for (const session of SESSIONS) {
  if (only !== undefined && !only.includes(session.id)) continue;
  let ready = false;
  const cacheDir = session.cache === true ? Deno.makeTempDirSync({ prefix: "memory-bench-" }) : "";
  const flags = cacheDir === "" ? session.flags : [...session.flags, "--cache-dir", cacheDir];
  const peer = new Peer(session.id, oursCommand(CORPUS, flags), {
    stderr: "piped",
    onStderrLine: (line) => {
      if (session.waitFor !== undefined && line.includes(session.waitFor)) ready = true;
    },
  });
  await peer.handshake();
  const t0 = performance.now();
  const answers: string[] = [];
  for (const step of session.steps) {
    const a = await peer.requestLine("tools/call", { name: step.tool, arguments: step.args }, {
      timeoutMs: 1_800_000,
    });
    const msg = parseLine(a.line) as {
      result?: { isError?: boolean; content: { text?: string }[] };
      error?: unknown;
    };
    if (msg.result === undefined || msg.result.isError) {
      throw new Error(`${step.tool} failed: ${JSON.stringify(msg.error ?? msg.result)}`);
    }
    answers.push(`${step.tool} ${(a.line.length / 1024 / 1024).toFixed(1)} MiB`);
  }
  if (session.waitFor !== undefined) {
    while (!ready && performance.now() - t0 < 900_000) {
      await new Promise((r) => setTimeout(r, 250));
    }
    if (!ready) throw new Error(`No "${session.waitFor}" after 900 s`);
  }
  const hwm = peer.peakRssKiB() / 1024;
  const rss = procStatusKiB(peer.pid, "VmRSS") / 1024;
  rows.push({
    label: session.label,
    hwm,
    rss,
    seconds: (performance.now() - t0) / 1000,
    answers: answers.join(", "),
  });
  await peer.close(30_000);
  if (cacheDir !== "") Deno.removeSync(cacheDir, { recursive: true });
  console.error(`memory bench: ${session.id} done (${hwm.toFixed(0)} MiB)`);
}

console.log(`Server: ${serverLabel()}; corpus ${CORPUS}; load average at start: ${LOAD}\n`);
console.log("| session | peak RSS (MiB, VmHWM) | RSS at the end | time (s) | answers | target | |");
console.log("|---|---:|---:|---:|---|---|---|");
for (const r of rows) {
  console.log(
    `| ${r.label} | ${r.hwm.toFixed(0)} | ${r.rss.toFixed(0)} | ${
      r.seconds.toFixed(1)
    } | ${r.answers} | <= ${BUDGET_MIB} MiB | ${r.hwm <= BUDGET_MIB ? "met" : "**missed**"} |`,
  );
}
