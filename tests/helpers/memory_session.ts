/** An in-memory client for the Server: write lines in, read answer lines out. */

import { type Config, defaultConfig } from "../../lib/config.ts";
import { RpcError } from "../../lib/jsonrpc/errors.ts";
import type { ResourceProvider } from "../../lib/resources/resource.ts";
import { buildMethods } from "../../lib/features/methods.ts";
import type { MethodTable } from "../../lib/server/method.ts";
import { type ServeEnd, Server, type ServerOptions } from "../../lib/server/server.ts";
import { Session } from "../../lib/tools/session.ts";
import type { Tool } from "../../lib/tools/tool.ts";
import type { Workspace } from "../../lib/workspace/workspace.ts";

export const INIT =
  '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"tests","version":"1"}}}';
export const INIT_ANSWER =
  '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{},"resources":{}},"serverInfo":{"name":"shipcode-mcp","version":"1.0.0"}}}';

/** A provider with no files, for tests that do not exercise the workspace. */
export const emptyProvider: ResourceProvider = {
  list: () => Promise.resolve({ resources: [] }),
  templates: () => [],
  read: (uri) => Promise.reject(RpcError.resourceNotFound(uri)),
};

export interface MethodOptions {
  tools?: Tool[];
  resources?: ResourceProvider;
  workspace?: Workspace | null;
  config?: Partial<Config>;
}

export function testMethods(options: MethodOptions = {}): MethodTable {
  return buildMethods({
    info: { name: "shipcode-mcp", version: "1.0.0" },
    tools: {
      tools: options.tools ?? [],
      workspace: options.workspace === undefined ? ({} as Workspace) : options.workspace,
      config: { ...defaultConfig(), ...options.config },
      session: new Session(),
    },
    resources: options.resources ?? emptyProvider,
  });
}

/** An in-memory stdin: chunks written by the test, then EOF. */
class MemoryInput {
  #chunks: Uint8Array[] = [];
  #ended = false;
  #wake: (() => void) | undefined;

  push(chunk: Uint8Array): void {
    this.#chunks.push(chunk);
    this.#wake?.();
  }

  end(): void {
    this.#ended = true;
    this.#wake?.();
  }

  async read(buffer: Uint8Array): Promise<number | null> {
    while (this.#chunks.length === 0) {
      if (this.#ended) return null;
      await new Promise<void>((resolve) => this.#wake = resolve);
    }
    const chunk = this.#chunks[0];
    const n = Math.min(chunk.length, buffer.length);
    buffer.set(chunk.subarray(0, n));
    if (n === chunk.length) this.#chunks.shift();
    else this.#chunks[0] = chunk.subarray(n);
    return n;
  }
}

export class MemorySession {
  readonly server: Server;
  readonly ended: Promise<ServeEnd>;
  #input = new MemoryInput();
  #lines: string[] = [];
  #partial = "";
  #waiters: Array<() => void> = [];
  #encoder = new TextEncoder();
  /** Number of writes the server made (coalescing shows as fewer writes than lines). */
  writes = 0;

  constructor(methods: MethodTable, options: { maxMessageBytes?: number } & ServerOptions = {}) {
    this.server = new Server(methods, options);
    const decoder = new TextDecoder();
    const output = {
      write: (chunk: Uint8Array) => {
        this.writes++;
        const text = this.#partial + decoder.decode(chunk, { stream: true });
        const parts = text.split("\n");
        this.#partial = parts.pop()!;
        this.#lines.push(...parts);
        for (const wake of this.#waiters.splice(0)) wake();
        return Promise.resolve(chunk.length);
      },
    };
    this.ended = this.server.serve(this.#input, output, {
      maxMessageBytes: options.maxMessageBytes ?? 64 * 1024 * 1024,
    });
  }

  /** Writes raw text (add "\n" yourself) as one chunk. */
  async write(text: string | Uint8Array): Promise<void> {
    this.#input.push(typeof text === "string" ? this.#encoder.encode(text) : text);
    await new Promise((resolve) => setTimeout(resolve, 0));
  }

  /** Writes each line followed by LF, all in one chunk. */
  send(...lines: string[]): Promise<void> {
    return this.write(lines.map((line) => line + "\n").join(""));
  }

  /** Resolves with the next `count` answer lines (waits up to 5 s). */
  async read(count = 1): Promise<string[]> {
    const deadline = Date.now() + 5000;
    while (this.#lines.length < count) {
      if (Date.now() > deadline) {
        throw new Error(`expected ${count} lines, got ${JSON.stringify(this.#lines)}`);
      }
      await new Promise<void>((resolve) => {
        this.#waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
    return this.#lines.splice(0, count);
  }

  /** Lines received so far and not yet read. */
  get unread(): readonly string[] {
    return this.#lines;
  }

  /** Closes input (EOF) and returns every line not yet read once serving ends. */
  async close(): Promise<string[]> {
    this.#input.end();
    await this.ended;
    return this.#lines.splice(0);
  }
}

/** Runs a whole transcript: sends the lines, closes input, returns every answer line. */
export async function transcript(lines: string[], methods = testMethods()): Promise<string[]> {
  const session = new MemorySession(methods);
  await session.send(...lines);
  return session.close();
}
