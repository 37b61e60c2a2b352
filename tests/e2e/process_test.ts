/** The real process: exact handshake bytes, stdout purity, exit codes, EOF, signals, EPIPE. */

import assert from "node:assert/strict";
import { writeTree } from "../helpers/fixture.ts";
import { INIT, INIT_ANSWER } from "../helpers/memory_session.ts";
import { MAIN, serverFlags, ServerProcess, testArgs } from "./harness.ts";

async function tempRoot(): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "shipcode-e2e-" });
  await writeTree(root, { "src/a.ts": "export const a = 1;\n", "README.md": "# fixture\n" });
  return root;
}

async function run(
  args: string[],
  stdin = "",
): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...(await serverFlags()), MAIN, ...testArgs(args)],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(stdin));
  await writer.close();
  const out = await child.output();
  const decoder = new TextDecoder();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

Deno.test("process: answers the handshake with the exact seed bytes and exits 0 on EOF", async () => {
  const root = await tempRoot();
  const server = await ServerProcess.spawn(["--root", root]);
  await server.send(INIT);
  const [answer] = await server.read(1);
  assert.equal(answer, INIT_ANSWER);
  const end = await server.close();
  assert.equal(end.code, 0);
  assert.equal(server.raw, INIT_ANSWER + "\n");
  await Deno.remove(root, { recursive: true });
});

Deno.test("process: stdout carries only JSON lines while stderr carries the logs", async () => {
  const root = await tempRoot();
  const server = await ServerProcess.spawn(["--root", root, "--log-level", "debug"]);
  await server.send(
    "garbage",
    "[]",
    INIT,
    '{"jsonrpc":"2.0","method":"notifications/initialized"}',
    '{"jsonrpc":"2.0","id":2,"method":"tools/list"}',
    '{"jsonrpc":"2.0","id":3,"method":"resources/list"}',
    '{"jsonrpc":"2.0","id":4,"method":"nope"}',
  );
  const end = await server.close();
  assert.equal(end.code, 0);
  const lines = server.raw.split("\n");
  assert.equal(lines.pop(), "");
  assert.equal(lines.length, 6);
  for (const line of lines) assert.equal(typeof JSON.parse(line), "object");
  assert.ok(!server.raw.includes("shipcode-mcp:"), "a log line reached stdout");
  await Deno.remove(root, { recursive: true });
});

Deno.test("process: EOF with requests in flight writes every answer, then exits 0", async () => {
  const root = await tempRoot();
  const server = await ServerProcess.spawn(["--root", root]);
  const requests = [INIT];
  for (let i = 2; i < 42; i++) {
    requests.push(
      JSON.stringify({
        jsonrpc: "2.0",
        id: i,
        method: i % 2 ? "resources/list" : "resources/read",
        params: i % 2 ? {} : { uri: `file://${root}/src/a.ts` },
      }),
    );
  }
  await server.send(...requests);
  const end = await server.close();
  assert.equal(end.code, 0);
  const ids = end.lines.map((l) => JSON.parse(l).id).sort((a, b) => a - b);
  assert.deepEqual(ids, [...Array(41)].map((_, i) => i + 1));
  await Deno.remove(root, { recursive: true });
});

Deno.test("process: accepts a last line without LF, CRLF and blank lines", async () => {
  const root = await tempRoot();
  const server = await ServerProcess.spawn(["--root", root]);
  await server.write(`\r\n  \n${INIT}\r\n\n{"jsonrpc":"2.0","id":2,"method":"ping"}`);
  const end = await server.close();
  assert.equal(end.code, 0);
  assert.deepEqual(end.lines, [INIT_ANSWER, '{"jsonrpc":"2.0","id":2,"result":{}}']);
  await Deno.remove(root, { recursive: true });
});

Deno.test("process: invalid UTF-8 does not kill the server", async () => {
  const root = await tempRoot();
  const server = await ServerProcess.spawn(["--root", root]);
  await server.write(new Uint8Array([0xff, 0xfe, 0x7b, 0x0a]));
  await server.write(
    new TextEncoder().encode(
      '{"jsonrpc":"2.0","id":"\xff","method":"ping"}\n'.replace("\xff", "é"),
    ),
  );
  const bad = new TextEncoder().encode('{"jsonrpc":"2.0","id":"X","method":"ping"}\n');
  bad[bad.indexOf(0x58)] = 0xc3; // "X" becomes a lead byte without its continuation: U+FFFD
  await server.write(bad);
  const end = await server.close();
  assert.equal(end.code, 0);
  assert.deepEqual(end.lines, [
    '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}',
    '{"jsonrpc":"2.0","id":"é","result":{}}',
    '{"jsonrpc":"2.0","id":"\uFFFD","result":{}}',
  ]);
  await Deno.remove(root, { recursive: true });
});

Deno.test("process: --max-message-bytes caps a line, answers once with Request too large, and goes on", async () => {
  const root = await tempRoot();
  const server = await ServerProcess.spawn(["--root", root, "--max-message-bytes", "1000"]);
  const big = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "ping",
    params: { _meta: { pad: "x".repeat(200_000) } },
  });
  await server.send(big, '{"jsonrpc":"2.0","id":2,"method":"ping"}');
  const end = await server.close();
  assert.deepEqual(end.lines, [
    '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Request too large"}}',
    '{"jsonrpc":"2.0","id":2,"result":{}}',
  ]);
  await Deno.remove(root, { recursive: true });
});

Deno.test("process: a 1 MiB request is read whole under the default cap", async () => {
  const root = await tempRoot();
  const server = await ServerProcess.spawn(["--root", root]);
  const big = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "ping",
    params: { _meta: { pad: "x".repeat(1 << 20) } },
  });
  await server.send(big);
  const end = await server.close();
  assert.deepEqual(end.lines, ['{"jsonrpc":"2.0","id":1,"result":{}}']);
  await Deno.remove(root, { recursive: true });
});

Deno.test("process: SIGTERM ends the server with exit 0 and no stack trace", async () => {
  const root = await tempRoot();
  const server = await ServerProcess.spawn(["--root", root]);
  await server.send(INIT);
  await server.read(1);
  server.child.kill("SIGTERM");
  const end = await server.wait();
  assert.equal(end.code, 0);
  assert.ok(!/\bat .*:\d+:\d+/.test(end.stderr), `stack trace on stderr: ${end.stderr}`);
  await Deno.remove(root, { recursive: true });
});

Deno.test("process: SIGINT ends the server with exit 0", async () => {
  const root = await tempRoot();
  const server = await ServerProcess.spawn(["--root", root]);
  await server.send(INIT);
  await server.read(1);
  server.child.kill("SIGINT");
  const end = await server.wait();
  assert.equal(end.code, 0);
  await Deno.remove(root, { recursive: true });
});

Deno.test("process: a closed stdout (EPIPE) ends the server quietly", async () => {
  const root = await tempRoot();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...(await serverFlags()), MAIN, ...testArgs(["--root", root])],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  await child.stdout.cancel();
  const writer = child.stdin.getWriter();
  const ping = new TextEncoder().encode('{"jsonrpc":"2.0","id":1,"method":"ping"}\n'.repeat(1000));
  for (let i = 0; i < 20; i++) {
    try {
      await writer.write(ping);
    } catch {
      break; // the server is gone: its stdin closed
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  await writer.close().catch(() => {});
  const status = await child.status;
  const stderr = await new Response(child.stderr).text();
  assert.equal(status.code, 0);
  assert.equal(stderr, "");
  await Deno.remove(root, { recursive: true });
});

Deno.test("cli: --version prints one line to stdout and exits 0", async () => {
  assert.deepEqual(await run(["--version"]), {
    code: 0,
    stdout: "shipcode-mcp 1.0.0\n",
    stderr: "",
  });
});

Deno.test("cli: --help prints usage to stdout and exits 0", async () => {
  const out = await run(["--help"]);
  assert.equal(out.code, 0);
  assert.ok(out.stdout.startsWith("shipcode-mcp 1.0.0: a Model Context Protocol server"));
  assert.ok(out.stdout.includes("--root DIR"));
  assert.equal(out.stderr, "");
});

Deno.test("cli: an unknown flag prints an error and usage to stderr and exits 2", async () => {
  const out = await run(["--frobnicate"]);
  assert.equal(out.code, 2);
  assert.equal(out.stdout, "");
  assert.ok(out.stderr.startsWith('shipcode-mcp: unknown option "--frobnicate"\n'));
  assert.ok(out.stderr.includes("Usage: shipcode-mcp [options]"));
});

Deno.test("cli: an explicit --root that does not exist is one stderr line and exit 2", async () => {
  const out = await run(["--root", "/nonexistent/shipcode/root"]);
  assert.equal(out.code, 2);
  assert.equal(out.stdout, "");
  assert.equal(out.stderr.trim().split("\n").length, 1);
  assert.ok(out.stderr.includes("/nonexistent/shipcode/root"));
});
