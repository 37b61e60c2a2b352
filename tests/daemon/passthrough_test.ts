/**
 * A relay passes its daemon's answers on as the bytes they are (docs/architecture.md, "The
 * shared daemon"): what a client reads through a relay is exactly what it reads from one process
 * (`--no-daemon`), large answers and every kind of id included. Real processes.
 */

import assert from "node:assert/strict";
import { INIT } from "../helpers/memory_session.ts";
import { ServerProcess } from "../e2e/harness.ts";
import { DaemonWorld, INITIALIZED } from "./helpers.ts";

/** About 1.2 MB of text with escapes and multi-byte UTF-8, so reads end inside characters. */
function bigText(): string {
  const lines: string[] = [];
  let length = 0;
  for (let i = 0; length < 1_200_000; i++) {
    const line = `${i}\t"quoted" back\\slash é 日本語 🦕 \u0001 line ${"x".repeat(i % 17)}\n`;
    lines.push(line);
    length += line.length;
  }
  return lines.join("");
}

/** A session past the handshake: `--daemon` (a relay of `world`) or `--no-daemon`. */
async function ready(world: DaemonWorld, mode: "--daemon" | "--no-daemon") {
  const server = await ServerProcess.spawn([mode, "--root", world.root], {
    env: world.env(),
    noSchema: true,
  });
  await server.send(INIT);
  await server.readUntil((line) => JSON.parse(line).id === 1);
  await server.send(INITIALIZED);
  return server;
}

/** The answer line to `request` (a JSON text with `id`), read as the client receives it. */
async function answer(server: ServerProcess, request: string, id: unknown): Promise<string> {
  await server.send(request);
  return await server.take((line) => JSON.stringify(JSON.parse(line).id) === JSON.stringify(id));
}

Deno.test("daemon: a 1.2 MB answer through a relay is the same line as --no-daemon's", async () => {
  const world = await DaemonWorld.create({ "big.txt": bigText(), "small.txt": "small\n" });
  const relay = await ready(world, "--daemon");
  const single = await ready(world, "--no-daemon");
  try {
    const uri = `file://${world.root}/big.txt`;
    for (const id of [2, 3]) {
      const request = JSON.stringify({
        jsonrpc: "2.0",
        id,
        method: "resources/read",
        params: { uri },
      });
      const through = await answer(relay, request, id);
      const direct = await answer(single, request, id);
      assert.ok(direct.length > 1_200_000, `a short answer: ${direct.slice(0, 200)}`);
      assert.equal(through, direct);
    }
    // A small answer right behind a large one, both in one read of the relay.
    await relay.send(
      JSON.stringify({ jsonrpc: "2.0", id: 4, method: "resources/read", params: { uri } }),
      JSON.stringify({
        jsonrpc: "2.0",
        id: 5,
        method: "resources/read",
        params: { uri: `file://${world.root}/small.txt` },
      }),
    );
    const small = JSON.parse(await relay.take((line) => JSON.parse(line).id === 5, 30_000));
    assert.equal(small.result.contents[0].text, "small\n");
    await relay.take((line) => JSON.parse(line).id === 4, 30_000);
  } finally {
    await single.kill();
    await relay.kill();
    await world.dispose();
  }
});

Deno.test("daemon: ids of every JSON type are echoed through a relay exactly as by --no-daemon", async () => {
  const world = await DaemonWorld.create({ "a.txt": "alpha\n" });
  const relay = await ready(world, "--daemon");
  const single = await ready(world, "--no-daemon");
  try {
    const ids = [
      "0",
      "-7",
      "9007199254740991",
      '""',
      '"日本語 🦕"',
      '"quote \\" backslash \\\\ tab \\t nul \\u0000"',
      '"\\u00e9 written as an escape"',
      "1e3",
      "42.0",
    ];
    for (const id of ids) {
      const request = `{"jsonrpc":"2.0","id":${id},"method":"resources/read",` +
        `"params":{"uri":"file://${world.root}/a.txt"}}`;
      const parsed = JSON.parse(id);
      const through = await answer(relay, request, parsed);
      const direct = await answer(single, request, parsed);
      assert.equal(through, direct, `id ${id}`);
      assert.equal(JSON.parse(through).result.contents[0].text, "alpha\n");
    }
  } finally {
    await single.kill();
    await relay.kill();
    await world.dispose();
  }
});
