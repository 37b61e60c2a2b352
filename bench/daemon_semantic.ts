// deno-lint-ignore-file no-console
/**
 * A new session's first type-aware answer through a daemon that already holds the project's
 * program (docs/BENCHMARKS.md "The shared daemon: a new session's first type-aware answer"),
 * against the standalone engine's cold time to the same answer, in the same run:
 *
 * - session A (a relay with `--daemon`, its own socket folder, `--daemon-idle-s 0`, its own
 *   `--cache-dir`) asks a first question, so that the daemon builds the program (TypeScript:
 *   go_to_definition, which builds the owning project, then find_references, which builds every
 *   other project that holds the file; a question refused at the 20 s bound on a loaded machine
 *   is asked again); A stays open;
 * - then, for each question, a new session B (a new relay on the same key) asks it right after
 *   its handshake, timed from the tools/call to its answer, and closes; the next B comes after
 *   the last one has gone, so each also shows that a session's end leaves the engine to the
 *   others;
 * - the anchor, cold, asked the same question: TypeScript 6.0.3 standalone under Node
 *   (bench/daemon_semantic_anchor.cjs; references merged over the projects the daemon's answer
 *   names, as ours are), timed from its spawn to its exit; or pyright 1.1.414 standalone under
 *   Node (tests/semantic/python/pyright_oracle.ts), timed from its spawn to the answer, asked
 *   once it has listed the workspace;
 * - parity: the answers equal, as path:line:column inside the root;
 * - a session that leaves while the daemon builds: in a fresh daemon, session A asks its first
 *   question, B asks another in the same project 0.3 s later, and A's relay is killed (SIGKILL)
 *   2.5 s after its call; B's time from its call to its answer. With BENCH_BEFORE_DIR (another
 *   checkout, e.g. a `git archive` of an older commit) the same is measured on it in each round,
 *   the two alternating.
 *
 *   deno run --allow-read --allow-write --allow-run --allow-env bench/daemon_semantic.ts \
 *     --root /path/to/vuejs+core [--rounds 3]
 *   deno run --allow-read --allow-write --allow-run --allow-env bench/daemon_semantic.ts \
 *     --engine pyright --root /path/to/requests [--rounds 3]
 *
 * The anchor's typescript@6.0.3 is installed with npm into $BENCH_DIR/ts-anchor (default
 * /var/tmp/shipcode-bench) on the first run, as bench/monorepo_first.ts does. Every daemon the
 * bench starts is killed at the end.
 */
import { loadAverage, Peer } from "./client.ts";
import { median, oursCommand, serverLabel } from "./servers.ts";
import { flagValue, numFlag } from "./flags.ts";
import { daemonPids, killDaemons } from "./daemons.ts";
import { findNode, PyrightOracle } from "../tests/semantic/python/pyright_oracle.ts";

const ROOT = flagValue("--root");
/** typescript (vuejs/core) or pyright (psf/requests). */
const ENGINE = flagValue("--engine") ?? "typescript";
const ROUNDS = numFlag("--rounds", 3);
/** An older checkout to measure the leaving session against (optional). */
const BEFORE_DIR = Deno.env.get("BENCH_BEFORE_DIR");
/** When session A's relay is killed, after its call went out. */
const LEAVE_AFTER_MS = 2500;
const BENCH_DIR = Deno.env.get("BENCH_DIR") ?? "/var/tmp/shipcode-bench";
const ANCHOR_DIR = `${BENCH_DIR}/ts-anchor`;
const ANCHOR_SCRIPT = new URL("./daemon_semantic_anchor.cjs", import.meta.url).pathname;
/** The owning project of every position asked (vuejs/core's root tsconfig). */
const OWNER = "tsconfig.json";

type Tool = "go_to_definition" | "find_references";

interface Question {
  label: string;
  tool: Tool;
  path: string;
  line: number;
  column: number;
}

/** A position on the line of `path` that matches `pattern`, at `name`'s first occurrence. */
function at(
  root: string,
  label: string,
  tool: Tool,
  path: string,
  pattern: RegExp,
  name: string,
): Question {
  const lines = Deno.readTextFileSync(`${root}/${path}`).split("\n");
  const index = lines.findIndex((l) => pattern.test(l));
  if (index < 0) throw new Error(`no line matching ${pattern} in ${path}`);
  const column = lines[index].search(new RegExp(`\\b${name}\\b`)) + 1;
  return { label, tool, path, line: index + 1, column };
}

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
  return module;
}

const top = await Deno.makeTempDir({ prefix: "shipcode-bench-daemon-semantic-" });
let folders = 0;
/** A fresh XDG_RUNTIME_DIR (mode 0700) and cache folder: a daemon of its own. */
async function freshDaemonPlace(): Promise<{ runtime: string; cache: string }> {
  const runtime = `${top}/run${folders}`;
  const cache = `${top}/cache${folders++}`;
  await Deno.mkdir(runtime, { mode: 0o700 });
  await Deno.chmod(runtime, 0o700);
  await Deno.mkdir(cache);
  return { runtime, cache };
}

function relay(place: { runtime: string; cache: string }, dir?: string): Peer {
  Deno.env.set("XDG_RUNTIME_DIR", place.runtime);
  return new Peer(
    "ours",
    oursCommand(ROOT!, [
      "--daemon",
      "--daemon-idle-s",
      "0",
      "--cache-dir",
      place.cache,
      "--no-git",
    ], dir),
  );
}

interface Asked {
  ms: number;
  answer: string[];
  projects: string[];
  /** The error B got instead of an answer (the leaving rounds only). */
  error?: string;
}

/** Asks one question, timed from the tools/call to its answer. */
async function ask(peer: Peer, q: Question): Promise<Asked> {
  const t0 = performance.now();
  const reply = await peer.request("tools/call", {
    name: q.tool,
    arguments: {
      path: q.path,
      line: q.line,
      column: q.column,
      ...(q.tool === "find_references" ? { head_limit: 0, include_definitions: true } : {}),
    },
  }, { timeoutMs: 600_000 });
  const ms = performance.now() - t0;
  const result = reply.result as {
    isError?: boolean;
    structuredContent?: Record<string, unknown>;
  } | undefined;
  if (result === undefined || result.isError) {
    throw new Error(`${q.label} answered ${JSON.stringify(reply).slice(0, 400)}`);
  }
  const s = result.structuredContent ?? {};
  if (q.tool === "go_to_definition") {
    const defs = s.definitions as Array<
      { path: string | null; line: number; column: number; external?: string }
    >;
    const answer = defs.filter((d) => d.path !== null).map((d) => `${d.path}:${d.line}:${d.column}`)
      .sort();
    return { ms, answer, projects: [OWNER] };
  }
  const answer = (s.lines as string[]).map((l) => l.match(/^(.*?:\d+:\d+):/)![1]).sort();
  const projects = Array.isArray(s.projects) ? s.projects as string[] : [OWNER];
  return { ms, answer, projects: projects.map((p) => p || OWNER) };
}

interface Anchored {
  wall: number;
  ms: number;
  answer: string[];
  files: number;
}

/** TypeScript standalone, cold: its spawn to its exit (bench/daemon_semantic_anchor.cjs). */
function typescriptCold(module: string, q: Question, configs: string[]): Anchored {
  const task = `${top}/anchor_task.json`;
  Deno.writeTextFileSync(
    task,
    JSON.stringify({ typescript: module, root: ROOT, configs, ...q }),
  );
  const t0 = performance.now();
  const out = new Deno.Command("node", { args: [ANCHOR_SCRIPT, task], stdout: "piped" })
    .outputSync();
  const wall = performance.now() - t0;
  if (!out.success) throw new Error(`the anchor failed on ${q.label}`);
  const parsed = JSON.parse(new TextDecoder().decode(out.stdout));
  return { wall, ms: parsed.ms, answer: [...parsed.answer].sort(), files: parsed.files };
}

/**
 * Session A's question, asked again when refused at the time bound (a machine so loaded that a
 * program build takes over 20 s): the bench needs the program built, not A's time.
 */
async function patiently(peer: Peer, q: Question): Promise<Asked> {
  for (let tries = 1;; tries++) {
    try {
      return await ask(peer, q);
    } catch (error) {
      if (tries === 3 || !String(error).includes("no answer within")) throw error;
      console.log(`  A ${q.label}: refused at the time bound, asked again; load ${loadAverage()}`);
    }
  }
}

/**
 * In a fresh daemon (of the checkout `dir`): A asks `first`, B asks `q` 0.3 s later, A's relay
 * is killed LEAVE_AFTER_MS after A's call; B's time from its call to its answer.
 */
async function leaving(first: Question, q: Question, dir?: string): Promise<Asked> {
  const place = await freshDaemonPlace();
  const a = relay(place, dir);
  const b = relay(place, dir);
  await a.handshake();
  await b.handshake();
  const t0 = performance.now();
  const fromA = ask(a, first).catch(() => null);
  await new Promise((r) => setTimeout(r, 300));
  const tB = performance.now();
  const fromB = ask(b, q).catch((error: Error): Asked => ({
    ms: performance.now() - tB,
    answer: [],
    projects: [],
    error: error.message.slice(error.message.indexOf('"text":"') + 8).slice(0, 60),
  }));
  await new Promise((r) => setTimeout(r, t0 + LEAVE_AFTER_MS - performance.now()));
  a.kill();
  await fromA;
  const answered = await fromB;
  await b.close();
  return answered;
}

/** What the rounds ask on one corpus, and the standalone engine that answers it cold. */
interface Setup {
  /** Session A's questions before `first` (one program build each, within the time bound). */
  before: Question[];
  /** Session A's question: the daemon builds the program. */
  first: Question;
  /** Each asked by a new session B. */
  questions: Question[];
  /** B's question while A leaves mid-build. */
  leave: Question;
  cold(q: Question, fromA: Asked): Promise<Anchored>;
}

function typescriptSetup(root: string): Setup {
  const module = ensureAnchor();
  const first = at(
    root,
    "references toValue (ref.ts), session A",
    "find_references",
    "packages/reactivity/src/ref.ts",
    /^export function toValue\b/,
    "toValue",
  );
  const definition = at(
    root,
    "definition isRef (componentOptions.ts)",
    "go_to_definition",
    "packages/runtime-core/src/componentOptions.ts",
    /if \(isRef\(injected\)\)/,
    "isRef",
  );
  return {
    // The owning project first, then the other projects that hold the file (references).
    before: [{
      ...first,
      label: "definition toValue (ref.ts), session A",
      tool: "go_to_definition",
    }],
    first,
    questions: [
      { ...first, label: "references toValue (ref.ts), the same as A" },
      definition,
      at(
        root,
        "references isRef (ref.ts)",
        "find_references",
        "packages/reactivity/src/ref.ts",
        /^export function isRef\(r: any\)/,
        "isRef",
      ),
    ],
    leave: definition,
    cold: (q, fromA) =>
      Promise.resolve(
        typescriptCold(module, q, q.tool === "find_references" ? fromA.projects : [OWNER]),
      ),
  };
}

function pyrightSetup(root: string): Setup {
  const node = findNode();
  if (node === null) {
    throw new Error("node is not on PATH: the anchor (pyright under Node) needs it");
  }
  const first = at(
    root,
    "definition Session (api.py), session A",
    "go_to_definition",
    "src/requests/api.py",
    /sessions\.Session\(\)/,
    "Session",
  );
  const definition = at(
    root,
    "definition merge_setting (sessions.py)",
    "go_to_definition",
    "src/requests/sessions.py",
    /return merge_setting\(request_hooks/,
    "merge_setting",
  );
  return {
    before: [],
    first,
    questions: [
      { ...first, label: "definition Session (api.py), the same as A" },
      definition,
      at(
        root,
        "references to_native_string (_internal_utils.py)",
        "find_references",
        "src/requests/_internal_utils.py",
        /^def to_native_string/,
        "to_native_string",
      ),
    ],
    leave: definition,
    cold: (q) => pyrightCold(node, root, q),
  };
}

/** pyright standalone, cold: its spawn to the answer (after it has listed the workspace). */
async function pyrightCold(node: string, root: string, q: Question): Promise<Anchored> {
  const t0 = performance.now();
  const oracle = await PyrightOracle.start(node, root);
  const found = q.tool === "go_to_definition"
    ? await oracle.definitions(q.path, q.line, q.column)
    : await oracle.references(q.path, q.line, q.column);
  const wall = performance.now() - t0;
  await oracle.stop();
  const answer = found.filter((l) => l.path !== null).map((l) => `${l.path}:${l.line}:${l.column}`);
  return { wall, ms: wall, answer: answer.sort(), files: 0 };
}

if (ROOT === undefined) throw new Error("give --root with the corpus");
const setup = ENGINE === "pyright" ? pyrightSetup(ROOT) : typescriptSetup(ROOT);
const { first, questions } = setup;

console.log(`# daemon semantic bench: ${serverLabel()}`);
console.log(`# root ${ROOT}, ${ROUNDS} rounds, load ${loadAverage()}`);
const rows = new Map<string, { ours: number[]; anchor: number[]; ratio: number[] }>();
const aTimes: number[] = [];
let mismatches = 0;
let leaveAnswer: string[] = [];
const leaves = new Map<string, number[]>();
try {
  for (let round = 0; round < ROUNDS; round++) {
    const place = await freshDaemonPlace();
    const a = relay(place);
    await a.handshake();
    let aMs = 0;
    for (const q of setup.before) aMs += (await patiently(a, q)).ms;
    const fromA = await patiently(a, first);
    aTimes.push(aMs + fromA.ms);
    console.log(
      `round ${round + 1}: A ${first.label}: ${(fromA.ms / 1000).toFixed(2)} s ` +
        `(${((aMs + fromA.ms) / 1000).toFixed(2)} s with what it asked before), ` +
        `[${fromA.answer.length}]${
          ENGINE === "typescript" ? ` in ${fromA.projects.join(", ")}` : ""
        }; load ${loadAverage()}`,
    );
    for (const q of questions) {
      const cold = await setup.cold(q, fromA);
      const b = relay(place);
      await b.handshake();
      const fromB = await ask(b, q);
      await b.close();
      const same = JSON.stringify(fromB.answer) === JSON.stringify(cold.answer);
      if (q === setup.leave) leaveAnswer = cold.answer;
      if (!same) {
        mismatches++;
        const extra = fromB.answer.filter((x) => !cold.answer.includes(x));
        const missing = cold.answer.filter((x) => !fromB.answer.includes(x));
        console.log(
          `  MISMATCH ${q.label}: ours has ${extra.slice(0, 5)}; lacks ${missing.slice(0, 5)}`,
        );
      }
      const row = rows.get(q.label) ?? { ours: [], anchor: [], ratio: [] };
      row.ours.push(fromB.ms);
      row.anchor.push(cold.wall);
      row.ratio.push(fromB.ms / cold.wall);
      rows.set(q.label, row);
      console.log(
        `  B ${q.label}: ${fromB.ms.toFixed(0)} ms [${fromB.answer.length}]; anchor ` +
          `${(cold.wall / 1000).toFixed(2)} s (answer at ${(cold.ms / 1000).toFixed(2)} s, ` +
          `${cold.files} files) [${cold.answer.length}]; ${(fromB.ms / cold.wall).toFixed(3)}x; ` +
          `${same ? "equal" : "DIFFERENT"}; daemons ${
            daemonPids(top).length
          }; load ${loadAverage()}`,
      );
    }
    await a.close();
    const definition = setup.leave;
    const sides: Array<[string, string | undefined]> = [["this checkout", undefined]];
    if (BEFORE_DIR !== undefined) sides.push([`BENCH_BEFORE_DIR`, BEFORE_DIR]);
    if (round % 2 === 1) sides.reverse();
    for (const [side, dir] of sides) {
      const left = await leaving(first, definition, dir);
      const same = JSON.stringify(left.answer) === JSON.stringify(leaveAnswer);
      if (!same) mismatches++;
      const times = leaves.get(side) ?? [];
      times.push(left.ms);
      leaves.set(side, times);
      console.log(
        `  A leaves mid-build (${side}): B ${definition.label}: ${
          (left.ms / 1000).toFixed(2)
        } s; ` +
          `${left.error ? `no answer: ${left.error}...` : same ? "equal" : "DIFFERENT"}; ` +
          `load ${loadAverage()}`,
      );
    }
  }
  console.log(
    "\n| new session B's first question (daemon holds the program) | B median | standalone cold median | median ratio | target |",
  );
  console.log("| --- | --- | --- | --- | --- |");
  for (const [label, row] of rows) {
    const ratio = median(row.ratio);
    console.log(
      `| ${label} | ${median(row.ours).toFixed(0)} ms | ${
        (median(row.anchor) / 1000).toFixed(2)
      } s | ` +
        `${ratio.toFixed(3)}x | <= 0.2x: ${ratio <= 0.2 ? "met" : "missed"} |`,
    );
  }
  const asked = ROUNDS * questions.length + [...leaves.values()].flat().length;
  console.log(
    `\nsession A's first call (the daemon builds the programs), median ${
      (median(aTimes) / 1000).toFixed(2)
    } s; answers equal to the standalone's: ${asked - mismatches} of ${asked}`,
  );
  for (const [side, times] of leaves) {
    console.log(
      `A leaves mid-build (${side}): B's definition median ${
        (median(times) / 1000).toFixed(2)
      } s ` +
        `(${times.map((t) => (t / 1000).toFixed(2)).join(", ")})`,
    );
  }
} finally {
  killDaemons(top);
  await Deno.remove(top, { recursive: true }).catch(() => {});
}
