/** The features load after the handshake: initialize never waits for them, order is kept. */

import assert from "node:assert/strict";
import { coreMethods } from "../../lib/features/lifecycle.ts";
import type { MethodTable } from "../../lib/server/method.ts";
import { INIT, INIT_ANSWER, MemorySession } from "../helpers/memory_session.ts";

const INFO = { name: "shipcode-mcp", version: "1.0.0" };

function lazy(table: () => Promise<MethodTable>) {
  let loads = 0;
  let release!: () => void;
  const gate = new Promise<void>((resolve) => release = resolve);
  const session = new MemorySession(coreMethods(INFO), {
    later: {
      methods: ["tools/list"],
      load: () => {
        loads++;
        return gate.then(table);
      },
    },
  });
  return { session, release, loads: () => loads };
}

const toolsList: () => Promise<MethodTable> = () =>
  Promise.resolve(new Map([["tools/list", { beforeInit: false, handle: () => '{"tools":[]}' }]]));

Deno.test("lazy features: initialize and ping are answered while the features are not loaded", async () => {
  const { session, loads } = lazy(toolsList);
  await session.send('{"jsonrpc":"2.0","id":0,"method":"ping"}', INIT);
  assert.deepEqual(await session.read(2), ['{"jsonrpc":"2.0","id":0,"result":{}}', INIT_ANSWER]);
  assert.ok(loads() <= 1);
  await session.server.shutdown();
});

Deno.test("lazy features: requests behind a feature request wait and keep arrival order", async () => {
  const { session, release } = lazy(toolsList);
  await session.send(
    INIT,
    '{"jsonrpc":"2.0","id":2,"method":"tools/list"}',
    '{"jsonrpc":"2.0","id":3,"method":"ping"}',
  );
  assert.deepEqual(await session.read(1), [INIT_ANSWER]);
  await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(session.unread, []);
  release();
  assert.deepEqual(await session.close(), [
    '{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}',
    '{"jsonrpc":"2.0","id":3,"result":{}}',
  ]);
});

Deno.test("lazy features: an unknown method is answered at once while they load", async () => {
  const { session, release } = lazy(toolsList);
  await session.send('{"jsonrpc":"2.0","id":1,"method":"server/discover"}');
  assert.deepEqual(await session.read(1), [
    '{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}',
  ]);
  release();
  await session.close();
});

Deno.test("lazy features: the gate still applies to a feature request held before initialize", async () => {
  const { session, release } = lazy(toolsList);
  await session.send('{"jsonrpc":"2.0","id":1,"method":"tools/list"}', INIT);
  release();
  assert.deepEqual(await session.close(), [
    '{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Server not initialized"}}',
    INIT_ANSWER,
  ]);
});

Deno.test("lazy features: they load after the handshake even when nothing asks for them", async () => {
  const { session, release, loads } = lazy(toolsList);
  await session.send(INIT);
  await session.read(1);
  await new Promise((r) => setTimeout(r, 10));
  assert.equal(loads(), 1);
  release();
  await session.close();
});

Deno.test("lazy features: a failed load answers the held requests with Internal error", async () => {
  const { session, release } = lazy(() => Promise.reject(new Error("broken install")));
  await session.send(INIT, '{"jsonrpc":"2.0","id":2,"method":"tools/list"}');
  release();
  assert.deepEqual(await session.close(), [
    INIT_ANSWER,
    '{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"Internal error"}}',
  ]);
});
