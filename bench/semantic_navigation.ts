// deno-lint-ignore-file no-console
/**
 * Deeper navigation benchmark (docs/BENCHMARKS.md "Semantic: deeper navigation"): our server
 * against the same TypeScript (6.0.3) run standalone under Node over the same project
 * (bench/semantic_navigation_anchor.cjs), in the same run, on vuejs/core (tsconfig.json at the
 * root, `paths` to every package's src; positions in packages/<name>/src):
 * - go_to_definition target "implementations" on exported interfaces and classes (ours: the client
 *   round trip, which asks the implementations and the type at the position; the anchor:
 *   getImplementationAtPosition + getQuickInfoAtPosition);
 * - find_references calls "incoming" and "outgoing", depth 1, on exported functions (ours: the
 *   round trip; the anchor: prepareCallHierarchy + provideCallHierarchyIncoming/OutgoingCalls);
 * - the type at a position: plain go_to_definition on exported declarations, which carries the
 *   quick info (ours: the round trip; the anchor: getDefinitionAtPosition + getQuickInfoAtPosition);
 * - warm p50 of each, after one first call has built the program;
 * - parity: implementation places, call places and the quick-info text, per position.
 *
 *   deno run --allow-read --allow-write --allow-run --allow-env bench/semantic_navigation.ts \
 *     [--vue DIR] [--positions 24]
 *
 * DIR is a clone of github.com/vuejs/core (default $BENCH_DIR/vuejs+core); its node_modules need
 * not be installed (both sides then miss the same type packages).
 *
 * The anchor's typescript@6.0.3 is installed with npm into $BENCH_DIR/ts-anchor (default
 * /var/tmp/shipcode-bench) on the first run, as bench/semantic.ts does.
 */
import { loadAverage, Peer } from "./client.ts";
import { oursCommand, serverLabel } from "./servers.ts";
import { flagValue, numFlag } from "./flags.ts";
import { ensureAnchor, streamAnchor } from "./ts_anchor.ts";
import {
  at,
  declarationsIn,
  p50Row,
  type Position,
  spread,
  timedCalls,
} from "./semantic_support.ts";
import { Workspace } from "../lib/workspace/workspace.ts";

const POSITIONS = numFlag("--positions", 24);
const BENCH_DIR = Deno.env.get("BENCH_DIR") ?? "/var/tmp/shipcode-bench";
const ROOT = flagValue("--vue") ?? `${BENCH_DIR}/vuejs+core`;
const CONFIG = "tsconfig.json";
const ANCHOR_SCRIPT = new URL("./semantic_navigation_anchor.cjs", import.meta.url).pathname;
const TARGET_MS = 150;

const DECLARATION =
  /^export (?:declare )?(?:abstract )?(?:async )?(function|const|class|interface|type|let) ([A-Za-z_$][\w$]*)/;

/** Exported declarations in packages/<name>/src (tests and .d.ts left out), by kind. */
function sample(): { implementations: Position[]; calls: Position[]; types: Position[] } {
  const ws = Workspace.openSync({ root: ROOT, noIgnore: false, allowSecrets: false });
  const byKind = {
    types: [] as Position[],
    calls: [] as Position[],
    implementations: [] as Position[],
  };
  for (const entry of ws.walk("packages")) {
    if (entry.isDir || !/^packages\/[^/]+\/src\/.*\.ts$/.test(entry.rel)) continue;
    if (entry.rel.endsWith(".d.ts")) continue;
    const text = new TextDecoder().decode(ws.readFileSync(entry.rel));
    const found = declarationsIn(entry.rel, text, { pattern: DECLARATION, nameGroup: 2 });
    for (const { position: p, match: m } of found) {
      byKind.types.push(p);
      if (m[1] === "function") byKind.calls.push(p);
      if (m[1] === "interface" || m[1] === "class") byKind.implementations.push(p);
    }
  }
  return {
    implementations: spread(byKind.implementations, POSITIONS),
    calls: spread(byKind.calls, POSITIONS),
    types: spread(byKind.types, POSITIONS),
  };
}

interface Timed {
  ms: number;
  places?: string[];
  type?: string;
}

interface AnchorRun {
  firstMs: number;
  results: Record<"implementations" | "incoming" | "outgoing" | "type", Timed[]>;
}

async function runAnchor(module: string, positions: ReturnType<typeof sample>) {
  const { lines, firstMs } = await streamAnchor(ANCHOR_SCRIPT, {
    name: "navigation_task.json",
    content: {
      typescript: module,
      root: ROOT,
      config: CONFIG,
      first: positions.types[0],
      ...positions,
    },
  });
  return { firstMs, results: JSON.parse(lines[1]).results } as AnchorRun;
}

type Structured = Record<string, unknown>;

function structuredOf(answer: Record<string, unknown>): Structured {
  const result = answer.result as { structuredContent?: Structured; isError?: boolean };
  if (result?.isError === true) return { error: true };
  return result?.structuredContent ?? {};
}

function definitionPlaces(s: Structured): string[] {
  const list = (s.definitions ?? []) as Array<Record<string, unknown>>;
  return list.map((d) => `${d.path ?? d.external}:${d.line}:${d.column}`);
}

/** The places of a depth-1 call listing's lines (the first line names the item). */
function callPlaces(s: Structured): string[] {
  const lines = (s.lines ?? []) as string[];
  return lines.slice(1).flatMap((l) => {
    const m = /^(\S+?):(\d+):(\d+): /.exec(l);
    return m === null ? [] : [`${m[1]}:${m[2]}:${m[3]}`];
  });
}

async function runOurs(positions: ReturnType<typeof sample>, anchor: AnchorRun) {
  const peer = new Peer("ours", oursCommand(ROOT, ["--no-git"]));
  await peer.handshake();
  const timed = timedCalls(peer);
  const call = async (name: string, args: Record<string, unknown>) => {
    const { ms, answer } = await timed(name, args);
    return { ms, s: structuredOf(answer) };
  };
  const first = await call("go_to_definition", at(positions.types[0]));
  const misses: string[] = [];
  const times = {
    implementations: [] as number[],
    incoming: [] as number[],
    outgoing: [] as number[],
    type: [] as number[],
  };
  for (const [i, p] of positions.implementations.entries()) {
    const got = await call("go_to_definition", { ...at(p), target: "implementations" });
    times.implementations.push(got.ms);
    const want = anchor.results.implementations[i].places ?? [];
    if (JSON.stringify(definitionPlaces(got.s)) !== JSON.stringify(want)) {
      misses.push(
        `implementations of ${p.name} (${p.path}:${p.line}): ${
          definitionPlaces(got.s).length
        } vs ${want.length}`,
      );
    }
  }
  for (const direction of ["incoming", "outgoing"] as const) {
    for (const [i, p] of positions.calls.entries()) {
      const got = await call("find_references", {
        ...at(p),
        calls: direction,
        depth: 1,
        head_limit: 0,
      });
      times[direction].push(got.ms);
      const want = anchor.results[direction][i].places ?? [];
      if (JSON.stringify(callPlaces(got.s)) !== JSON.stringify(want)) {
        misses.push(
          `${direction} calls of ${p.name} (${p.path}:${p.line}): ${
            callPlaces(got.s).length
          } vs ${want.length}`,
        );
      }
    }
  }
  for (const [i, p] of positions.types.entries()) {
    const got = await call("go_to_definition", at(p));
    times.type.push(got.ms);
    const want = anchor.results.type[i].type ?? "";
    if ((got.s.type ?? "") !== want) misses.push(`type at ${p.name} (${p.path}:${p.line})`);
  }
  await peer.close();
  return { firstMs: first.ms, times, misses };
}

const module = ensureAnchor();
const positions = sample();
console.log(`# Deeper navigation benchmark: ${serverLabel()}`);
console.log(
  `vuejs/core, ${CONFIG}; ${positions.implementations.length} interfaces/classes, ` +
    `${positions.calls.length} functions, ${positions.types.length} declarations; ` +
    `load average before: ${loadAverage()}`,
);
const anchor = await runAnchor(module, positions);
const ours = await runOurs(positions, anchor);
console.log(`\nload average after: ${loadAverage()}\n`);
console.log("| measure | ours p50 | anchor p50 | ratio | target | |");
console.log("|---|---|---|---|---|---|");
console.log(
  `| first call (program build) | ${ours.firstMs.toFixed(0)} ms | ${
    anchor.firstMs.toFixed(0)
  } ms | ` +
    `${(ours.firstMs / anchor.firstMs).toFixed(2)}x | | |`,
);
const rows: Array<[string, keyof AnchorRun["results"]]> = [
  ["implementations (go_to_definition target)", "implementations"],
  ["incoming calls, depth 1", "incoming"],
  ["outgoing calls, depth 1", "outgoing"],
  ["type at a position (go_to_definition)", "type"],
];
for (const [label, key] of rows) {
  p50Row(label, { ours: ours.times[key], anchor: anchor.results[key].map((r) => r.ms) }, TARGET_MS);
}
console.log(`\nparity misses: ${ours.misses.length}`);
for (const miss of ours.misses) console.log(`- ${miss}`);
