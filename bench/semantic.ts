// deno-lint-ignore-file no-console
/**
 * Semantic tools benchmark (docs/BENCHMARKS.md "Semantic"): our server against the same
 * TypeScript (6.0.3) run standalone under Node over the same project with TypeScript's own Node
 * host (bench/semantic_anchor.cjs), in the same run, on denoland/std (no tsconfig: the default
 * project of every served TS/JS file) and honojs/hono (a tsconfig solution; positions in
 * src/, the project of tsconfig.build.json):
 * - first semantic call (go_to_definition): ours from the tools/call to its answer (worker start,
 *   TypeScript load, program build); the anchor from its spawn to the same first answer;
 * - ping round trips while that first program builds;
 * - warm find_references p50 over the sampled positions (ours: client round trip);
 * - rename_symbol dry run of a declaration used in about 50 files (std: AssertionError; hono:
 *   MiddlewareHandler, in the files of its project), warm;
 * - peak RSS (VmHWM of our process, Node's maxRSS);
 * - parity: definitions and references of every sampled position, as path:line:column sets.
 *
 *   deno run --allow-read --allow-write --allow-run --allow-env bench/semantic.ts \
 *     [--std ../corpora/denoland+std] [--hono ../corpora/honojs+hono] [--positions 24] \
 *     [--settle-ms 2000]
 *
 * The first call is sent --settle-ms after the handshake (the server's own warm-up is not what
 * the pings measure; --settle-ms 0 shows both together).
 *
 * On std the anchor is given the workspace members' exports as `paths` (workspaceExports), as
 * the server reads them from the members' deno.json files.
 *
 * The anchor's typescript@6.0.3 is installed with npm into $BENCH_DIR/ts-anchor (default
 * /var/tmp/shipcode-bench) on the first run.
 */
import { loadAverage, Peer, procStatusKiB } from "./client.ts";
import { oursCommand, serverLabel } from "./servers.ts";
import { flagValue, numFlag } from "./flags.ts";
import { Workspace } from "../lib/workspace/workspace.ts";
import { isScriptPath } from "../lib/semantic/typescript/script_paths.ts";

const POSITIONS = numFlag("--positions", 24);
const SETTLE_MS = numFlag("--settle-ms", 2000);
const BENCH_DIR = Deno.env.get("BENCH_DIR") ?? "/var/tmp/shipcode-bench";
const ANCHOR_DIR = `${BENCH_DIR}/ts-anchor`;
const ANCHOR_SCRIPT = new URL("./semantic_anchor.cjs", import.meta.url).pathname;

interface Position {
  path: string;
  line: number;
  column: number;
  name: string;
}

interface Corpus {
  label: string;
  root: string;
  /** The tsconfig of the positions' project, or null: the default project of these files. */
  config: string | null;
  include: (rel: string) => boolean;
  /** The symbol renamed (dry run): a declaration used in about 50 files. */
  rename: { path: string; name: string };
}

const CORPORA: Corpus[] = [
  {
    label: "denoland/std",
    root: flagValue("--std") ?? "../corpora/denoland+std",
    config: null,
    include: () => true,
    rename: { path: "assert/assertion_error.ts", name: "AssertionError" },
  },
  {
    label: "honojs/hono",
    root: flagValue("--hono") ?? "../corpora/honojs+hono",
    config: "tsconfig.build.json",
    include: (rel) => rel.startsWith("src/") && !/\.test\.tsx?$/.test(rel) && rel.endsWith(".ts"),
    rename: { path: "src/types.ts", name: "MiddlewareHandler" },
  },
];

const DECLARATION =
  /^export (?:declare )?(?:async )?(?:function|const|class|interface|type|let) ([A-Za-z_$][\w$]*)/;

function ensureAnchor(): string {
  const module = `${ANCHOR_DIR}/node_modules/typescript`;
  try {
    Deno.statSync(`${module}/package.json`);
  } catch {
    Deno.mkdirSync(ANCHOR_DIR, { recursive: true });
    const out = new Deno.Command("npm", {
      args: ["install", "--prefix", ANCHOR_DIR, "--no-audit", "--no-fund", "typescript@6.0.3"],
      stdout: "null",
      stderr: "inherit",
    }).outputSync();
    if (!out.success) throw new Error("npm install typescript@6.0.3 failed");
  }
  const version = JSON.parse(Deno.readTextFileSync(`${module}/package.json`)).version;
  if (version !== "6.0.3") throw new Error(`The anchor has typescript ${version}, not 6.0.3`);
  return module;
}

/** The served script files and the sampled positions (exported declarations, spread evenly). */
function sample(corpus: Corpus): { files: string[]; positions: Position[] } {
  const ws = Workspace.openSync({ root: corpus.root, noIgnore: false, allowSecrets: false });
  const files: string[] = [];
  const found: Position[] = [];
  for (const entry of ws.walk("")) {
    if (entry.isDir || !isScriptPath(entry.rel)) continue;
    files.push(entry.rel);
    if (!corpus.include(entry.rel) || entry.rel.endsWith(".d.ts")) continue;
    const text = new TextDecoder().decode(ws.readFileSync(entry.rel));
    text.split("\n").forEach((line, i) => {
      const m = DECLARATION.exec(line);
      if (m) {
        found.push({ path: entry.rel, line: i + 1, column: line.indexOf(m[1]) + 1, name: m[1] });
      }
    });
  }
  const step = Math.max(1, Math.floor(found.length / POSITIONS));
  const positions = found.filter((_, i) => i % step === 0).slice(0, POSITIONS);
  // The rename target comes last.
  const target = found.find((p) => p.path === corpus.rename.path && p.name === corpus.rename.name);
  if (target === undefined) throw new Error(`No declaration of ${corpus.rename.name} found`);
  positions.push(target);
  return { files, positions };
}

interface AnchorRun {
  firstMs: number;
  firstDefinitions: string[];
  results: Array<
    {
      references: string[];
      definitions: string[];
      refsMs: number;
      renameMs: number;
      renameColdMs: number;
    }
  >;
  maxRssKiB: number;
}

/**
 * The anchor's view of a Deno workspace: each member named in the root deno.json's `workspace`
 * list, by its deno.json `name` and `exports`, as TypeScript `paths` (plain JSON configs only, as
 * std's are). Deno resolves `@std/assert` to the member folder; TypeScript resolves nothing
 * without being told. Written here on its own, so that the server's reading of the same files is
 * checked rather than copied.
 */
function workspaceExports(root: string): Record<string, string[]> | undefined {
  let config: { workspace?: unknown };
  try {
    config = JSON.parse(Deno.readTextFileSync(`${root}/deno.json`));
  } catch {
    return undefined;
  }
  if (!Array.isArray(config.workspace)) return undefined;
  const paths: Record<string, string[]> = {};
  for (const member of config.workspace) {
    const dir = `${root}/${String(member).replace(/^\.\//, "")}`;
    let json: { name?: string; exports?: string | Record<string, string> };
    try {
      json = JSON.parse(Deno.readTextFileSync(`${dir}/deno.json`));
    } catch {
      continue;
    }
    if (typeof json.name !== "string" || json.exports === undefined) continue;
    const exports = typeof json.exports === "string" ? { ".": json.exports } : json.exports;
    for (const [sub, target] of Object.entries(exports)) {
      const key = sub === "." ? json.name : `${json.name}/${sub.replace(/^\.\//, "")}`;
      paths[key] = [`${dir}/${target.replace(/^\.\//, "")}`];
    }
  }
  return paths;
}

async function runAnchor(module: string, corpus: Corpus, files: string[], positions: Position[]) {
  const task = `${ANCHOR_DIR}/task.json`;
  Deno.writeTextFileSync(
    task,
    JSON.stringify({
      typescript: module,
      root: corpus.root,
      config: corpus.config,
      files,
      positions,
      paths: corpus.config === null ? workspaceExports(corpus.root) : undefined,
    }),
  );
  const t0 = performance.now();
  const child = new Deno.Command("node", {
    args: [ANCHOR_SCRIPT, task],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const lines: string[] = [];
  let firstWall = 0;
  let partial = "";
  for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
    const parts = (partial + chunk).split("\n");
    partial = parts.pop()!;
    for (const line of parts) {
      if (lines.length === 0) firstWall = performance.now() - t0;
      lines.push(line);
    }
  }
  await child.status;
  const first = JSON.parse(lines[0]);
  const rest = JSON.parse(lines[1]);
  return {
    firstMs: firstWall,
    firstDefinitions: first.definitions,
    results: rest.results,
    maxRssKiB: rest.maxRssKiB,
  } as AnchorRun;
}

function p50(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

function refsOf(answer: Record<string, unknown>): string[] {
  const result = answer.result as { structuredContent?: { lines?: string[] } };
  return (result.structuredContent?.lines ?? []).map((l) => {
    const m = /^(.*?):(\d+):(\d+):/.exec(l)!;
    return `${m[1]}:${m[2]}:${m[3]}`;
  }).sort();
}

function defsOf(answer: Record<string, unknown>): string[] {
  const result = answer.result as {
    structuredContent?: {
      definitions?: Array<{ path: string | null; line: number; column: number }>;
    };
  };
  return (result.structuredContent?.definitions ?? []).filter((d) => d.path !== null).map((d) =>
    `${d.path}:${d.line}:${d.column}`
  );
}

function isError(answer: Record<string, unknown>): boolean {
  return (answer.result as { isError?: boolean } | undefined)?.isError === true;
}

async function runOurs(corpus: Corpus, positions: Position[], anchor: AnchorRun) {
  const peer = new Peer("ours", oursCommand(corpus.root, ["--no-git"]));
  await peer.handshake();
  // Let the server's own warm-up after the handshake (validator, search workers) pass first: the
  // pings measure the main thread while the semantic worker builds, not the start-up.
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  const at = (p: Position) => ({ path: p.path, line: p.line, column: p.column });
  // First call, with pings every 25 ms while the program builds.
  const pings: number[] = [];
  let building = true;
  const pinger = (async () => {
    while (building) {
      const t = performance.now();
      await peer.request("ping");
      pings.push(performance.now() - t);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  })();
  const t0 = performance.now();
  const first = await peer.request("tools/call", {
    name: "go_to_definition",
    arguments: at(positions[0]),
  }, { timeoutMs: 300_000 });
  const firstMs = performance.now() - t0;
  building = false;
  await pinger;
  const refsMs: number[] = [];
  let parityMisses = 0;
  const misses: string[] = [];
  if (JSON.stringify(defsOf(first)) !== JSON.stringify(anchor.firstDefinitions)) {
    parityMisses++;
    misses.push(`first definition of ${positions[0].name}`);
  }
  const fileCounts: number[] = [];
  for (let i = 0; i < positions.length; i++) {
    const p = positions[i];
    const t = performance.now();
    const refs = await peer.request("tools/call", {
      name: "find_references",
      arguments: { ...at(p), head_limit: 0 },
    }, { timeoutMs: 300_000 });
    refsMs.push(performance.now() - t);
    const defs = await peer.request("tools/call", { name: "go_to_definition", arguments: at(p) });
    const want = anchor.results[i];
    const ours = refsOf(refs);
    if (isError(refs) || JSON.stringify(ours) !== JSON.stringify(want.references)) {
      parityMisses++;
      misses.push(
        `references of ${p.name} (${p.path}:${p.line}): ${ours.length} vs ${want.references.length}`,
      );
    }
    if (JSON.stringify(defsOf(defs).sort()) !== JSON.stringify([...want.definitions].sort())) {
      parityMisses++;
      misses.push(`definitions of ${p.name} (${p.path}:${p.line})`);
    }
    fileCounts.push(new Set(want.references.map((r) => r.slice(0, r.indexOf(":")))).size);
  }
  // The rename target (the last position).
  const chosen = positions.length - 1;
  const rename = async () => {
    const t = performance.now();
    const answer = await peer.request("tools/call", {
      name: "rename_symbol",
      arguments: { ...at(positions[chosen]), new_name: "renamedForBench" },
    }, { timeoutMs: 300_000 });
    if (isError(answer)) throw new Error(`rename failed: ${JSON.stringify(answer.result)}`);
    return performance.now() - t;
  };
  const renameCold = await rename();
  const renameWarm = Math.min(await rename(), await rename());
  const rssKiB = procStatusKiB(peer.pid, "VmHWM");
  await peer.close();
  return {
    firstMs,
    pings,
    refsMs,
    renameCold,
    renameWarm,
    chosen,
    files: fileCounts[chosen],
    rssKiB,
    parityMisses,
    misses,
  };
}

function row(
  measure: string,
  ours: string,
  anchor: string,
  ratio: string,
  target: string,
  ok: boolean,
) {
  console.log(
    `| ${measure} | ${ours} | ${anchor} | ${ratio} | ${target} | ${ok ? "met" : "**missed**"} |`,
  );
}

const module = ensureAnchor();
console.log(`# Semantic benchmark: ${serverLabel()}`);
console.log(`load average before: ${loadAverage()}; ${POSITIONS} sampled positions per corpus`);
for (const corpus of CORPORA) {
  const { files, positions } = sample(corpus);
  const anchor = await runAnchor(module, corpus, files, positions);
  const ours = await runOurs(corpus, positions, anchor);
  const anchorRefs = anchor.results.slice(1).map((r) => r.refsMs);
  const oursRefs = ours.refsMs.slice(1);
  const ourP50 = p50(oursRefs);
  const anchorRss = anchor.maxRssKiB / 1024;
  const ourRss = ours.rssKiB / 1024;
  console.log(
    `\n## ${corpus.label} (${files.length} served TS/JS files; ${
      corpus.config ?? "default project"
    }; load ${loadAverage()})\n`,
  );
  console.log("| measure | ours | anchor | ratio | target | |");
  console.log("|---|---|---|---|---|---|");
  row(
    "first semantic call",
    `${ours.firstMs.toFixed(0)} ms`,
    `${anchor.firstMs.toFixed(0)} ms`,
    `${(ours.firstMs / anchor.firstMs).toFixed(2)}x`,
    "<= 1.5x",
    ours.firstMs <= 1.5 * anchor.firstMs,
  );
  row(
    "ping while the program builds (max / p50)",
    `${Math.max(...ours.pings).toFixed(0)} / ${
      p50(ours.pings).toFixed(1)
    } ms (${ours.pings.length} pings)`,
    "",
    "",
    "< 100 ms",
    Math.max(...ours.pings) < 100,
  );
  row(
    "warm find_references p50",
    `${ourP50.toFixed(1)} ms`,
    `${p50(anchorRefs).toFixed(1)} ms`,
    `${(ourP50 / p50(anchorRefs)).toFixed(2)}x`,
    "<= 150 ms",
    ourP50 <= 150,
  );
  const anchorRename = anchor.results[ours.chosen].renameMs;
  row(
    `rename dry run, ${positions[ours.chosen].name} (${ours.files} files), warm`,
    `${ours.renameWarm.toFixed(0)} ms (first ${ours.renameCold.toFixed(0)} ms)`,
    `${anchorRename.toFixed(0)} ms`,
    "",
    "<= 1000 ms",
    ours.renameWarm <= 1000,
  );
  row(
    "peak RSS",
    `${ourRss.toFixed(0)} MiB`,
    `${anchorRss.toFixed(0)} MiB`,
    `${(ourRss / anchorRss).toFixed(2)}x`,
    `<= ${(1.3 * anchorRss + 150).toFixed(0)} MiB (1.3x + 150)`,
    ourRss <= 1.3 * anchorRss + 150,
  );
  row(
    "parity (definitions + references per position)",
    `${positions.length * 2 + 1 - ours.parityMisses}/${positions.length * 2 + 1} equal`,
    "",
    "",
    "all",
    ours.parityMisses === 0,
  );
  for (const miss of ours.misses) console.log(`- parity miss: ${miss}`);
}
