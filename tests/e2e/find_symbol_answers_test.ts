/**
 * find_symbol's answers through the real server, when they could mislead: a partly parsed
 * candidate is counted and named; an empty answer says it counted source files and names the
 * other files that mention the name; `Class.method` keeps the definitions in that class; a
 * `kind` that removes every definition names the kinds there are.
 */
import assert from "node:assert/strict";
import { INIT } from "../helpers/memory_session.ts";
import { ServerProcess } from "./harness.ts";

const TREE: Record<string, string> = {
  "src/sessions.py": [
    "class Session:",
    "    def send(self, request):",
    "        def hook(r):",
    "            return r",
    "        return hook",
    "",
    "class Adapter:",
    "    def send(self, request):",
    "        pass",
    "",
  ].join("\n"),
  "src/broken.ts": "export function half( {\n  send();\n",
  "docs/guide.md": "Call prepare_body before anything.\n",
};

async function withServer(fn: (call: Call) => Promise<void>): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "shipcode-e2e-find-symbol-" });
  for (const [path, text] of Object.entries(TREE)) {
    await Deno.mkdir(`${root}/${path.slice(0, path.lastIndexOf("/"))}`, { recursive: true });
    await Deno.writeTextFile(`${root}/${path}`, text);
  }
  const server = await ServerProcess.spawn(["--root", root, "--no-index"]);
  try {
    await server.send(INIT);
    await server.read(1);
    let id = 10;
    await fn(async (args) => {
      const answer = await server.request(id++, "tools/call", {
        name: "find_symbol",
        arguments: args,
      });
      const result = answer.result as {
        content: { text: string }[];
        structuredContent?: Record<string, unknown>;
        isError?: boolean;
      };
      return { text: result.content[0].text, structured: result.structuredContent ?? {} };
    });
    const end = await server.close();
    assert.equal(end.code, 0);
  } finally {
    await server.kill();
    await Deno.remove(root, { recursive: true });
  }
}

type Call = (
  args: Record<string, unknown>,
) => Promise<{ text: string; structured: Record<string, unknown> }>;

Deno.test("e2e find_symbol: Class.method keeps that class's definitions; partial files are named", async () => {
  await withServer(async (call) => {
    const got = await call({ name: "Session.send" });
    assert.equal(
      got.text,
      "src/sessions.py:2: method send  (in Session)\n" +
        "[1 of the files that mention it could not be fully parsed, so definitions in them may " +
        "be missing: src/broken.ts:1]",
    );
    assert.equal(got.structured.partial_files, 1);
    const nested = await call({ name: "send.hook" });
    assert.equal(nested.text, "src/sessions.py:3: function hook  (in send)");
  });
});

Deno.test("e2e find_symbol: a kind that filters out every definition names the kinds there are", async () => {
  await withServer(async (call) => {
    const got = await call({ name: "send", kind: "function", path: "src/sessions.py" });
    assert.equal(got.text, 'No function named "send"; its definitions are: method (2)');
  });
});

Deno.test("e2e find_symbol: an empty answer counts source files and names the other files", async () => {
  await withServer(async (call) => {
    const got = await call({ name: "prepare_body" });
    assert.equal(
      got.text,
      'No definitions of "prepare_body" found (0 source files mention it; 1 other files do: ' +
        "docs/guide.md)",
    );
    assert.equal(got.structured.other_files, 1);
  });
});
