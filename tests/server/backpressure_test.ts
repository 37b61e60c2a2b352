/**
 * Back-pressure against a client that does not read (docs/protocol.md, "Requests in flight"):
 * nothing new starts while the output is over its mark, yet notifications are still read and
 * acted on, so a cancellation frees its request's share at once, even an answer still queued.
 * Nothing here reads the clock: each step waits for the server to settle (turns of the event loop
 * with no change), so a loaded machine makes the tests slower, never wrong.
 */

import assert from "node:assert/strict";
import type { ResourceProvider } from "../../lib/resources/resource.ts";
import { Server } from "../../lib/server/server.ts";
import { emptyProvider, INIT, INIT_ANSWER, testMethods } from "../helpers/memory_session.ts";
import { turn, until } from "../helpers/event_loop.ts";

/** More than the output's mark (8 Mi UTF-16 units): one such answer backs the output up. */
const BIG = "x".repeat(9 * 1024 * 1024);

const read = (id: number, uri: string) =>
  `{"jsonrpc":"2.0","id":${id},"method":"resources/read","params":{"uri":"file:///w/${uri}"}}`;
const cancel = (id: number) =>
  `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":${id}}}`;
const ping = (id: number) => `{"jsonrpc":"2.0","id":${id},"method":"ping"}`;

/** A provider whose "big" file answers at once with BIG and whose other files wait for release. */
function provider() {
  const gates: Array<{ uri: string; release: () => void; signal: AbortSignal }> = [];
  const resources: ResourceProvider = {
    ...emptyProvider,
    read: (uri, signal) => {
      if (uri.endsWith("/big")) {
        return Promise.resolve({ contents: [{ uri, mimeType: "text/plain", text: BIG }] });
      }
      return new Promise((resolve, reject) => {
        gates.push({
          uri,
          release: () => resolve({ contents: [{ uri, mimeType: "text/plain", text: "small" }] }),
          signal,
        });
        signal?.addEventListener("abort", () => reject(signal.reason));
      });
    },
  };
  return { resources, gates };
}

/** Turns that show no change in `state` before the server counts as settled. */
const SETTLED_TURNS = 10;

/** A client that sends when told and reads nothing until `startReading`. */
class StalledClient {
  readonly lines: string[] = [];
  /** Chunks the server has taken from the input so far. */
  chunksTaken = 0;
  readonly ended: Promise<string>;
  #chunks: Uint8Array[] = [];
  /** The server waits in read() with nothing to take. */
  #waiting = false;
  #closed = false;
  #wakeInput: () => void = () => {};
  #startReading: () => void = () => {};
  #reading = new Promise<void>((resolve) => this.#startReading = resolve);
  #partial = "";
  #decoder = new TextDecoder();

  constructor(server: Server) {
    const input = { read: (buffer: Uint8Array) => this.#read(buffer) };
    const sink = {
      write: async (chunk: Uint8Array) => {
        await this.#reading;
        const parts = (this.#partial + this.#decoder.decode(chunk, { stream: true })).split("\n");
        this.#partial = parts.pop()!;
        this.lines.push(...parts);
        return chunk.length;
      },
    };
    this.ended = server.serve(input, sink, { maxMessageBytes: 1024 * 1024 });
  }

  /** Each line its own chunk (the server reads them one at a time); returns once settled. */
  async send(...lines: string[]): Promise<void> {
    for (const line of lines) this.#chunks.push(new TextEncoder().encode(line + "\n"));
    this.#wakeInput();
    await this.settled();
  }

  /**
   * Resolves once the server has done all it will do with what it was sent: it took every
   * chunk and waits for more, or it stopped taking them (reading paused), and neither that nor
   * the lines written changed for SETTLED_TURNS turns of the event loop.
   */
  async settled(extra: () => unknown = () => 0): Promise<void> {
    let last = "";
    for (let idle = 0, k = 0; idle < SETTLED_TURNS; k++) {
      if (k > 20_000) throw new Error("the server did not settle in 20,000 turns of the loop");
      await turn();
      const state = `${this.chunksTaken}/${this.lines.length}/${String(extra())}`;
      const resting = this.#chunks.length > 0 || this.#waiting;
      idle = state === last && resting ? idle + 1 : 0;
      last = state;
    }
  }

  startReading(): void {
    this.#startReading();
  }

  async close(): Promise<string[]> {
    this.#closed = true;
    this.#wakeInput();
    await this.ended;
    return this.lines;
  }

  async #read(buffer: Uint8Array): Promise<number | null> {
    while (this.#chunks.length === 0) {
      if (this.#closed) return null;
      this.#waiting = true;
      await new Promise<void>((resolve) => this.#wakeInput = resolve);
      this.#waiting = false;
    }
    const chunk = this.#chunks.shift()!;
    buffer.set(chunk);
    this.chunksTaken++;
    return chunk.length;
  }
}

/** The id of each answer, in the order written. */
function idsOf(lines: string[]): number[] {
  return lines.map((line) => Number(/^\{"jsonrpc":"2\.0","id":(\d+),/.exec(line)?.[1]));
}

Deno.test("back-pressure: a cancellation is acted on at once while the output waits for a client that does not read", async () => {
  const { resources, gates } = provider();
  const client = new StalledClient(new Server(testMethods({ resources })));
  await client.send(INIT, read(2, "a"), read(3, "b"), read(4, "big"));
  assert.equal(gates.length, 2);
  // The big answer is queued: the output is over its mark, and the client reads nothing.
  await client.send(cancel(2), cancel(3));
  assert.deepEqual(gates.map((g) => g.signal.aborted), [true, true]);
  client.startReading();
  const lines = await client.close();
  assert.equal(lines[0], INIT_ANSWER);
  assert.deepEqual(idsOf(lines), [1, 4]);
});

Deno.test("back-pressure: the queued answer of a request cancelled after it finished is never written", async () => {
  const { resources } = provider();
  const client = new StalledClient(new Server(testMethods({ resources })));
  await client.send(INIT, read(2, "big"), read(3, "big"));
  await client.send(cancel(3));
  client.startReading();
  assert.deepEqual(idsOf(await client.close()), [1, 2]);
});

Deno.test("back-pressure: requests read while the output is over its mark start once it drains, in arrival order", async () => {
  const { resources, gates } = provider();
  const client = new StalledClient(new Server(testMethods({ resources })));
  await client.send(INIT, read(2, "big"), ping(3), read(4, "a"), ping(5), read(6, "b"));
  assert.equal(gates.length, 0, "nothing started while the client did not read");
  await client.send(cancel(6));
  client.startReading();
  await until(() => gates.length > 0, "the held read of a started");
  await client.settled(() => gates.length);
  assert.deepEqual(gates.map((g) => g.uri), ["file:///w/a"]);
  gates[0].release();
  assert.deepEqual(idsOf(await client.close()), [1, 2, 3, 5, 4]);
});

Deno.test("back-pressure: reading stops while the deferred lines reach their bound, and every line is answered after", async () => {
  const { resources } = provider();
  const client = new StalledClient(new Server(testMethods({ resources })));
  await client.send(INIT, read(2, "big"));
  const pings = Array.from({ length: 1500 }, (_, i) => ping(100 + i));
  await client.send(...pings);
  // Settled: reading has paused (or taken everything, which the bound below refuses).
  // INIT, the read, then 1,024 deferred lines: the rest stays in the client's pipe.
  assert.ok(client.chunksTaken <= 2 + 1024 + 1, `${client.chunksTaken} chunks taken`);
  client.startReading();
  const ids = idsOf(await client.close());
  assert.deepEqual(ids, [1, 2, ...pings.map((_, i) => 100 + i)]);
});
