/** Interop: the official TypeScript SDK client drives the real server over stdio. */

import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { makeTree } from "../helpers/fixture.ts";
import { MAIN, serverFlags, spawnEnv, testArgs } from "./harness.ts";

async function connect(
  root: string,
  askVersion?: string,
  flags: string[] = [],
): Promise<{ client: Client; asked: string[] }> {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", ...(await serverFlags()), MAIN, ...testArgs(["--root", root, ...flags])],
    // The SDK's default environment drops DENO_DIR: the server would fetch its packages again.
    env: spawnEnv(),
    stderr: "pipe",
  });
  // Drained, so that a chatty server can never fill the pipe and stall.
  transport.stderr?.on("data", () => {});
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

function fixture() {
  return makeTree({ "hello.ts": "export const hello = 'world';\n" });
}

for (const askVersion of ["2025-06-18", undefined]) {
  const label = askVersion ?? "its own newest version";
  Deno.test(`sdk client: connects, lists, pings and closes when asking for ${label}`, async () => {
    const { root, dispose } = await fixture();
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
      await dispose();
    }
  });
}

/**
 * One successful call of every tool, in order (reads come before the edits they allow). Every
 * tool the server lists must appear here: a new tool needs its line.
 */
const EVERY_TOOL_CALL: Array<[string, Record<string, unknown>]> = [
  ["list_dir", {}],
  ["glob", { pattern: "**/*.ts" }],
  ["grep", { pattern: "hello", output_mode: "content" }],
  ["read_file", { path: "hello.ts" }],
  ["git_status", {}],
  ["git_diff", {}],
  ["git_log", {}],
  ["git_show", { revision: "HEAD" }],
  ["git_blame", { path: "hello.ts" }],
  ["edit_file", { path: "hello.ts", old_string: "there", new_string: "friend" }],
  ["write_file", { path: "src/new.ts", content: "export const made = true;\n" }],
  ["move_file", { source: "src/new.ts", destination: "src/moved.ts" }],
  ["delete_file", { path: "src/moved.ts" }],
  ["outline", { path: "src/util.py" }],
  ["find_symbol", { name: "helper" }],
  ["find_references", { name: "hello", "-C": 1 }],
  ["go_to_definition", { path: "hello.ts", line: 1, name: "hello" }],
  ["find_references", { path: "hello.ts", line: 1, name: "hello" }],
  ["rename_symbol", {
    path: "hello.ts",
    line: 1,
    name: "hello",
    new_name: "greeting",
    dry_run: true,
  }],
  ["diagnostics", {}],
];

async function git(cwd: string, ...args: string[]): Promise<void> {
  const out = await new Deno.Command("git", {
    args: ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args],
    cwd,
    stdout: "null",
    stderr: "piped",
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
}

Deno.test("sdk client: calls every listed tool, each answer valid against the tool's outputSchema", async () => {
  const { root, dispose } = await makeTree({
    "hello.ts":
      "export const hello = 'world';\n\nexport function greet(): string {\n  return hello;\n}\n",
    "src/util.py": "def helper():\n    return 1\n",
  });
  await git(root, "init", "-q");
  await git(root, "add", ".");
  await git(root, "commit", "-q", "-m", "first");
  await Deno.writeTextFile(`${root}/hello.ts`, "export const hello = 'there';\n");
  const { client } = await connect(root, undefined, ["--write"]);
  try {
    const listed = (await client.listTools()).tools.map((t: { name: string }) => t.name);
    const called = new Set(EVERY_TOOL_CALL.map(([name]) => name));
    for (const name of listed) {
      assert.ok(called.has(name), `add a call of "${name}" to EVERY_TOOL_CALL`);
    }
    for (const [name, args] of EVERY_TOOL_CALL) {
      assert.ok(listed.includes(name), `"${name}" is not listed with --write in a git work tree`);
      // callTool validates structuredContent against the listed outputSchema, and throws if not.
      const result = await client.callTool({ name, arguments: args });
      assert.notEqual(result.isError, true, `${name}: ${JSON.stringify(result.content)}`);
      assert.ok(result.structuredContent !== undefined, `${name} gave no structuredContent`);
    }
  } finally {
    await client.close();
    await dispose();
  }
});
