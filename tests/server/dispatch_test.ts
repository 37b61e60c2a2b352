/** The dispatcher in memory: every step of docs/protocol.md's order of checks and every error row, exact text. */

import assert from "node:assert/strict";
import { RpcError } from "../../lib/jsonrpc/errors.ts";
import type { ResourceProvider } from "../../lib/resources/resource.ts";
import {
  emptyProvider,
  INIT,
  INIT_ANSWER,
  MemorySession,
  testMethods,
  transcript,
} from "../helpers/memory_session.ts";
import { Server } from "../../lib/server/server.ts";
import { steady, until } from "../helpers/event_loop.ts";

const PING = (id: string | number) =>
  `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"ping"}`;

Deno.test("initialize: answers the exact seed bytes", async () => {
  assert.deepEqual(await transcript([INIT]), [INIT_ANSWER]);
});

Deno.test("initialize: answers 2025-06-18 whatever version the client asks for", async () => {
  const asks = [
    '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}',
    '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"1999-01-01"}}',
  ];
  for (const ask of asks) assert.deepEqual(await transcript([ask]), [INIT_ANSWER]);
});

Deno.test("initialize: never fails on absent, partial or mistyped params", async () => {
  const asks = [
    '{"jsonrpc":"2.0","id":1,"method":"initialize"}',
    '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}',
    '{"jsonrpc":"2.0","id":1,"method":"initialize","params":[1,2]}',
    '{"jsonrpc":"2.0","id":1,"method":"initialize","params":"x"}',
    '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":5,"capabilities":"no","clientInfo":null}}',
    '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{"elicitation":{},"extensions":{"x":1}}}}',
  ];
  for (const ask of asks) assert.deepEqual(await transcript([ask]), [INIT_ANSWER]);
});

Deno.test("initialize: a repeated initialize is answered the same way", async () => {
  assert.deepEqual(await transcript([INIT, INIT]), [INIT_ANSWER, INIT_ANSWER]);
});

Deno.test("notifications/initialized: produces no output", async () => {
  assert.deepEqual(
    await transcript([INIT, '{"jsonrpc":"2.0","method":"notifications/initialized"}']),
    [INIT_ANSWER],
  );
});

Deno.test("ping: answers an empty result before and after initialize", async () => {
  assert.deepEqual(await transcript([PING(7), INIT, PING("p")]), [
    '{"jsonrpc":"2.0","id":7,"result":{}}',
    INIT_ANSWER,
    '{"jsonrpc":"2.0","id":"p","result":{}}',
  ]);
});

Deno.test("dispatch step 1: a line that is not JSON gets -32700 with id null", async () => {
  assert.deepEqual(await transcript(["{not json", '{"jsonrpc":"2.0","id":1,"method":"ping"']), [
    '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}',
    '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}',
  ]);
});

Deno.test("dispatch step 2: JSON that is not an object gets -32600 with id null", async () => {
  const invalid = '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}';
  assert.deepEqual(
    await transcript(["1", '"ping"', "null", "true", "[]", `[${PING(1)}]`]),
    Array(6).fill(invalid),
  );
});

Deno.test("dispatch step 3: notifications are never answered, whatever jsonrpc or params", async () => {
  assert.deepEqual(
    await transcript([
      '{"jsonrpc":"2.0","method":"notifications/unknown"}',
      '{"jsonrpc":"1.0","method":"notifications/initialized","params":7}',
      '{"method":42}',
      '{"jsonrpc":"2.0","method":"ping"}',
      '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}',
      '{"jsonrpc":"2.0","method":"notifications/cancelled","params":"bad"}',
    ]),
    [],
  );
});

Deno.test("dispatch step 4: responses from the client are ignored", async () => {
  assert.deepEqual(
    await transcript([
      '{"jsonrpc":"2.0","id":5,"result":{}}',
      '{"jsonrpc":"2.0","id":"x","error":{"code":1,"message":"m"}}',
    ]),
    [],
  );
});

Deno.test("dispatch step 4: an id without method, result or error gets -32600 echoing a valid id", async () => {
  assert.deepEqual(
    await transcript([
      '{"jsonrpc":"2.0","id":5}',
      '{"jsonrpc":"2.0","id":1.5}',
      '{"jsonrpc":"2.0"}',
    ]),
    [
      '{"jsonrpc":"2.0","id":5,"error":{"code":-32600,"message":"Invalid Request"}}',
      '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}',
      '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}',
    ],
  );
});

Deno.test("dispatch step 5: an id that is not a string or integer gets -32600 with id null", async () => {
  const invalid = '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}';
  const ids = ["null", "1.5", "true", "{}", "[1]"];
  assert.deepEqual(
    await transcript(ids.map((id) => `{"jsonrpc":"2.0","id":${id},"method":"ping"}`)),
    Array(ids.length).fill(invalid),
  );
});

Deno.test("dispatch step 5: a bad jsonrpc or a non-string method gets -32600 with the request id", async () => {
  assert.deepEqual(
    await transcript([
      '{"jsonrpc":"1.0","id":3,"method":"ping"}',
      '{"id":"s","method":"ping"}',
      '{"jsonrpc":"2.0","id":4,"method":7}',
    ]),
    [
      '{"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"Invalid Request"}}',
      '{"jsonrpc":"2.0","id":"s","error":{"code":-32600,"message":"Invalid Request"}}',
      '{"jsonrpc":"2.0","id":4,"error":{"code":-32600,"message":"Invalid Request"}}',
    ],
  );
});

Deno.test("dispatch step 5: ids are echoed as parsed, 0 and empty string included", async () => {
  assert.deepEqual(
    await transcript([
      PING(0),
      PING(""),
      PING(-12),
      PING("1"),
      '{"jsonrpc":"2.0","id":1e21,"method":"ping"}',
    ]),
    [
      '{"jsonrpc":"2.0","id":0,"result":{}}',
      '{"jsonrpc":"2.0","id":"","result":{}}',
      '{"jsonrpc":"2.0","id":-12,"result":{}}',
      '{"jsonrpc":"2.0","id":"1","result":{}}',
      '{"jsonrpc":"2.0","id":1000000000000000000000,"result":{}}',
    ],
  );
});

Deno.test("dispatch step 6: unknown methods get -32601 before and after initialize", async () => {
  const notFound = (id: number) =>
    `{"jsonrpc":"2.0","id":${id},"error":{"code":-32601,"message":"Method not found"}}`;
  assert.deepEqual(
    await transcript([
      '{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{}}',
      '{"jsonrpc":"2.0","id":2,"method":"prompts/list"}',
      INIT,
      '{"jsonrpc":"2.0","id":3,"method":"notifications/initialized"}',
      '{"jsonrpc":"2.0","id":4,"method":"__proto__"}',
      '{"jsonrpc":"2.0","id":5,"method":"completion/complete"}',
    ]),
    [notFound(1), notFound(2), INIT_ANSWER, notFound(3), notFound(4), notFound(5)],
  );
});

Deno.test("dispatch step 7: implemented methods before initialize get Server not initialized", async () => {
  const methods = [
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/read",
    "resources/templates/list",
  ];
  assert.deepEqual(
    await transcript(
      methods.map((m, i) => `{"jsonrpc":"2.0","id":${i},"method":"${m}","params":{}}`),
    ),
    methods.map((_, i) =>
      `{"jsonrpc":"2.0","id":${i},"error":{"code":-32600,"message":"Server not initialized"}}`
    ),
  );
});

Deno.test("dispatch step 7: the gate opens as soon as initialize is handled, without notifications/initialized", async () => {
  assert.deepEqual(await transcript([INIT, '{"jsonrpc":"2.0","id":2,"method":"tools/list"}']), [
    INIT_ANSWER,
    '{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}',
  ]);
});

Deno.test("dispatch step 8: params that are not an object get -32602", async () => {
  assert.deepEqual(
    await transcript([
      INIT,
      '{"jsonrpc":"2.0","id":2,"method":"tools/list","params":[1]}',
      '{"jsonrpc":"2.0","id":3,"method":"ping","params":"x"}',
    ]),
    [
      INIT_ANSWER,
      '{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"Invalid params: params must be an object"}}',
      '{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Invalid params: params must be an object"}}',
    ],
  );
});

Deno.test("tools/list: a cursor that was never issued gets -32602 Invalid cursor", async () => {
  assert.deepEqual(
    await transcript([
      INIT,
      '{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":"abc"}}',
    ]),
    [
      INIT_ANSWER,
      '{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"Invalid cursor"}}',
    ],
  );
});

Deno.test("tools/call: missing name, unknown tool and bad arguments get -32602", async () => {
  assert.deepEqual(
    await transcript([
      INIT,
      '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{}}',
      '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"nope"}}',
      '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":5}}',
    ]),
    [
      INIT_ANSWER,
      '{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"Missing required parameter: name"}}',
      '{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Unknown tool: nope"}}',
      '{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"Invalid parameter: name must be a string"}}',
    ],
  );
});

Deno.test("resources/read: a missing uri gets -32602 and an unknown one -32002 with data.uri", async () => {
  assert.deepEqual(
    await transcript([
      INIT,
      '{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{}}',
      '{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"file:///etc/passwd"}}',
    ]),
    [
      INIT_ANSWER,
      '{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"Missing required parameter: uri"}}',
      '{"jsonrpc":"2.0","id":3,"error":{"code":-32002,"message":"Resource not found","data":{"uri":"file:///etc/passwd"}}}',
    ],
  );
});

Deno.test("resources/list: a cursor that is not a string gets -32602 Invalid cursor", async () => {
  assert.deepEqual(
    await transcript([
      INIT,
      '{"jsonrpc":"2.0","id":2,"method":"resources/list","params":{"cursor":7}}',
    ]),
    [
      INIT_ANSWER,
      '{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"Invalid cursor"}}',
    ],
  );
});

Deno.test("errors: an unexpected failure inside a handler is -32603 Internal error without details", async () => {
  const broken: ResourceProvider = {
    ...emptyProvider,
    list: () => Promise.reject(new Error("disk on fire at /secret")),
  };
  const lines = await transcript(
    [INIT, '{"jsonrpc":"2.0","id":2,"method":"resources/list"}'],
    testMethods({ resources: broken }),
  );
  assert.deepEqual(lines, [
    INIT_ANSWER,
    '{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"Internal error"}}',
  ]);
});

Deno.test("errors: a line over the cap gets Request too large with id null and the next line is served", async () => {
  const session = new MemorySession(testMethods(), { maxMessageBytes: 64 });
  await session.send(
    `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${"x".repeat(100)}"}}`,
    PING(2),
  );
  assert.deepEqual(await session.close(), [
    '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Request too large"}}',
    '{"jsonrpc":"2.0","id":2,"result":{}}',
  ]);
});

Deno.test("errors: deeply nested JSON does not kill the server", async () => {
  const deep = "[".repeat(200_000) + "]".repeat(200_000);
  const nested = `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":${deep}}}`;
  assert.deepEqual(await transcript([deep, nested, PING(2)]), [
    '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}',
    '{"jsonrpc":"2.0","id":1,"result":{}}',
    '{"jsonrpc":"2.0","id":2,"result":{}}',
  ]);
});

Deno.test("ordering: instant answers and envelope errors leave in arrival order", async () => {
  const lines = [
    PING(1),
    "x",
    INIT,
    '{"jsonrpc":"2.0","id":2,"method":"nope"}',
    '{"jsonrpc":"2.0","id":3,"method":"tools/list"}',
    PING(4),
  ];
  const answers = await transcript(lines);
  assert.deepEqual(answers.map((a) => JSON.parse(a).id), [1, null, 1, 2, 3, 4]);
});

/** A provider whose list() waits until released, to hold a request in flight. */
function gatedProvider() {
  const gates: Array<{ release: () => void; signal: AbortSignal }> = [];
  const provider: ResourceProvider = {
    ...emptyProvider,
    list: (_cursor, signal) =>
      new Promise((resolve, reject) => {
        gates.push({ release: () => resolve({ resources: [] }), signal });
        signal.addEventListener("abort", () => reject(signal.reason));
      }),
  };
  return { provider, gates };
}

Deno.test("in flight: a second request with an in-flight id gets Duplicate request id and the first goes on", async () => {
  const { provider, gates } = gatedProvider();
  const session = new MemorySession(testMethods({ resources: provider }));
  await session.send(
    INIT,
    '{"jsonrpc":"2.0","id":"r","method":"resources/list"}',
    '{"jsonrpc":"2.0","id":"r","method":"ping"}',
  );
  assert.deepEqual(await session.read(2), [
    INIT_ANSWER,
    '{"jsonrpc":"2.0","id":"r","error":{"code":-32600,"message":"Duplicate request id"}}',
  ]);
  gates[0].release();
  assert.deepEqual(await session.read(1), ['{"jsonrpc":"2.0","id":"r","result":{"resources":[]}}']);
  await session.send('{"jsonrpc":"2.0","id":"r","method":"ping"}');
  assert.deepEqual(await session.close(), ['{"jsonrpc":"2.0","id":"r","result":{}}']);
});

Deno.test('in flight: the string id "1" and the number 1 are different ids', async () => {
  const { provider, gates } = gatedProvider();
  const session = new MemorySession(testMethods({ resources: provider }));
  await session.send(INIT, '{"jsonrpc":"2.0","id":"1","method":"resources/list"}', PING(1));
  assert.deepEqual(await session.read(2), [INIT_ANSWER, '{"jsonrpc":"2.0","id":1,"result":{}}']);
  gates[0].release();
  assert.deepEqual(await session.close(), ['{"jsonrpc":"2.0","id":"1","result":{"resources":[]}}']);
});

Deno.test("cancellation: notifications/cancelled aborts the work and suppresses its answer", async () => {
  const { provider, gates } = gatedProvider();
  const session = new MemorySession(testMethods({ resources: provider }));
  await session.send(INIT, '{"jsonrpc":"2.0","id":9,"method":"resources/list"}');
  assert.deepEqual(await session.read(1), [INIT_ANSWER]);
  await session.send(
    '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9,"reason":"user"}}',
    PING(10),
  );
  assert.deepEqual(await session.read(1), ['{"jsonrpc":"2.0","id":10,"result":{}}']);
  assert.equal(gates[0].signal.aborted, true);
  gates[0].release();
  assert.deepEqual(await session.close(), []);
});

Deno.test("in flight: requests past the in-flight limit wait in arrival order, and a cancelled one never starts", async () => {
  const { provider, gates } = gatedProvider();
  const session = new MemorySession(testMethods({ resources: provider }));
  const list = (id: number) => `{"jsonrpc":"2.0","id":${id},"method":"resources/list"}`;
  const ids = Array.from({ length: 20 }, (_, i) => 100 + i);
  await session.send(INIT, ...ids.map(list));
  assert.deepEqual(await session.read(1), [INIT_ANSWER]);
  assert.equal(gates.length, 16, "sixteen run, the others wait");
  // While full: a cancellation of a waiting request is acted on, a duplicate of it is refused,
  // and ping is answered at once.
  await session.send(
    '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":117}}',
    list(118),
    PING(5),
  );
  assert.deepEqual(await session.read(2), [
    '{"jsonrpc":"2.0","id":118,"error":{"code":-32600,"message":"Duplicate request id"}}',
    '{"jsonrpc":"2.0","id":5,"result":{}}',
  ]);
  gates[0].release();
  gates[1].release();
  assert.deepEqual(await session.read(2), [
    '{"jsonrpc":"2.0","id":100,"result":{"resources":[]}}',
    '{"jsonrpc":"2.0","id":101,"result":{"resources":[]}}',
  ]);
  assert.equal(gates.length, 18, "the next two waiting requests started, in arrival order");
  for (const gate of gates.slice(2)) gate.release();
  // Nineteen start in all: twenty sent, 117 cancelled while it waited.
  await until(() => gates.length === 19, "the last waiting request started");
  for (const gate of gates.slice(18)) gate.release();
  const rest = (await session.close()).map((line) => JSON.parse(line).id);
  assert.deepEqual(rest, ids.slice(2).filter((id) => id !== 117));
});

Deno.test("lifecycle: EOF lets in-flight requests finish and their answers flush", async () => {
  const { provider, gates } = gatedProvider();
  const session = new MemorySession(testMethods({ resources: provider }));
  await session.send(INIT, '{"jsonrpc":"2.0","id":2,"method":"resources/list"}');
  const closing = session.close();
  await until(() => gates.length === 1, "the request started");
  gates[0].release();
  assert.deepEqual(await closing, [
    INIT_ANSWER,
    '{"jsonrpc":"2.0","id":2,"result":{"resources":[]}}',
  ]);
  assert.equal(await session.ended, "eof");
});

Deno.test("lifecycle: shutdown cancels in-flight work and ends serving", async () => {
  const { provider, gates } = gatedProvider();
  const session = new MemorySession(testMethods({ resources: provider }));
  await session.send(INIT, '{"jsonrpc":"2.0","id":2,"method":"resources/list"}');
  assert.deepEqual(await session.read(1), [INIT_ANSWER]);
  await session.server.shutdown();
  assert.equal(gates[0].signal.aborted, true);
  assert.equal(await session.ended, "shutdown");
});

Deno.test("resources errors: an RpcError from the provider reaches the wire with its data", async () => {
  const provider: ResourceProvider = {
    ...emptyProvider,
    read: (uri) => Promise.reject(RpcError.resourceNotFound(uri, "secret")),
  };
  const lines = await transcript(
    [INIT, '{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"file:///w/.env"}}'],
    testMethods({ resources: provider }),
  );
  assert.deepEqual(
    lines[1],
    '{"jsonrpc":"2.0","id":2,"error":{"code":-32002,"message":"Resource not found","data":{"uri":"file:///w/.env","reason":"secret"}}}',
  );
});

Deno.test("output: the instant answers to one chunk leave in one write, whole lines only", async () => {
  const session = new MemorySession(testMethods());
  await session.send(INIT, ...[...Array(50)].map((_, i) => PING(i + 2)));
  const lines = await session.close();
  assert.equal(lines.length, 51);
  assert.equal(session.writes, 1);
});

Deno.test("output: large and multi-byte answers are written exactly", async () => {
  const ids = ["é".repeat(40_000), "x".repeat(200_000), "😀€".repeat(30_000), "plain"];
  const lines = await transcript(ids.map((id) => PING(id)));
  assert.deepEqual(
    lines,
    ids.map((id) => `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{}}`),
  );
});

Deno.test("in flight: held requests do not start while the output waits for a client that does not read", async () => {
  const big = "x".repeat(1024 * 1024);
  let started = 0;
  const provider: ResourceProvider = {
    ...emptyProvider,
    read: (uri) => {
      started++;
      return Promise.resolve({ contents: [{ uri, mimeType: "text/plain", text: big }] });
    },
  };
  // A client that reads nothing until released: every write waits.
  let release: () => void = () => {};
  const reading = new Promise<void>((resolve) => release = resolve);
  const lines: string[] = [];
  let partial = "";
  const decoder = new TextDecoder();
  const sink = {
    write: async (chunk: Uint8Array) => {
      await reading;
      const parts = (partial + decoder.decode(chunk, { stream: true })).split("\n");
      partial = parts.pop()!;
      lines.push(...parts);
      return chunk.length;
    },
  };
  const encoder = new TextEncoder();
  const requests = [INIT];
  for (let i = 0; i < 40; i++) {
    requests.push(
      `{"jsonrpc":"2.0","id":${
        100 + i
      },"method":"resources/read","params":{"uri":"file:///w/${i}"}}`,
    );
  }
  let sent = false;
  const input = {
    read: async (buffer: Uint8Array) => {
      if (sent) {
        await reading;
        return null;
      }
      sent = true;
      const bytes = encoder.encode(requests.map((r) => r + "\n").join(""));
      buffer.set(bytes);
      return bytes.length;
    },
  };
  const server = new Server(testMethods({ resources: provider }));
  const ended = server.serve(input, sink, { maxMessageBytes: 1024 * 1024 });
  await until(() => started > 0, "a read started");
  await steady(() => `${started}`);
  // 16 in flight fill the output past its mark; the other 24 must wait for the client.
  assert.ok(started <= 16, `${started} reads started while nothing was read`);
  release();
  assert.equal(await ended, "eof");
  assert.equal(lines.length, 41);
  assert.equal(started, 40);
});
