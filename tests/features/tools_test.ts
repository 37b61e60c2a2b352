/** tools/list and tools/call through the dispatcher, with small test tools. */

import assert from "node:assert/strict";
import { type Tool, type ToolContext, ToolError } from "../../lib/tools/tool.ts";
import { WorkspaceError } from "../../lib/workspace/workspace.ts";
import { INIT, INIT_ANSWER, testMethods, transcript } from "../helpers/memory_session.ts";

function echoTool(overrides: Partial<Tool> = {}): Tool {
  return {
    name: "echo",
    title: "Echo",
    description: "Echoes its text",
    inputSchema: {
      type: "object",
      properties: {
        text: { type: "string", description: "what to echo" },
        times: { type: "integer", minimum: 1, maximum: 3, description: "how often" },
        mode: { type: "string", enum: ["plain", "loud"], description: "how" },
      },
      required: ["text"],
      additionalProperties: false,
    },
    outputSchema: {
      type: "object",
      properties: { text: { type: "string", description: "the echo" } },
      required: ["text"],
      additionalProperties: false,
    },
    annotations: { title: "Echo", readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    run: (args) => {
      const text = String(args.text).repeat(Number(args.times ?? 1));
      return Promise.resolve({ content: [{ type: "text", text }], structuredContent: { text } });
    },
    ...overrides,
  };
}

const call = (id: number, name: string, args: unknown) =>
  JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });

async function callOne(
  tool: Tool,
  args: unknown,
  workspace: unknown = {},
): Promise<Record<string, unknown>> {
  const lines = await transcript(
    [INIT, call(2, tool.name, args)],
    testMethods({ tools: [tool], workspace: workspace as never }),
  );
  assert.equal(lines[0], INIT_ANSWER);
  return JSON.parse(lines[1]).result;
}

Deno.test("tools/list: shows definitions sorted by name with keys in wire order", async () => {
  const lines = await transcript(
    [INIT, '{"jsonrpc":"2.0","id":2,"method":"tools/list"}'],
    testMethods({ tools: [echoTool({ name: "zeta" }), echoTool({ name: "alpha" })] }),
  );
  const tools = JSON.parse(lines[1]).result.tools;
  assert.deepEqual(tools.map((t: { name: string }) => t.name), ["alpha", "zeta"]);
  assert.deepEqual(Object.keys(tools[0]), [
    "name",
    "title",
    "description",
    "inputSchema",
    "outputSchema",
    "annotations",
  ]);
  assert.ok(
    lines[1].startsWith(
      '{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"alpha","title":"Echo",',
    ),
  );
});

Deno.test("tools/call: runs the tool and answers content then structuredContent, no isError", async () => {
  const lines = await transcript(
    [INIT, call(2, "echo", { text: "hi", times: 2 })],
    testMethods({ tools: [echoTool()] }),
  );
  assert.equal(
    lines[1],
    '{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"hihi"}],"structuredContent":{"text":"hihi"}}}',
  );
});

Deno.test("tools/call: absent arguments are validated as an empty object", async () => {
  const lines = await transcript([
    INIT,
    '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo"}}',
  ], testMethods({ tools: [echoTool()] }));
  assert.deepEqual(JSON.parse(lines[1]).result, {
    content: [{ type: "text", text: 'Missing required parameter "text" for echo' }],
    isError: true,
  });
});

Deno.test("tools/call: unknown parameters are an isError naming the valid ones", async () => {
  const result = await callOne(echoTool(), { text: "a", colour: "red" });
  assert.deepEqual(result, {
    content: [{
      type: "text",
      text: 'Unknown parameter "colour" for echo; valid parameters are: text, times, mode',
    }],
    isError: true,
  });
});

Deno.test("tools/call: a mistyped parameter is an isError saying the expected type", async () => {
  const result = await callOne(echoTool(), { text: 5 });
  assert.deepEqual(result.content, [{ type: "text", text: 'Parameter "text" must be a string' }]);
  assert.equal(result.isError, true);
  assert.equal(result.structuredContent, undefined);
});

Deno.test("tools/call: out-of-range and off-list values are isErrors naming the bound", async () => {
  assert.deepEqual((await callOne(echoTool(), { text: "a", times: 9 })).content, [
    { type: "text", text: 'Parameter "times" must be <= 3' },
  ]);
  assert.deepEqual((await callOne(echoTool(), { text: "a", mode: "soft" })).content, [
    { type: "text", text: 'Parameter "mode" must be one of: "plain", "loud"' },
  ]);
});

Deno.test("tools/call: arguments that are not an object get -32602", async () => {
  const lines = await transcript(
    [INIT, call(2, "echo", [1])],
    testMethods({ tools: [echoTool()] }),
  );
  assert.equal(
    lines[1],
    '{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"Invalid parameter: arguments must be an object"}}',
  );
});

Deno.test("tools/call: without a workspace every tool is an isError asking for --root", async () => {
  const result = await callOne(echoTool(), { text: "a" }, null);
  assert.deepEqual(result, {
    content: [{ type: "text", text: "No workspace: restart shipcode-mcp with --root DIR" }],
    isError: true,
  });
});

Deno.test("tools/call: a workspace refusal thrown by a tool becomes an isError with its message", async () => {
  const refusing = echoTool({
    run: () =>
      Promise.reject(
        new WorkspaceError(
          "outside",
          "../x",
          'Cannot read "../x": path is outside the workspace',
        ),
      ),
  });
  const result = await callOne(refusing, { text: "a" });
  assert.deepEqual(result, {
    content: [{ type: "text", text: 'Cannot read "../x": path is outside the workspace' }],
    isError: true,
  });
});

Deno.test("tools/call: without a workspace every tool is refused before it runs", async () => {
  let ran = false;
  const tool = echoTool({
    run: () => {
      ran = true;
      return Promise.resolve({ content: [{ type: "text", text: "ran" }] });
    },
  });
  const result = await callOne(tool, { text: "a" }, null);
  assert.deepEqual(result, {
    content: [{ type: "text", text: "No workspace: restart shipcode-mcp with --root DIR" }],
    isError: true,
  });
  assert.equal(ran, false);
});

Deno.test("tools/call: a ToolError thrown by a tool is an isError result with its message", async () => {
  const tool = echoTool({
    run: () => Promise.reject(new ToolError('Unknown file type "zz"; use one of: ts, js')),
  });
  assert.deepEqual(await callOne(tool, { text: "a" }), {
    content: [{ type: "text", text: 'Unknown file type "zz"; use one of: ts, js' }],
    isError: true,
  });
});

Deno.test("tools/call: an error that merely names itself ToolError is a bug, answered Internal error", async () => {
  const impostor = new Error("should not reach the model");
  impostor.name = "ToolError";
  const lines = await transcript(
    [INIT, call(2, "echo", { text: "a" })],
    testMethods({ tools: [echoTool({ run: () => Promise.reject(impostor) })] }),
  );
  assert.equal(
    lines[1],
    '{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"Internal error"}}',
  );
});

Deno.test("progress: a call with a progress token gets increasing, rate-limited progress and none after its answer", async () => {
  const slow = echoTool({
    run: async (_args, ctx: ToolContext) => {
      for (let i = 1; i <= 30; i++) {
        ctx.progress(i, 30, `scanned ${i}`);
        ctx.progress(i - 0.5); // never goes back: dropped
        await new Promise((r) => setTimeout(r, 12));
      }
      ctx.progress(31);
      return { content: [{ type: "text", text: "ok" }], structuredContent: { text: "ok" } };
    },
  });
  const request = JSON.stringify({
    jsonrpc: "2.0",
    id: 2,
    method: "tools/call",
    params: { name: "echo", arguments: { text: "a" }, _meta: { progressToken: "tok" } },
  });
  const lines = await transcript([INIT, request], testMethods({ tools: [slow] }));
  const notes = lines.slice(1, -1).map((l) => JSON.parse(l));
  assert.ok(notes.length >= 2 && notes.length <= 6, `got ${notes.length} progress notifications`);
  assert.ok(
    lines[1].startsWith(
      '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"tok","progress":1,"total":30,"message":"scanned 1"}}',
    ),
  );
  assert.deepEqual(Object.keys(notes[0].params), ["progressToken", "progress", "total", "message"]);
  for (let i = 1; i < notes.length; i++) {
    assert.ok(notes[i].params.progress > notes[i - 1].params.progress);
  }
  assert.equal(JSON.parse(lines.at(-1)!).id, 2);
});

Deno.test("progress: a call without a progress token sends no notifications", async () => {
  const chatty = echoTool({
    run: (_args, ctx) => {
      for (let i = 1; i < 5; i++) ctx.progress(i);
      return Promise.resolve({ content: [{ type: "text", text: "ok" }] });
    },
  });
  const lines = await transcript(
    [INIT, call(2, "echo", { text: "a" })],
    testMethods({ tools: [chatty] }),
  );
  assert.equal(lines.length, 2);
});
