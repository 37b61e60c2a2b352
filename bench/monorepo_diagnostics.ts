// deno-lint-ignore-file no-console
/**
 * Whole-root diagnostics of a monorepo (docs/BENCHMARKS.md "Semantic: monorepo diagnostics"):
 * our server's `diagnostics` of the whole root against the same TypeScript (6.0.3) standalone
 * under Node checking every project the server checked, as `tsc --noEmit -p` does
 * (bench/monorepo_anchor.cjs), in the same run:
 * - time: ours from the tools/call to its complete answer (worker start, TypeScript load, every
 *   program built and checked); the anchor from its spawn to its last project checked;
 * - entries: ours `total` against the anchor's distinct entries (config problems included);
 * - page 2 asked twice: the time of the second page (a slice of the kept answer);
 * - peak RSS: VmHWM of our process, Node's maxRSS (one process, each project's service disposed
 *   after it).
 *
 *   deno run --allow-read --allow-write --allow-run --allow-env bench/monorepo_diagnostics.ts \
 *     --root /path/to/vuejs+core [--max-mib 1536]
 *
 * The anchor's typescript@6.0.3 is installed with npm into $BENCH_DIR/ts-anchor (default
 * /var/tmp/shipcode-bench) on the first run.
 */
import { loadAverage, Peer } from "./client.ts";
import { oursCommand, serverLabel } from "./servers.ts";
import { ensureAnchor, runAnchor } from "./ts_anchor.ts";
import { flagValue, numFlag } from "./flags.ts";

const ROOT = flagValue("--root");
const MAX_MIB = numFlag("--max-mib", 1536);
const ANCHOR_SCRIPT = new URL("./monorepo_anchor.cjs", import.meta.url).pathname;

async function ours(root: string) {
  const peer = new Peer(
    "ours",
    oursCommand(root, ["--no-git", "--semantic-max-mib", String(MAX_MIB)]),
  );
  await peer.handshake();
  const t0 = performance.now();
  const whole = await peer.request("tools/call", {
    name: "diagnostics",
    arguments: { head_limit: 20 },
  }, { timeoutMs: 1_800_000 });
  const ms = performance.now() - t0;
  const structured = (whole as { result: { structuredContent: Record<string, unknown> } }).result
    .structuredContent;
  const t1 = performance.now();
  const page2 = await peer.request("tools/call", {
    name: "diagnostics",
    arguments: { head_limit: 20, offset: 20 },
  }, { timeoutMs: 1_800_000 });
  const pageMs = performance.now() - t1;
  const again = await peer.request("tools/call", {
    name: "diagnostics",
    arguments: { head_limit: 20, offset: 20 },
  }, { timeoutMs: 1_800_000 });
  const same = JSON.stringify(page2) === JSON.stringify(again).replace(/"id":\d+/, "") ||
    JSON.stringify((page2 as { result: unknown }).result) ===
      JSON.stringify((again as { result: unknown }).result);
  const rss = peer.peakRssKiB();
  await peer.close();
  return { ms, pageMs, same, structured, rssKiB: rss };
}

function anchor(module: string, root: string, projects: string[]) {
  const { stdout, wall } = runAnchor(ANCHOR_SCRIPT, {
    name: "monorepo_task.json",
    content: { typescript: module, root, projects },
  });
  return { ...JSON.parse(stdout), wall };
}

if (ROOT === undefined) throw new Error("give --root with the monorepo to check");
const module = ensureAnchor();
console.log(`server: ${serverLabel()}; load ${loadAverage()}`);
const run = await ours(ROOT);
const projects = (run.structured.projects as string[]).filter((p) => p !== "");
const standalone = anchor(module, ROOT, projects);
const mib = (kib: number) => (kib / 1024).toFixed(0);
console.log(
  `ours: ${(run.ms / 1000).toFixed(1)} s, ${run.structured.total} entries, ` +
    `${run.structured.files_checked} files, ${projects.length} projects` +
    `${run.structured.partial ? " (partial)" : ""}; page 2 ${run.pageMs.toFixed(0)} ms, ` +
    `asked twice identical: ${run.same}; peak RSS ${mib(run.rssKiB)} MiB`,
);
console.log(
  `anchor: ${(standalone.wall / 1000).toFixed(1)} s (checking ${
    (standalone.ms / 1000).toFixed(1)
  } s), ` +
    `${standalone.entries} entries; peak RSS ${mib(standalone.maxRssKiB)} MiB`,
);
for (const p of standalone.perProject) {
  console.log(
    `  ${p.config}: ${p.files} files, ${p.entries} entries, ${(p.ms / 1000).toFixed(1)} s`,
  );
}
console.log(
  `ratio time ${(run.ms / standalone.wall).toFixed(2)}x; RSS ${
    (run.rssKiB / standalone.maxRssKiB).toFixed(2)
  }x (target <= 1.3x + 150 MiB: ${
    run.rssKiB <= 1.3 * standalone.maxRssKiB + 150 * 1024 ? "met" : "missed"
  })`,
);
