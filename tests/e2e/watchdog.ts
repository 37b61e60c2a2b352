/**
 * The freeze watchdog of the hostile-input tests (issue 8): while some work runs, `ping` must be
 * answered within a second, and closing stdin must end the process within two. The bounds are
 * tripled and doubled for the shared test machine (load averages of 15 on two cores were seen);
 * a frozen server misses them by minutes.
 */
import assert from "node:assert/strict";
import { INIT } from "../helpers/memory_session.ts";
import { ServerProcess, type SpawnOptions } from "./harness.ts";

export const PING_MS = 3 * 1000;
export const EXIT_MS = 2 * 2000;

let nextPing = 0;

/** Pings every 200 ms while `work` runs; throws if one answer takes longer than PING_MS. */
export async function whilePinged<T>(server: ServerProcess, work: Promise<T>): Promise<T> {
  let done = false;
  const loop = (async () => {
    while (!done) {
      const id = `watchdog-${nextPing++}`;
      await server.send(JSON.stringify({ jsonrpc: "2.0", id, method: "ping" }));
      const started = Date.now();
      await server.take((line) => line.startsWith(`{"jsonrpc":"2.0","id":"${id}"`), PING_MS)
        .catch(() => {
          throw new Error(`ping was not answered within ${PING_MS} ms`);
        });
      assert.ok(Date.now() - started <= PING_MS);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  })();
  try {
    return await Promise.race([work, loop.then(() => new Promise<never>(() => {}))]);
  } finally {
    done = true;
    await loop.catch(() => {});
  }
}

/** Closes stdin; the process must exit with 0 within EXIT_MS. */
export async function exitsOnEof(server: ServerProcess): Promise<void> {
  const closed = server.close();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((resolve) => timer = setTimeout(() => resolve("late"), EXIT_MS));
  const outcome = await Promise.race([closed, late]);
  clearTimeout(timer);
  assert.notEqual(outcome, "late", `the server did not exit within ${EXIT_MS} ms of EOF`);
  assert.equal((outcome as { code: number }).code, 0);
}

/** Spawns the server on `root` and completes the handshake. */
export async function started(
  root: string,
  flags: string[] = [],
  options: SpawnOptions = {},
): Promise<ServerProcess> {
  const server = await ServerProcess.spawn(["--root", root, ...flags], options);
  await server.send(INIT);
  await server.take((line) => line.startsWith('{"jsonrpc":"2.0","id":1,'));
  return server;
}

/** tools/call through the real process; resolves to the result object. */
export async function call(
  server: ServerProcess,
  id: number,
  name: string,
  args: Record<string, unknown>,
  ms = 60_000,
): Promise<{ isError?: boolean; content: { text: string }[]; structuredContent?: unknown }> {
  await server.send(JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name, arguments: args },
  }));
  const line = await server.take((l) => l.startsWith(`{"jsonrpc":"2.0","id":${id},`), ms);
  const message = JSON.parse(line);
  assert.ok(message.result, `expected a result, got ${line.slice(0, 300)}`);
  return message.result;
}
