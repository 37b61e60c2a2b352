/**
 * Editing through the real process (docs/tools.md "edit_file", "How a write happens"): read-only
 * mode cannot write even by calling the tool by name; with --write an edit then a grep sees the new
 * text; a kill -9 at random moments of a large write leaves the old or the new content and no
 * served temp file, and the next start removes the leftover.
 */
import assert from "node:assert/strict";
import { ServerProcess } from "../e2e/harness.ts";
import { makeTree } from "../helpers/fixture.ts";

const INIT = {
  protocolVersion: "2025-06-18",
  capabilities: {},
  clientInfo: { name: "edits-test", version: "1" },
};

async function start(root: string, flags: string[] = []): Promise<ServerProcess> {
  const server = await ServerProcess.spawn(["--root", root, ...flags]);
  await server.request(0, "initialize", INIT);
  await server.send('{"jsonrpc":"2.0","method":"notifications/initialized"}');
  return server;
}

let nextId = 1;
async function callTool(
  server: ServerProcess,
  name: string,
  args: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  return await server.request(nextId++, "tools/call", { name, arguments: args });
}

function resultText(answer: Record<string, unknown>): string {
  const result = answer.result as { content: { text: string }[] };
  return result.content[0].text;
}

function tempNames(folder: string): string[] {
  return [...Deno.readDirSync(folder)].map((e) => e.name).filter((n) =>
    n.startsWith(".shipcode-write-")
  );
}

Deno.test("process: read-only mode lists no edit tool and cannot write by calling one by name", async () => {
  const { root, dispose } = await makeTree({ "a.ts": "const a = 1;\n" });
  const server = await start(root);
  try {
    const list = await server.request(nextId++, "tools/list");
    const names = (list.result as { tools: { name: string }[] }).tools.map((t) => t.name);
    assert.ok(!names.includes("edit_file") && !names.includes("write_file"), names.join());
    assert.equal(
      resultText(await callTool(server, "read_file", { path: "a.ts" })).length > 0,
      true,
    );
    for (
      const [name, args] of [
        ["edit_file", { path: "a.ts", old_string: "1", new_string: "2" }],
        ["write_file", { path: "b.ts", content: "x" }],
      ] as const
    ) {
      const answer = await callTool(server, name, args);
      assert.deepEqual(answer.error, { code: -32602, message: `Unknown tool: ${name}` });
    }
    assert.equal(Deno.readTextFileSync(`${root}/a.ts`), "const a = 1;\n");
    assert.deepEqual([...Deno.readDirSync(root)].map((e) => e.name), ["a.ts"]);
  } finally {
    await server.kill();
    await dispose();
  }
});

Deno.test("process: with --write, read_file, edit_file, then grep finds the new text", async () => {
  const { root, dispose } = await makeTree({ "src/a.ts": "export const answer = 41;\n" });
  const server = await start(root, ["--write"]);
  try {
    const refused = await callTool(server, "edit_file", {
      file_path: `${root}/src/a.ts`,
      old_string: "41",
      new_string: "42",
    });
    assert.match(resultText(refused), /^Read line 1 of src\/a\.ts first/);
    await callTool(server, "read_file", { path: "src/a.ts" });
    const edited = await callTool(server, "edit_file", {
      file_path: `${root}/src/a.ts`,
      old_string: "41",
      new_string: "42",
    });
    assert.match(resultText(edited), /^Edited src\/a\.ts: 1 replacement/);
    const grep = await callTool(server, "grep", { pattern: "answer = 42", output_mode: "content" });
    assert.equal(resultText(grep), "src/a.ts:1:export const answer = 42;");
  } finally {
    await server.kill();
    await dispose();
  }
});

Deno.test("process: kill -9 at random moments of a large write leaves old or new content and no served temp file", async () => {
  const size = 6 * 1024 * 1024;
  const contents = ["a", "b", "c", "d"].map((ch) => `${ch.repeat(79)}\n`.repeat(size / 80));
  const { root, dispose } = await makeTree({ "big.txt": contents[0] });
  try {
    let current = contents[0];
    for (let round = 0; round < 8; round++) {
      // Never the content already there, so "old" and "new" differ in every round.
      const next = contents.filter((c) => c !== current)[round % (contents.length - 1)];
      const server = await start(root, ["--write"]);
      try {
        // write_file replaces the whole file: the session must have been shown all of it, in
        // pages that each stay under the message cap.
        for (let offset = 1; offset > 0;) {
          const page = await callTool(server, "read_file", {
            path: "big.txt",
            offset,
            limit: 30_000,
          });
          const shown = (page.result as { structuredContent: { next_offset?: number } })
            .structuredContent;
          offset = shown.next_offset ?? 0;
        }
        if (round === 0) {
          // The same write, not killed, succeeds: the rounds below interrupt a write that works.
          const done = await callTool(server, "write_file", { path: "big.txt", content: next });
          assert.match(resultText(done), /^Replaced big\.txt \(6291440 bytes, \+\d+ -\d+ lines\)/);
          await callTool(server, "write_file", { path: "big.txt", content: current });
        }
        // Send the write and kill the process somewhere between before and after it.
        await server.send(JSON.stringify({
          jsonrpc: "2.0",
          id: nextId++,
          method: "tools/call",
          params: { name: "write_file", arguments: { path: "big.txt", content: next } },
        }));
        if (round % 2 === 0) {
          await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 1500)));
        } else {
          // Aim inside the write: once the temp file exists (or 5 s passed), a few ms more.
          const until = Date.now() + 5_000;
          while (tempNames(root).length === 0 && Date.now() < until) {
            await new Promise((resolve) => setTimeout(resolve, 0));
          }
          await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 20)));
        }
      } finally {
        await server.kill();
      }
      const now = Deno.readTextFileSync(`${root}/big.txt`);
      assert.ok(now === current || now === next, `round ${round}: a mix of old and new content`);
      current = now;
      // Whatever temp file the kill left, a fresh server serves none of it.
      const check = await start(root, ["--write"]);
      try {
        const glob = await callTool(check, "glob", { pattern: "**/*" });
        assert.equal(resultText(glob), "big.txt");
        const list = await check.request(nextId++, "resources/list");
        const listed = (list.result as { resources: { name: string }[] }).resources;
        assert.deepEqual(listed.map((r) => r.name), ["big.txt"]);
        // The start-up sweep removes the leftover (it runs once the handshake is done).
        const deadline = Date.now() + 10_000;
        while (tempNames(root).length > 0 && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        assert.deepEqual(tempNames(root), []);
      } finally {
        await check.kill();
      }
    }
  } finally {
    await dispose();
  }
});

Deno.test("process: twelve edits of one file sent at once all land", async () => {
  const lines = Array.from({ length: 12 }, (_, i) => `value_${i}: 0`);
  const { root, dispose } = await makeTree({ "n.txt": lines.join("\n") + "\n" });
  const server = await start(root, ["--write"]);
  try {
    await callTool(server, "read_file", { path: "n.txt" });
    const first = nextId;
    nextId += lines.length;
    await server.send(...lines.map((line, i) =>
      JSON.stringify({
        jsonrpc: "2.0",
        id: first + i,
        method: "tools/call",
        params: {
          name: "edit_file",
          arguments: { path: "n.txt", old_string: line, new_string: line.replace(": 0", ": 1") },
        },
      })
    ));
    for (let i = 0; i < lines.length; i++) {
      const answer = JSON.parse(await server.take((l) => JSON.parse(l).id === first + i));
      assert.equal(answer.result.isError, undefined, JSON.stringify(answer));
    }
    assert.equal(
      Deno.readTextFileSync(`${root}/n.txt`),
      lines.map((l) => l.replace(": 0", ": 1")).join("\n") + "\n",
    );
  } finally {
    await server.kill();
    await dispose();
  }
});
