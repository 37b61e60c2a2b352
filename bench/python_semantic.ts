// deno-lint-ignore-file no-console
/**
 * Python semantic benchmark (docs/BENCHMARKS.md "Semantic: Python"): our server against the same
 * pyright (1.1.414) run standalone under Node (its language server over stdio, empty PATH and
 * HOME, tests/semantic/python/pyright_oracle.ts), one after the other in the same run, on the
 * same root and configuration, on psf/requests and fastapi/fastapi:
 * - first semantic call (go_to_definition): ours from the tools/call to its answer (worker
 *   start, pyright load, listing, checking the file); the anchor from its spawn to the same
 *   first answer (after it has listed the workspace);
 * - pings every 25 ms during that first call (client round trip), each sent at the same moment
 *   to a control process (another server on the same root, idle): what the machine's load adds
 *   shows in both, what our main thread adds only in ours;
 * - warm find_references p50 over the sampled positions after the first;
 * - rename_symbol dry run of a declaration used in many files, warm (min of two);
 * - peak RSS: VmHWM of our process (the worker is a thread of it) and of the Node process;
 * - parity: definitions (inside the root) and references per position, as path:line:column sets;
 * - memory returned after idle: the engine alone in this process (glibc tuned as the server
 *   tunes it, lib/cli/allocator.ts) with a 2 s idle end, VmRSS before the first question, after
 *   the questions, and after the worker ended.
 *
 *   deno run --allow-read --allow-write --allow-run --allow-env --allow-ffi \
 *     --unstable-worker-options \
 *     bench/python_semantic.ts [--requests DIR] [--fastapi DIR] [--positions 16]
 *
 * (default DIRs: $CORPORA/requests and $CORPORA/fastapi, CORPORA defaulting to
 * $BENCH_DIR/corpora).
 */
import { loadAverage, Peer, procStatusKiB } from "./client.ts";
import { oursCommand, serverLabel } from "./servers.ts";
import { flagValue, numFlag } from "./flags.ts";
import {
  askPositions,
  at,
  declarationsIn,
  definitionPlaces,
  firstCallRow,
  p50,
  parityRows,
  peakRssRow,
  percentile,
  type Position,
  row,
  spread,
  timeRename,
  whilePinging,
} from "./semantic_support.ts";
import { Workspace } from "../lib/workspace/workspace.ts";
import { pythonEngine } from "../lib/semantic/python/engine.ts";
import { tuneAllocator } from "../lib/cli/allocator.ts";
import { findNode, PyrightOracle } from "../tests/semantic/python/pyright_oracle.ts";

const POSITIONS = numFlag("--positions", 16);
const SETTLE_MS = numFlag("--settle-ms", 2000);
/** Where the corpora are cloned (docs/BENCHMARKS.md gives the commands). */
const CORPORA_DIR = Deno.env.get("CORPORA") ??
  `${Deno.env.get("BENCH_DIR") ?? "/var/tmp/shipcode-bench"}/corpora`;

interface Corpus {
  label: string;
  root: string;
  include: (rel: string) => boolean;
  rename: { path: string; name: string };
}

const CORPORA: Corpus[] = [
  {
    label: "psf/requests",
    root: flagValue("--requests") ?? `${CORPORA_DIR}/requests`,
    include: (rel) => rel.startsWith("src/requests/"),
    rename: { path: "src/requests/_internal_utils.py", name: "to_native_string" },
  },
  {
    label: "fastapi/fastapi",
    root: flagValue("--fastapi") ?? `${CORPORA_DIR}/fastapi`,
    include: (rel) => rel.startsWith("fastapi/"),
    rename: { path: "fastapi/param_functions.py", name: "Body" },
  },
];

const DECLARATION = /^(?:async )?(?:def|class) ([A-Za-z_]\w*)/;

function sample(corpus: Corpus): { files: number; positions: Position[] } {
  const ws = Workspace.openSync({ root: corpus.root, noIgnore: false, allowSecrets: false });
  let files = 0;
  const found: Position[] = [];
  for (const entry of ws.walk("")) {
    if (entry.isDir || !entry.rel.endsWith(".py")) continue;
    files++;
    if (!corpus.include(entry.rel)) continue;
    const text = new TextDecoder().decode(ws.readFileSync(entry.rel));
    const declarations = declarationsIn(entry.rel, text, { pattern: DECLARATION, nameGroup: 1 });
    for (const { position } of declarations) found.push(position);
  }
  const positions = spread(found, POSITIONS);
  const target = found.find((p) => p.path === corpus.rename.path && p.name === corpus.rename.name);
  if (target === undefined) throw new Error(`No declaration of ${corpus.rename.name} found`);
  positions.push(target);
  return { files, positions };
}

const key = (p: { path: string | null; line: number; column: number }) =>
  `${p.path}:${p.line}:${p.column}`;

async function runAnchor(node: string, corpus: Corpus, positions: Position[]) {
  const t0 = performance.now();
  const oracle = await PyrightOracle.start(node, corpus.root);
  const first = await oracle.definitions(positions[0].path, positions[0].line, positions[0].column);
  const firstMs = performance.now() - t0;
  const results: Array<{ definitions: string[]; references: string[]; refsMs: number }> = [];
  for (const p of positions) {
    const t = performance.now();
    const refs = await oracle.references(p.path, p.line, p.column);
    const refsMs = performance.now() - t;
    const defs = await oracle.definitions(p.path, p.line, p.column);
    results.push({
      definitions: defs.filter((d) => d.path !== null).map(key).sort(),
      references: refs.filter((r) => r.path !== null).map(key).sort(),
      refsMs,
    });
  }
  const target = positions.at(-1)!;
  const rename = async () => {
    const t = performance.now();
    const edits = await oracle.rename(target.path, target.line, target.column, "renamed_for_bench");
    return { ms: performance.now() - t, files: new Set(edits.map((e) => e.path)).size };
  };
  await rename();
  const renames = [await rename(), await rename()];
  const rssKiB = procStatusKiB(oracle.pid, "VmHWM");
  await oracle.stop();
  return {
    firstMs,
    firstDefinitions: first.filter((d) => d.path !== null).map(key).sort(),
    results,
    renameMs: Math.min(...renames.map((r) => r.ms)),
    renameFiles: renames[0].files,
    rssKiB,
  };
}

async function runOurs(
  corpus: Corpus,
  positions: Position[],
  anchor: Awaited<ReturnType<typeof runAnchor>>,
) {
  const peer = new Peer("ours", oursCommand(corpus.root, ["--no-git"]));
  const control = new Peer("control", oursCommand(corpus.root, ["--no-git"]));
  await peer.handshake();
  await control.handshake();
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  const pings: number[] = [];
  const beyond: number[] = [];
  const timed = async (p: Peer) => {
    const t = performance.now();
    await p.request("ping");
    return performance.now() - t;
  };
  const ping = async () => {
    const [mine, theirs] = await Promise.all([timed(peer), timed(control)]);
    pings.push(mine);
    beyond.push(mine - theirs);
  };
  const { value: first, ms: firstMs } = await whilePinging(
    ping,
    () =>
      peer.request("tools/call", { name: "go_to_definition", arguments: at(positions[0]) }, {
        timeoutMs: 300_000,
      }),
  );
  const misses: string[] = [];
  if (JSON.stringify(definitionPlaces(first).sort()) !== JSON.stringify(anchor.firstDefinitions)) {
    misses.push(`first definition of ${positions[0].name}`);
  }
  const asked = await askPositions(peer, positions, anchor.results);
  misses.push(...asked.misses);
  const renamed = await timeRename(peer, {
    target: positions.at(-1)!,
    newName: "renamed_for_bench",
  });
  const rssKiB = procStatusKiB(peer.pid, "VmHWM");
  await peer.close();
  await control.close();
  return {
    firstMs,
    pings,
    beyond,
    refsMs: asked.refsMs,
    renameCold: renamed.cold,
    renameWarm: renamed.warm,
    rssKiB,
    misses,
  };
}

/** The engine alone in this process: VmRSS before, after the questions, after the idle end. */
async function idleMemory(corpus: Corpus, positions: Position[]) {
  const rss = () => procStatusKiB(Deno.pid, "VmRSS") / 1024;
  const before = rss();
  const engine = pythonEngine({ idleMs: 2000 });
  const ws = Workspace.openSync({ root: corpus.root, noIgnore: false, allowSecrets: false });
  const signal = new AbortController().signal;
  for (const p of positions) {
    await engine.ask(ws, {
      kind: "references",
      at: { path: p.path, line: p.line, column: p.column },
    }, {
      signal,
    });
  }
  const busy = rss();
  await new Promise((resolve) => setTimeout(resolve, 6000));
  const after = rss();
  engine.stop();
  return { before, busy, after };
}

console.error(tuneAllocator());
const node = findNode();
if (node === null) throw new Error("node is not on PATH: the anchor (pyright under Node) needs it");
console.log(`# Python semantic benchmark: ${serverLabel()}`);
console.log(`load average before: ${loadAverage()}; ${POSITIONS} sampled positions per corpus`);
for (const corpus of CORPORA) {
  const { files, positions } = sample(corpus);
  const anchor = await runAnchor(node, corpus, positions);
  const ours = await runOurs(corpus, positions, anchor);
  const memory = await idleMemory(corpus, positions.slice(0, 4));
  const ourP50 = p50(ours.refsMs.slice(1));
  const anchorP50 = p50(anchor.results.slice(1).map((r) => r.refsMs));
  const ourRss = ours.rssKiB / 1024;
  const anchorRss = anchor.rssKiB / 1024;
  console.log(`\n## ${corpus.label} (${files} served .py files; load ${loadAverage()})\n`);
  console.log("| measure | ours | anchor | ratio | target | |");
  console.log("|---|---|---|---|---|---|");
  firstCallRow(ours.firstMs, anchor.firstMs);
  const worst = Math.max(...ours.pings);
  const beyond95 = percentile(ours.beyond, 0.95);
  row(
    "ping during the first call (max / p50; beyond the control: p95 / max)",
    `${worst.toFixed(0)} / ${p50(ours.pings).toFixed(1)} ms; ${beyond95.toFixed(0)} / ${
      Math.max(...ours.beyond).toFixed(0)
    } ms (${ours.pings.length} pings)`,
    "",
    "",
    "p95 beyond <= 100 ms, none > 1 s",
    beyond95 <= 100 && worst <= 1000,
  );
  row(
    "warm find_references p50",
    `${ourP50.toFixed(1)} ms`,
    `${anchorP50.toFixed(1)} ms`,
    `${(ourP50 / anchorP50).toFixed(2)}x`,
    `<= ${Math.max(150, 1.2 * anchorP50).toFixed(0)} ms`,
    ourP50 <= Math.max(150, 1.2 * anchorP50),
  );
  row(
    `rename dry run, ${positions.at(-1)!.name} (${anchor.renameFiles} files), warm`,
    `${ours.renameWarm.toFixed(0)} ms (first ${ours.renameCold.toFixed(0)} ms)`,
    `${anchor.renameMs.toFixed(0)} ms`,
    "",
    "<= 1000 ms",
    ours.renameWarm <= 1000,
  );
  peakRssRow(ourRss, anchorRss);
  row(
    "memory after idle (engine alone: before / busy / 6 s after, idle end 2 s)",
    `${memory.before.toFixed(0)} / ${memory.busy.toFixed(0)} / ${memory.after.toFixed(0)} MiB`,
    "",
    "",
    "returned",
    memory.after - memory.before <= 0.25 * (memory.busy - memory.before),
  );
  parityRows(positions.length * 2 + 1, ours.misses);
}
