// deno-lint-ignore-file no-console
/**
 * What a cancelled search costs the next call (docs/BENCHMARKS.md "Cancellation against a client
 * that reads slowly"): through the real process, an unlimited content grep over 240 files is
 * cancelled 60-120 ms after sending, then an ordinary grep of one small file is timed; `--rounds`
 * times. A cancelled search whose workers had to be replaced makes the next grep wait for their
 * start-up (150-350 ms); one whose scans ended at their next file does not.
 *
 *   deno run --allow-read --allow-write --allow-run --allow-env bench/cancel_cost.ts --rounds 20
 */
import { makeTree } from "../tests/helpers/fixture.ts";
import { INIT } from "../tests/helpers/memory_session.ts";
import { ServerProcess } from "../tests/e2e/harness.ts";
import { loadAverage } from "./client.ts";
import { numFlag } from "./flags.ts";

const rounds = numFlag("--rounds", 20);
const files: Record<string, string> = { "small.txt": "one needle here\n" };
const line = "let value_name = other_value + third_value; // needle in a haystack line\n";
for (let i = 0; i < 240; i++) files[`src/d${i % 12}/f${i}.ts`] = line.repeat(400);
const tree = await makeTree(files);
const server = await ServerProcess.spawn(["--root", tree.root, "--no-index"]);
const ORDINARY = { name: "grep", arguments: { pattern: "needle", path: "small.txt" } };
try {
  await server.send(INIT);
  await server.read(1);
  let id = 100;
  await server.request(id++, "tools/call", ORDINARY);
  const load = loadAverage();
  const times: number[] = [];
  for (let k = 0; k < rounds; k++) {
    const grep = id++;
    await server.send(JSON.stringify({
      jsonrpc: "2.0",
      id: grep,
      method: "tools/call",
      params: {
        name: "grep",
        arguments: { pattern: "[a-z]+_[a-z]+", output_mode: "content", head_limit: 0 },
      },
    }));
    await new Promise((resolve) => setTimeout(resolve, 60 + (k % 4) * 20));
    await server.send(JSON.stringify({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: grep },
    }));
    const t = performance.now();
    await server.request(id++, "tools/call", ORDINARY);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  console.log(`load average at start ${load}`);
  console.log(
    `ordinary grep after a cancelled content grep (${rounds} rounds): median ${
      at(0.5).toFixed(0)
    } ms, p90 ${at(0.9).toFixed(0)} ms, max ${times[times.length - 1].toFixed(0)} ms`,
  );
} finally {
  await server.kill();
  await tree.dispose();
}
