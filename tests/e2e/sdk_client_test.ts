/** Interop: the official TypeScript SDK client drives the real server over stdio. */

import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { MAIN, serverFlags } from "./harness.ts";

async function connect(
  root: string,
  askVersion?: string,
): Promise<{ client: Client; asked: string[] }> {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", ...(await serverFlags()), MAIN, "--root", root],
    stderr: "pipe",
  });
  const asked: string[] = [];
  const send = transport.send.bind(transport);
  transport.send = (message: JSONRPCMessage) => {
    if ("method" in message && message.method === "initialize" && message.params) {
      if (askVersion !== undefined) message.params.protocolVersion = askVersion;
      asked.push(String(message.params.protocolVersion));
    }
    return send(message);
  };
  const client = new Client({ name: "sdk-interop-test", version: "1.0.0" });
  await client.connect(transport);
  return { client, asked };
}

async function fixture(): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "shipcode-sdk-" });
  await Deno.writeTextFile(`${root}/hello.ts`, "export const hello = 'world';\n");
  return root;
}

for (const askVersion of ["2025-06-18", undefined]) {
  const label = askVersion ?? "its own newest version";
  Deno.test(`sdk client: connects, lists, pings and closes when asking for ${label}`, async () => {
    const root = await fixture();
    const { client, asked } = await connect(root, askVersion);
    try {
      if (askVersion === undefined) assert.notEqual(asked[0], "2025-06-18");
      assert.deepEqual(client.getServerVersion(), { name: "shipcode-mcp", version: "1.0.0" });
      assert.deepEqual(client.getServerCapabilities(), { tools: {}, resources: {} });
      assert.deepEqual(await client.ping(), {});
      const tools = await client.listTools();
      assert.ok(Array.isArray(tools.tools));
      const resources = await client.listResources();
      assert.deepEqual(resources.resources.map((r: { name: string }) => r.name), ["hello.ts"]);
      const templates = await client.listResourceTemplates();
      assert.ok(Array.isArray(templates.resourceTemplates));
      const read = await client.readResource({ uri: resources.resources[0].uri });
      assert.deepEqual(read.contents.map((c: { text?: unknown }) => c.text), [
        "export const hello = 'world';\n",
      ]);
    } finally {
      await client.close();
      await Deno.remove(root, { recursive: true });
    }
  });
}
