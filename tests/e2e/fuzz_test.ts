/**
 * The fuzz harness's short seed (tests/e2e/fuzz_run.ts; the long run is bench/fuzz.ts): 400
 * random calls through the real process, with pages, cancellations and malformed lines.
 */
import { fuzzRun } from "./fuzz_run.ts";

Deno.test("fuzz: 400 random calls (seed 1) get no -32603, valid lines only, pings answered, bounded RSS, exit 0", async () => {
  // Every tool, the TypeScript language-service ones too: on this fixture `diagnostics` without a
  // path used to give no answer for minutes (its minified bundle) and hold up the next call.
  await fuzzRun({ seed: 1, calls: 400, rssBoundMiB: 1024 });
});
