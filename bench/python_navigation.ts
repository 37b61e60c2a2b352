// deno-lint-ignore-file no-console
/**
 * Python deeper navigation benchmark (docs/BENCHMARKS.md "Semantic: deeper navigation"): our
 * server against the same pyright (1.1.414) standalone under Node (its language server over stdio,
 * empty PATH and HOME: tests/semantic/python/pyright_oracle.ts), one after the other in the same
 * run, on psf/requests (positions: `def`/`class` declarations of src/requests, spread evenly):
 * - the type at a position: plain go_to_definition, which carries pyright's hover (ours: the
 *   client round trip; the anchor: textDocument/definition + textDocument/hover);
 * - find_references calls "incoming" and "outgoing", depth 1 (ours: the round trip; the anchor:
 *   prepareCallHierarchy + callHierarchy/incomingCalls or outgoingCalls, walked as the engine
 *   walks, tests/semantic/python/navigation_oracle.ts);
 * - implementations: go_to_definition target "implementations" at classes that other classes of
 *   src/requests name as bases and at their methods that such a subclass defines again (ours: the
 *   round trip; the anchor: the class's references kept when they stand in a class statement's
 *   bases and resolve to it, walked to the end, and for a method the members of that name the
 *   subclasses define: tests/semantic/python/implementations_oracle.ts);
 * - warm p50 of each, after a first call on each side; parity of the call places and of the
 *   implementations.
 *
 *   deno run --allow-read --allow-write --allow-run --allow-env bench/python_navigation.ts \
 *     [--requests DIR] [--positions 16] [--hierarchy-positions 12]
 *
 * (default DIR: $CORPORA/requests, CORPORA defaulting to $BENCH_DIR/corpora).
 */
import { loadAverage, Peer } from "./client.ts";
import { oursCommand, serverLabel } from "./servers.ts";
import { flagValue, numFlag } from "./flags.ts";
import {
  at,
  declarationsIn,
  p50Row,
  type Position,
  spread,
  timedCalls,
} from "./semantic_support.ts";
import { Workspace } from "../lib/workspace/workspace.ts";
import { findNode, PyrightOracle } from "../tests/semantic/python/pyright_oracle.ts";
import { PythonNavigationOracle } from "../tests/semantic/python/navigation_oracle.ts";
import {
  oracleOverrides,
  oracleSubclasses,
} from "../tests/semantic/python/implementations_oracle.ts";

const POSITIONS = numFlag("--positions", 16);
const HIERARCHY_POSITIONS = numFlag("--hierarchy-positions", 12);
const CORPORA_DIR = Deno.env.get("CORPORA") ??
  `${Deno.env.get("BENCH_DIR") ?? "/var/tmp/shipcode-bench"}/corpora`;
const ROOT = flagValue("--requests") ?? `${CORPORA_DIR}/requests`;
const TARGET_MS = 150;
const DECLARATION = /^(\s*)(?:async )?(?:def|class) ([A-Za-z_]\w*)/;
const CLASS_HEAD = /^(\s*)class ([A-Za-z_]\w*)\s*(?:\((.*)\))?\s*:/;
const METHOD_HEAD = /^(\s*)(?:async )?def ([A-Za-z_]\w*)/;

function sample(): Position[] {
  const ws = Workspace.openSync({ root: ROOT, noIgnore: false, allowSecrets: false });
  const found: Position[] = [];
  for (const entry of ws.walk("src/requests")) {
    if (entry.isDir || !entry.rel.endsWith(".py")) continue;
    const text = new TextDecoder().decode(ws.readFileSync(entry.rel));
    const declarations = declarationsIn(entry.rel, text, { pattern: DECLARATION, nameGroup: 2 });
    for (const { position } of declarations) found.push(position);
  }
  return spread(found, POSITIONS);
}

/** A class position and, for a method position, the method's name. */
interface HierarchyPosition extends Position {
  cls: Position;
  method: string | null;
}

interface ClassHead extends Position {
  bases: string[];
  methods: Position[];
}

/** The one-line class statements of src/requests, with their base names and methods. */
function classHeads(): ClassHead[] {
  const ws = Workspace.openSync({ root: ROOT, noIgnore: false, allowSecrets: false });
  const heads: ClassHead[] = [];
  for (const entry of ws.walk("src/requests")) {
    if (entry.isDir || !entry.rel.endsWith(".py")) continue;
    const lines = new TextDecoder().decode(ws.readFileSync(entry.rel)).split("\n");
    lines.forEach((line, i) => {
      const m = CLASS_HEAD.exec(line);
      if (m === null) return;
      const indent = m[1].length;
      const methods: Position[] = [];
      for (let j = i + 1; j < lines.length; j++) {
        const inner = /^(\s*)\S/.exec(lines[j]);
        if (inner !== null && inner[1].length <= indent) break;
        const def = METHOD_HEAD.exec(lines[j]);
        if (def !== null && def[1].length === indent + 4) {
          const column = lines[j].indexOf(def[2], def[1].length) + 1;
          methods.push({ path: entry.rel, line: j + 1, column, name: def[2] });
        }
      }
      const bases = [...(m[3] ?? "").matchAll(/[A-Za-z_]\w*/g)].map((b) => b[0]);
      const column = line.indexOf(m[2], indent) + 1;
      heads.push({ path: entry.rel, line: i + 1, column, name: m[2], bases, methods });
    });
  }
  return heads;
}

/**
 * Classes another class names as a base, and their methods a subclass so named defines again
 * (found by name here; which of them pyright confirms is the answer being measured).
 */
function sampleHierarchy(): HierarchyPosition[] {
  const heads = classHeads();
  const classes: HierarchyPosition[] = [];
  const methods: HierarchyPosition[] = [];
  for (const head of heads) {
    const subs = heads.filter((h) => h !== head && h.bases.includes(head.name));
    if (subs.length === 0) continue;
    const cls = { path: head.path, line: head.line, column: head.column, name: head.name };
    classes.push({ ...cls, cls, method: null });
    for (const method of head.methods) {
      if (subs.some((s) => s.methods.some((m) => m.name === method.name))) {
        methods.push({ ...method, cls, method: method.name });
      }
    }
  }
  const half = Math.ceil(HIERARCHY_POSITIONS / 2);
  return [...spread(classes, half), ...spread(methods, HIERARCHY_POSITIONS - half)];
}

type Kind = "type" | "incoming" | "outgoing" | "implementations";

const place = (p: Position) => `${p.path}:${p.line}:${p.column}`;

async function runAnchor(node: string, positions: Position[], hierarchy: HierarchyPosition[]) {
  const oracle = await PyrightOracle.start(node, ROOT);
  const nav = new PythonNavigationOracle(oracle);
  const first = positions[0];
  await oracle.definitions(first.path, first.line, first.column);
  const times: Record<Kind, number[]> = {
    type: [],
    incoming: [],
    outgoing: [],
    implementations: [],
  };
  const places: Record<"incoming" | "outgoing" | "implementations", string[][]> = {
    incoming: [],
    outgoing: [],
    implementations: [],
  };
  for (const p of positions) {
    const t = performance.now();
    await oracle.definitions(p.path, p.line, p.column);
    await oracle.request("textDocument/hover", {
      textDocument: { uri: `file://${ROOT}/${p.path}` },
      position: { line: p.line - 1, character: p.column - 1 },
    });
    times.type.push(performance.now() - t);
  }
  for (const direction of ["incoming", "outgoing"] as const) {
    for (const p of positions) {
      const t = performance.now();
      const walk = await nav.calls(p.path, p, { direction, depth: 1 });
      times[direction].push(performance.now() - t);
      places[direction].push(
        walk.calls.map((c) => `${c.path ?? c.external}:${c.line}:${c.column}`),
      );
    }
  }
  for (const p of hierarchy) {
    const t = performance.now();
    const found = p.method === null
      ? await oracleSubclasses(oracle, place(p.cls))
      : await oracleOverrides(oracle, place(p.cls), p.method);
    times.implementations.push(performance.now() - t);
    places.implementations.push(found);
  }
  await oracle.stop();
  return { times, places };
}

/** The places of a depth-1 call listing's lines (the first line names the item). */
function callPlaces(answer: Record<string, unknown>): string[] {
  const result = answer.result as { structuredContent?: { lines?: string[] } };
  return (result.structuredContent?.lines ?? []).slice(1).flatMap((l) => {
    const m = /^(\S+?):(\d+):(\d+): /.exec(l);
    return m === null ? [] : [`${m[1]}:${m[2]}:${m[3]}`];
  });
}

/** The places of go_to_definition's definitions, sorted. */
function definitionPlaces(answer: Record<string, unknown>): string[] {
  const result = answer.result as {
    structuredContent?: {
      definitions?: Array<{ path: string | null; line: number; column: number }>;
    };
  };
  return (result.structuredContent?.definitions ?? []).map((d) => `${d.path}:${d.line}:${d.column}`)
    .sort();
}

async function runOurs(
  positions: Position[],
  hierarchy: HierarchyPosition[],
  anchor: Awaited<ReturnType<typeof runAnchor>>,
) {
  const peer = new Peer("ours", oursCommand(ROOT, ["--no-git"]));
  await peer.handshake();
  const call = timedCalls(peer);
  await call("go_to_definition", at(positions[0]));
  const times: Record<Kind, number[]> = {
    type: [],
    incoming: [],
    outgoing: [],
    implementations: [],
  };
  const misses: string[] = [];
  for (const p of positions) times.type.push((await call("go_to_definition", at(p))).ms);
  for (const direction of ["incoming", "outgoing"] as const) {
    for (const [i, p] of positions.entries()) {
      const got = await call("find_references", { ...at(p), calls: direction, head_limit: 0 });
      times[direction].push(got.ms);
      const ours = callPlaces(got.answer);
      const want = anchor.places[direction][i];
      if (JSON.stringify(ours) !== JSON.stringify(want)) {
        misses.push(
          `${direction} calls of ${p.name} (${p.path}:${p.line}): ${ours.length} vs ${want.length}`,
        );
      }
    }
  }
  for (const [i, p] of hierarchy.entries()) {
    const got = await call("go_to_definition", { ...at(p), target: "implementations" });
    times.implementations.push(got.ms);
    const ours = definitionPlaces(got.answer);
    const want = anchor.places.implementations[i];
    if (JSON.stringify(ours) !== JSON.stringify(want)) {
      misses.push(
        `implementations of ${p.method === null ? "class" : "method"} ${p.name} ` +
          `(${p.path}:${p.line}): ${ours.length} vs ${want.length}`,
      );
    }
  }
  await peer.close();
  return { times, misses };
}

const node = findNode();
if (node === null) throw new Error("node is not on PATH: the anchor runs pyright under Node");
const positions = sample();
const hierarchy = sampleHierarchy();
console.log(`# Python deeper navigation benchmark: ${serverLabel()}`);
console.log(
  `psf/requests, ${positions.length} declarations of src/requests, ${hierarchy.length} class ` +
    `and method positions with subclasses; load average before: ${loadAverage()}`,
);
const anchor = await runAnchor(node, positions, hierarchy);
const ours = await runOurs(positions, hierarchy, anchor);
const listed = anchor.places.implementations.map((l) => l.length);
console.log(
  `implementations listed by the anchor per position: ${listed.join(", ")} ` +
    `(${hierarchy.map((p) => p.method === null ? p.name : `${p.cls.name}.${p.name}`).join(", ")})`,
);
console.log(`\nload average after: ${loadAverage()}\n`);
console.log("| measure | ours p50 | anchor p50 | ratio | target | |");
console.log("|---|---|---|---|---|---|");
const rows: Array<[string, Kind]> = [
  ["type at a position (go_to_definition)", "type"],
  ["incoming calls, depth 1", "incoming"],
  ["outgoing calls, depth 1", "outgoing"],
  ["implementations (go_to_definition)", "implementations"],
];
for (const [label, kind] of rows) {
  p50Row(label, { ours: ours.times[kind], anchor: anchor.times[kind] }, TARGET_MS);
}
console.log(`\nparity misses: ${ours.misses.length}`);
for (const miss of ours.misses) console.log(`- ${miss}`);
