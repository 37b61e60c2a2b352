// deno-lint-ignore-file no-console
/**
 * The first answer for a position in a monorepo (docs/BENCHMARKS.md "Semantic: whole-root
 * diagnostics of a monorepo"): for each sampled position and each of go_to_definition and
 * find_references, a fresh server asked that question as its first semantic call, against the
 * same TypeScript (6.0.3) standalone under Node building only the owning project
 * (bench/monorepo_first_anchor.cjs), in the same run, alternating:
 * - time: ours from the tools/call (sent right after the handshake) to its answer (worker start,
 *   TypeScript load, the owning project's program); the anchor from its spawn to its exit;
 * - peak RSS: VmHWM of our process, Node's maxRSS;
 * - size: definitions or references of each (the anchor's from the owning project only; ours
 *   may merge the other projects that include the file).
 *
 *   deno run --allow-read --allow-write --allow-run --allow-env bench/monorepo_first.ts \
 *     --corpus vue --root /path/to/vuejs+core
 *   deno run --allow-read --allow-write --allow-run --allow-env bench/monorepo_first.ts \
 *     --corpus hono --root /path/to/honojs+hono
 *
 * For find_references a second anchor does the work our answer does (the same script with
 * `all`: every project whose program holds the file, one document registry, references merged),
 * timed the same way: ours against it is like for like, ours against the owning project is the
 * target's ratio. `--names compose,HonoOptions` asks only those declarations, `--tools
 * find_references` only that tool, `--before DIR` also runs the server of DIR (an export of an
 * earlier commit) right after ours on each question.
 *
 * The anchor's typescript@6.0.3 is installed with npm into $BENCH_DIR/ts-anchor (default
 * /var/tmp/shipcode-bench) on the first run (bench/monorepo_diagnostics.ts does the same).
 */
import { loadAverage, Peer } from "./client.ts";
import { oursCommand, serverLabel } from "./servers.ts";
import { ensureAnchor, runAnchor } from "./ts_anchor.ts";
import type { Position } from "./semantic_support.ts";
import { flagValue } from "./flags.ts";

const ROOT = flagValue("--root");
const CORPUS = flagValue("--corpus") ?? "vue";
const ANCHOR_SCRIPT = new URL("./monorepo_first_anchor.cjs", import.meta.url).pathname;
const TOOLS = (flagValue("--tools") ?? "go_to_definition,find_references").split(",");
const NAMES = flagValue("--names")?.split(",");
/** An export of an earlier commit (`git archive`), asked the same questions right after ours. */
const BEFORE = flagValue("--before");

/** The owning project's tsconfig and the declarations asked about, by file and name. */
const SAMPLES: Record<string, { config: string; names: Array<[string, string]> }> = {
  vue: {
    config: "tsconfig.json",
    names: [
      ["packages/reactivity/src/ref.ts", "isRef"],
      ["packages/shared/src/general.ts", "NOOP"],
      ["packages/runtime-core/src/component.ts", "Data"],
      ["packages/compiler-core/src/ast.ts", "NodeTypes"],
    ],
  },
  hono: {
    config: "tsconfig.build.json",
    names: [
      ["src/context.ts", "ExecutionContext"],
      ["src/compose.ts", "compose"],
      ["src/utils/url.ts", "splitPath"],
      ["src/hono-base.ts", "HonoOptions"],
    ],
  },
};

function positionOf(root: string, path: string, name: string): Position {
  const lines = Deno.readTextFileSync(`${root}/${path}`).split("\n");
  const declaration = new RegExp(
    `^export (?:declare )?(?:function|const|class|interface|type|enum) ${name}\\b`,
  );
  const index = lines.findIndex((l) => declaration.test(l));
  if (index < 0) throw new Error(`no declaration of ${name} in ${path}`);
  return { path, name, line: index + 1, column: lines[index].indexOf(` ${name}`) + 2 };
}

function sizeOf(answer: Record<string, unknown>, tool: string): string {
  const result = answer.result as {
    isError?: boolean;
    structuredContent?: Record<string, unknown>;
  };
  // An error (the engine's time bound at a heavy load) is a figure of the run, not its end.
  if (result?.isError) {
    const text = (result as { content?: Array<{ text?: string }> }).content?.[0]?.text ?? "";
    return `error: ${text.slice(0, 60)}`;
  }
  const s = result?.structuredContent ?? {};
  if (tool === "go_to_definition") return String((s.definitions as unknown[] | undefined)?.length);
  const projects = Array.isArray(s.projects) ? ` in ${s.projects.length} projects` : "";
  return `${s.total ?? (s.lines as unknown[] | undefined)?.length}${projects}`;
}

async function ours(root: string, tool: string, p: Position, dir?: string) {
  const peer = new Peer("ours", oursCommand(root, ["--no-git"], dir));
  await peer.handshake();
  const t0 = performance.now();
  const answer = await peer.request("tools/call", {
    name: tool,
    arguments: {
      path: p.path,
      line: p.line,
      column: p.column,
      ...(tool === "find_references" ? { head_limit: 0 } : {}),
    },
  }, { timeoutMs: 600_000 });
  const ms = performance.now() - t0;
  const rssKiB = peer.peakRssKiB();
  await peer.close();
  return { ms, rssKiB, size: sizeOf(answer, tool) };
}

function anchor(
  module: string,
  root: string,
  config: string,
  tool: string,
  p: Position,
  all = false,
) {
  const { stdout, success, wall } = runAnchor(ANCHOR_SCRIPT, {
    name: "monorepo_first_task.json",
    content: { typescript: module, root, config, tool, all, ...p },
  });
  if (!success) throw new Error(`the anchor failed on ${p.path}:${p.line}`);
  return { ...JSON.parse(stdout), wall };
}

if (ROOT === undefined) throw new Error("give --root with the monorepo");
const sample = SAMPLES[CORPUS];
if (sample === undefined) throw new Error(`--corpus is one of ${Object.keys(SAMPLES).join(", ")}`);
const module = ensureAnchor();
console.log(`server: ${serverLabel()}; corpus ${CORPUS}; load ${loadAverage()}`);
const mib = (kib: number) => (kib / 1024).toFixed(0);
const ratios: number[] = [];
let rssMet = 0;
let runs = 0;
for (const [path, name] of sample.names) {
  if (NAMES !== undefined && !NAMES.includes(name)) continue;
  const p = positionOf(ROOT, path, name);
  for (const tool of TOOLS) {
    const a = anchor(module, ROOT, sample.config, tool, p);
    const all = tool === "find_references"
      ? anchor(module, ROOT, sample.config, tool, p, true)
      : null;
    const o = await ours(ROOT, tool, p);
    const b = BEFORE === undefined ? null : await ours(ROOT, tool, p, BEFORE);
    const ratio = o.ms / a.wall;
    ratios.push(ratio);
    const rssOk = o.rssKiB <= 1.3 * a.maxRssKiB + 150 * 1024;
    if (rssOk) rssMet++;
    runs++;
    console.log(
      `${tool} ${name} (${path}:${p.line}:${p.column}): ours ${(o.ms / 1000).toFixed(2)} s ` +
        `[${o.size}], RSS ${mib(o.rssKiB)} MiB; anchor ${(a.wall / 1000).toFixed(2)} s ` +
        `(answer at ${(a.ms / 1000).toFixed(2)} s, ${a.files} files) [${a.count}], RSS ` +
        `${mib(a.maxRssKiB)} MiB; ratio ${ratio.toFixed(2)}x; RSS target ${
          rssOk ? "met" : "missed"
        }${
          all === null
            ? ""
            : `; same work standalone ${
              (all.wall / 1000).toFixed(2)
            } s [${all.count} in ${all.projects} projects], RSS ${mib(all.maxRssKiB)} MiB, ours ${
              (o.ms / all.wall).toFixed(2)
            }x of it`
        }${
          b === null
            ? ""
            : `; before (${BEFORE}) ${(b.ms / 1000).toFixed(2)} s [${b.size}], RSS ${
              mib(b.rssKiB)
            } MiB`
        }; load ${loadAverage()}`,
    );
  }
}
const sorted = [...ratios].sort((x, y) => x - y);
console.log(
  `time ratio median ${sorted[Math.floor(sorted.length / 2)].toFixed(2)}x, worst ${
    sorted[sorted.length - 1].toFixed(2)
  }x (target <= 1.5x: ${sorted.filter((r) => r <= 1.5).length} of ${runs} met); ` +
    `RSS target met ${rssMet} of ${runs}`,
);
