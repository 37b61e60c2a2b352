/** Heavy work runs off the main thread: the real process keeps answering while a search runs. */

import assert from "node:assert/strict";
import { writeTree } from "../helpers/fixture.ts";
import { INIT } from "../helpers/memory_session.ts";
import { ServerProcess } from "./harness.ts";

/**
 * A tree where `(a{1,20}){1,20}$` backtracks for a very long time on every line: nested counted
 * repetitions are beyond V8's linear-time fallback, so the per-file timebox must stop it.
 */
async function slowTree(): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "shipcode-heavy-" });
  await writeTree(root, { "slow.txt": ("a".repeat(34) + "!\n").repeat(4), "ok.txt": "needle\n" });
  return root;
}

const SLOW = {
  name: "grep",
  arguments: { pattern: "(a{1,20}){1,20}$", output_mode: "count", head_limit: 0 },
};

Deno.test("heavy: ping is answered while a runaway regex runs, and the regex is stopped and reported", async () => {
  const root = await slowTree();
  const server = await ServerProcess.spawn(["--root", root, "--regex-timeout-ms", "1500"]);
  try {
    await server.send(INIT);
    await server.read(1);
    await server.send(
      JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: SLOW }),
      '{"jsonrpc":"2.0","id":3,"method":"ping"}',
    );
    const first = JSON.parse((await server.read(1))[0]);
    assert.equal(first.id, 3, "ping must not wait for the search");
    const grep = JSON.parse((await server.read(1))[0]);
    assert.equal(grep.id, 2);
    assert.equal(grep.result.isError, true);
    assert.match(grep.result.content[0].text, /slow\.txt.*\(a\{1,20\}\)\{1,20\}\$.*1500 ms/);
    const after = await server.request(4, "tools/call", {
      name: "grep",
      arguments: { pattern: "needle", output_mode: "count" },
    });
    assert.deepEqual(
      (after.result as { structuredContent: { counts: string[] } }).structuredContent.counts,
      [
        "ok.txt:1",
      ],
    );
    assert.equal((await server.close()).code, 0);
  } finally {
    await server.kill();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("heavy: a cancelled search gets no answer and the next search works", async () => {
  const root = await slowTree();
  const server = await ServerProcess.spawn(["--root", root, "--regex-timeout-ms", "60000"]);
  try {
    await server.send(INIT);
    await server.read(1);
    await server.send(
      JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: SLOW }),
    );
    await new Promise((r) => setTimeout(r, 300));
    await server.send(
      '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}',
    );
    const after = await server.request(3, "tools/call", {
      name: "grep",
      arguments: { pattern: "needle", output_mode: "count" },
    });
    assert.deepEqual(
      (after.result as { structuredContent: { counts: string[] } }).structuredContent.counts,
      [
        "ok.txt:1",
      ],
    );
    const end = await server.close();
    assert.equal(end.code, 0);
    assert.ok(!end.lines.some((l) => JSON.parse(l).id === 2), "the cancelled request was answered");
  } finally {
    await server.kill();
    await Deno.remove(root, { recursive: true });
  }
});
