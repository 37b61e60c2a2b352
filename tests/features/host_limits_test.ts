/**
 * What hosts need from tools/list and from every answer (docs/protocol.md, "Message sizes"):
 * Claude Code saves a result over 50,000 characters to a file unless the tool declares
 * `_meta["anthropic/maxResultSizeChars"]`, and closes its connection on a message of 8 MiB.
 */
import assert from "node:assert/strict";
import { toolsFor } from "../../lib/tools/index.ts";
import type { Tool } from "../../lib/tools/tool.ts";
import type { Config } from "../../lib/config.ts";
import { INIT, testMethods, transcript } from "../helpers/memory_session.ts";
import { assertServerMessage } from "../helpers/schema.ts";

const LIST = '{"jsonrpc":"2.0","id":2,"method":"tools/list"}';
const ALL = toolsFor({ write: true, git: true });

async function listed(config: Partial<Config> = {}): Promise<Record<string, unknown>[]> {
  const lines = await transcript([INIT, LIST], testMethods({ tools: ALL, config }));
  assertServerMessage(lines[1], "tools/list");
  return JSON.parse(lines[1]).result.tools;
}

Deno.test("tools/list: read_file and git_show declare their 60,000-character page in _meta, last", async () => {
  const tools = await listed();
  const declared = tools.filter((t) => "_meta" in t);
  assert.deepEqual(declared.map((t) => t.name), ["git_show", "read_file"]);
  for (const tool of declared) {
    assert.deepEqual(tool._meta, { "anthropic/maxResultSizeChars": 60_000 });
    assert.equal(Object.keys(tool).at(-1), "_meta");
  }
});

Deno.test("tools/list: a budget raised past 50,000 (or off) is declared for every tool it holds", async () => {
  const off = await listed({ maxOutputChars: 0 });
  for (const tool of off) {
    const chars = tool.name === "read_file" || tool.name === "git_show" ? 60_000 : 6 * 1024 * 1024;
    assert.deepEqual(tool._meta, { "anthropic/maxResultSizeChars": chars }, String(tool.name));
  }
  const small = await listed({ maxReadChars: 40_000 });
  assert.deepEqual(small.filter((t) => "_meta" in t), []);
});

Deno.test("tools/call: an answer over the 6 MiB message cap is refused, never written", async () => {
  const huge: Tool = {
    ...ALL[0],
    name: "huge",
    inputSchema: { type: "object", properties: {}, required: [], additionalProperties: false },
    run: () => {
      const text = "é".repeat(2.5 * 1024 * 1024);
      return Promise.resolve({ content: [{ type: "text", text }], structuredContent: { text } });
    },
  };
  const lines = await transcript(
    [
      INIT,
      '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"huge","arguments":{}}}',
    ],
    testMethods({ tools: [huge] }),
  );
  assert.equal(
    lines[1],
    '{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"The answer of huge ' +
      "would be 10 MiB, over the 6 MiB limit of one message; ask for less (a smaller " +
      'head_limit or limit, or a narrower path)"}],"isError":true}}',
  );
});
