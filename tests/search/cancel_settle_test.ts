/**
 * A cancelled search gives its workers back without replacing them when their scans end at the
 * next file (lib/search/pool.ts, SETTLE_MS): a replacement costs the next search 150-350 ms of
 * start-up. (A worker whose heap has grown past its share is replaced at the end of any job,
 * cancelled or not; that is counted apart.) A scan that does not end (a runaway regex) is still
 * replaced, and the next search runs.
 */
import assert from "node:assert/strict";
import { grepTool } from "../../lib/tools/grep.ts";
import { call, harness, text } from "../tools/helpers.ts";

function tree(): Record<string, string> {
  const files: Record<string, string> = {
    "slow.txt": ("a".repeat(34) + "!\n").repeat(4),
    "small.txt": "one needle here\n",
  };
  const line = "let value_name = other_value + third_value; // needle in a haystack line\n";
  for (let i = 0; i < 240; i++) files[`src/d${i % 12}/f${i}.ts`] = line.repeat(400);
  return files;
}

async function cancelledAfter(
  h: Awaited<ReturnType<typeof harness>>,
  args: Record<string, unknown>,
  ms: number,
): Promise<void> {
  const controller = new AbortController();
  const running = call(grepTool, args, { ...h, ctx: { ...h.ctx, signal: controller.signal } });
  await new Promise((resolve) => setTimeout(resolve, ms));
  controller.abort(new Error("cancelled"));
  await running.catch(() => {});
}

Deno.test("search pool: cancelled content greps whose scans end at their next file keep their workers", async () => {
  const h = await harness(tree(), { regexTimeoutMs: 600_000 });
  try {
    const pool = h.ctx.session.pool;
    await call(grepTool, { pattern: "needle", path: "small.txt" }, h);
    // A worker whose heap the content greps grew past its share is replaced for that (counted
    // in `recycled`); none is replaced for having been cancelled.
    const before = pool.spawned - pool.recycled;
    for (let k = 0; k < 5; k++) {
      await cancelledAfter(
        h,
        { pattern: "[a-z]+_[a-z]+", output_mode: "content", head_limit: 0 },
        60,
      );
    }
    const next = await call(grepTool, { pattern: "needle", path: "small.txt" }, h);
    assert.equal(text(next), "small.txt");
    assert.equal(pool.spawned - pool.recycled, before, "cancelled workers were replaced");
  } finally {
    h.ctx.session.close();
    await Deno.remove(h.root, { recursive: true });
  }
});

Deno.test("search pool: a cancelled runaway regex scan is replaced and the next grep answers", async () => {
  const h = await harness(tree(), { regexTimeoutMs: 600_000 });
  try {
    const pool = h.ctx.session.pool;
    await call(grepTool, { pattern: "needle", path: "small.txt" }, h);
    const before = pool.spawned;
    await cancelledAfter(
      h,
      { pattern: "(a{1,20}){1,20}$", path: "slow.txt", output_mode: "count" },
      300,
    );
    // The runaway scan runs for the 600 s regex timeout unless its worker is replaced: the next
    // grep answering at all (and a worker spawned) shows it did not wait, whatever the load.
    const next = await call(grepTool, { pattern: "needle", path: "small.txt" }, h);
    assert.equal(text(next), "small.txt");
    assert.ok(pool.spawned > before, "the runaway scan's worker was not replaced");
  } finally {
    h.ctx.session.close();
    await Deno.remove(h.root, { recursive: true });
  }
});
