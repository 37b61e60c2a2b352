/**
 * Catastrophic backtracking falls back to V8's linear-time engine: the server runs with
 * `--v8-flags=--enable-experimental-regexp-engine-on-excessive-backtracks` (the start task's
 * flags), and the dialect's translation uses no regex flags, which that engine would refuse
 * (docs/tools.md "Regex dialect").
 */

import assert from "node:assert/strict";
import { writeTree } from "../helpers/fixture.ts";
import { INIT } from "../helpers/memory_session.ts";
import { ServerProcess } from "./harness.ts";

const FILES = 200;

Deno.test("regex runaway: (a+)+$ over 200 files finishes well under a second per file, with exact counts", async () => {
  const root = await Deno.makeTempDir({ prefix: "shipcode-runaway-" });
  const tree: Record<string, string> = {};
  for (let k = 0; k < FILES; k++) {
    tree[`f${String(k).padStart(3, "0")}.txt`] = ("a".repeat(40) + "!\n").repeat(3) + "aaaa\n";
  }
  await writeTree(root, tree);
  // Without the fallback one such line backtracks for minutes: the 10 s timebox would end the call.
  const server = await ServerProcess.spawn(["--root", root, "--regex-timeout-ms", "10000"]);
  try {
    await server.send(INIT);
    await server.read(1);
    for (
      const [id, pattern, args] of [
        [2, "(a+)+$", {}],
        [3, "(A+)+$", { "-i": true }],
        [4, "(?:\\w+\\s?)+$", {}],
      ] as const
    ) {
      const started = performance.now();
      await server.send(JSON.stringify({
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: {
          name: "grep",
          arguments: { pattern, output_mode: "count", head_limit: 0, ...args },
        },
      }));
      const answer = JSON.parse(
        await server.readUntil((line) => JSON.parse(line).id === id, 120_000),
      );
      const seconds = (performance.now() - started) / 1000;
      const result = answer.result as {
        isError?: boolean;
        structuredContent: { total_files: number; total_matches: number };
      };
      assert.notEqual(result.isError, true, JSON.stringify(answer));
      assert.equal(result.structuredContent.total_files, FILES);
      assert.equal(result.structuredContent.total_matches, FILES);
      assert.ok(
        seconds < FILES * 0.25,
        `${pattern} took ${seconds.toFixed(1)} s for ${FILES} files`,
      );
    }
    assert.equal((await server.close()).code, 0);
  } finally {
    await server.kill();
    await Deno.remove(root, { recursive: true });
  }
});
