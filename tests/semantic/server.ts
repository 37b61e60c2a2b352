/** The real server on the semantic fixture, and a call helper for the semantic tests. */
import assert from "node:assert/strict";
import { ServerProcess } from "../e2e/harness.ts";

const INIT = {
  protocolVersion: "2025-06-18",
  capabilities: {},
  clientInfo: { name: "semantic-test", version: "1" },
};

const CALL_TIMEOUT_MS = 180_000;

export interface Called {
  isError: boolean;
  text: string;
  structured: Record<string, unknown>;
}

export class SemanticServer {
  readonly process: ServerProcess;
  #next = 1;

  private constructor(process: ServerProcess) {
    this.process = process;
  }

  static async start(root: string, flags: string[] = []): Promise<SemanticServer> {
    const process = await ServerProcess.spawn(["--root", root, "--no-git", ...flags]);
    await process.request(0, "initialize", INIT);
    await process.send('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    return new SemanticServer(process);
  }

  async call(name: string, args: Record<string, unknown>): Promise<Called> {
    return await this.request("tools/call", { name, arguments: args });
  }

  /** A request answered within CALL_TIMEOUT_MS (a first call builds a program). */
  async request(method: string, params: Record<string, unknown>): Promise<Called> {
    const id = this.#next++;
    await this.process.send(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
    const answer = JSON.parse(
      await this.process.readUntil((l) => JSON.parse(l).id === id, CALL_TIMEOUT_MS),
    );
    const result = answer.result as {
      content: { text: string }[];
      structuredContent?: Record<string, unknown>;
      isError?: boolean;
    };
    assert.ok(result !== undefined, JSON.stringify(answer));
    return {
      isError: result.isError === true,
      text: result.content.map((c) => c.text).join("\n"),
      structured: result.structuredContent ?? {},
    };
  }

  /** A call that must succeed. */
  async ok(name: string, args: Record<string, unknown>): Promise<Called> {
    const called = await this.call(name, args);
    assert.equal(called.isError, false, `${name} ${JSON.stringify(args)}: ${called.text}`);
    return called;
  }

  async close(): Promise<string> {
    const { stderr } = await this.process.close();
    return stderr;
  }
}
