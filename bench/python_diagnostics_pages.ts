// deno-lint-ignore-file no-console
/**
 * What a later page of Python diagnostics costs (docs/BENCHMARKS.md "Semantic: Python"): the
 * engine alone in this process on a root; whole-root diagnostics asked `--rounds` times in a row,
 * each round: the question as page 2 asks it with nothing changed (answered from the kept answer),
 * then the same after the server's write of one file is reported (engine.touch: the kept answer is
 * dropped, so pyright checks every file again, warm, which is what every page cost before the
 * answer was kept). Prints both times per round and whether the lists are equal.
 *
 *   deno run --allow-read --allow-env --unstable-worker-options \
 *     bench/python_diagnostics_pages.ts --root ../corpora/requests [--rounds 3] \
 *     [--touch src/requests/models.py]
 */
import { flagValue, numFlag } from "./flags.ts";
import { Workspace } from "../lib/workspace/workspace.ts";
import { pythonEngine } from "../lib/semantic/python/engine.ts";
import type { Answer } from "../lib/semantic/engine.ts";

const ROOT = flagValue("--root") ?? "../corpora/requests";
const ROUNDS = numFlag("--rounds", 3);

const ws = Workspace.openSync({ root: ROOT, noIgnore: false, allowSecrets: false });
const engine = pythonEngine();
const signal = new AbortController().signal;

async function timed(): Promise<{ ms: number; answer: Extract<Answer, { kind: "diagnostics" }> }> {
  const started = performance.now();
  const answer = await engine.ask(ws, { kind: "diagnostics", path: "" }, { signal });
  if (answer.kind !== "diagnostics") throw new Error("not a diagnostics answer");
  return { ms: performance.now() - started, answer };
}

const first = await timed();
const touched = flagValue("--touch") ?? "src/requests/models.py";
console.log(
  `first call (pyright starts): ${first.ms.toFixed(0)} ms, ${first.answer.files} files, ` +
    `${first.answer.diagnostics.length} diagnostics`,
);
console.log(
  "| round | page from the kept answer | page after a reported write (full check) | equal |",
);
console.log("|---|---|---|---|");
for (let round = 1; round <= ROUNDS; round++) {
  const kept = await timed();
  engine.touch([touched], false);
  const checked = await timed();
  const equal = JSON.stringify(kept.answer.diagnostics) ===
    JSON.stringify(checked.answer.diagnostics);
  console.log(
    `| ${round} | ${kept.ms.toFixed(1)} ms${kept.answer.kept === true ? "" : " (not kept)"} | ${
      checked.ms.toFixed(0)
    } ms | ${equal} |`,
  );
}
engine.stop();
