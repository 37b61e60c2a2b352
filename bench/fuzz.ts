// deno-lint-ignore-file no-console
/**
 * The long fuzz run (docs/BENCHMARKS.md "Fuzz"): tests/e2e/fuzz_run.ts with many calls and any
 * seed, through the real process; prints its figures. Exits non-zero on the first violation.
 *
 *   deno run --allow-read --allow-write --allow-run --allow-env bench/fuzz.ts --seed 7 --calls 5000
 *
 * Every tool is called, the TypeScript language-service tools too; `--no-semantic` leaves those
 * out (to compare a run without the semantic worker).
 */
import { fuzzRun, SEMANTIC_TOOLS } from "../tests/e2e/fuzz_run.ts";
import { loadAverage } from "./client.ts";
import { numFlag } from "./flags.ts";

const seed = numFlag("--seed", 7);
const calls = numFlag("--calls", 5000);
const load = loadAverage();
const figures = await fuzzRun({
  seed,
  calls,
  concurrency: numFlag("--concurrency", 6),
  rssBoundMiB: numFlag("--rss-bound-mib", 1024),
  skipTools: Deno.args.includes("--no-semantic") ? SEMANTIC_TOOLS : [],
});
console.log(`load average at start ${load}`);
console.log(JSON.stringify(figures, null, 2));
