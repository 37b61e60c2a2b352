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
import { ensureAnchor, streamAnchor } from "./ts_anchor.ts";
import {
  askPositions,
  at,
  declarationsIn,
  definitionPlaces,
  firstCallRow,
  p50,
  parityRows,
  peakRssRow,
  type Position,
  row,
  spread,
  timeRename,
  whilePinging,
} from "./semantic_support.ts";
import { Workspace } from "../lib/workspace/workspace.ts";
import { isScriptPath } from "../lib/semantic/typescript/script_paths.ts";

const POSITIONS = numFlag("--positions", 24);
const SETTLE_MS = numFlag("--settle-ms", 2000);
const ANCHOR_SCRIPT = new URL("./semantic_anchor.cjs", import.meta.url).pathname;

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
    const declarations = declarationsIn(entry.rel, text, { pattern: DECLARATION, nameGroup: 1 });
    for (const { position } of declarations) found.push(position);
  }
  const positions = spread(found, POSITIONS);
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
  const { lines, firstMs } = await streamAnchor(ANCHOR_SCRIPT, {
    name: "task.json",
    content: {
      typescript: module,
      root: corpus.root,
      config: corpus.config,
      files,
      positions,
      paths: corpus.config === null ? workspaceExports(corpus.root) : undefined,
    },
  });
  const first = JSON.parse(lines[0]);
  const rest = JSON.parse(lines[1]);
  return {
    firstMs,
    firstDefinitions: first.definitions,
    results: rest.results,
    maxRssKiB: rest.maxRssKiB,
  } as AnchorRun;
}

async function runOurs(corpus: Corpus, positions: Position[], anchor: AnchorRun) {
  const peer = new Peer("ours", oursCommand(corpus.root, ["--no-git"]));
  await peer.handshake();
  // Let the server's own warm-up after the handshake (validator, search workers) pass first: the
  // pings measure the main thread while the semantic worker builds, not the start-up.
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  // First call, with pings every 25 ms while the program builds.
  const pings: number[] = [];
  const ping = async () => {
    const t = performance.now();
    await peer.request("ping");
    pings.push(performance.now() - t);
  };
  const { value: first, ms: firstMs } = await whilePinging(
    ping,
    () =>
      peer.request("tools/call", { name: "go_to_definition", arguments: at(positions[0]) }, {
        timeoutMs: 300_000,
      }),
  );
  const misses: string[] = [];
  if (JSON.stringify(definitionPlaces(first)) !== JSON.stringify(anchor.firstDefinitions)) {
    misses.push(`first definition of ${positions[0].name}`);
  }
  const asked = await askPositions(peer, positions, anchor.results);
  misses.push(...asked.misses);
  const fileCounts = anchor.results.map((want) =>
    new Set(want.references.map((r) => r.slice(0, r.indexOf(":")))).size
  );
  // The rename target (the last position).
  const chosen = positions.length - 1;
  const renamed = await timeRename(peer, {
    target: positions[chosen],
    newName: "renamedForBench",
  });
  const rssKiB = procStatusKiB(peer.pid, "VmHWM");
  await peer.close();
  return {
    firstMs,
    pings,
    refsMs: asked.refsMs,
    renameCold: renamed.cold,
    renameWarm: renamed.warm,
    chosen,
    files: fileCounts[chosen],
    rssKiB,
    misses,
  };
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
  firstCallRow(ours.firstMs, anchor.firstMs);
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
  peakRssRow(ourRss, anchorRss);
  parityRows(positions.length * 2 + 1, ours.misses);
}
