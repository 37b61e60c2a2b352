/**
 * A real server process for tool tests: started with the given flags, initialised, and called
 * tool by tool. Answers come back as `{text, structured, isError}`.
 */
import { ServerProcess } from "../e2e/harness.ts";

const INIT = {
  protocolVersion: "2025-06-18",
  capabilities: {},
  clientInfo: { name: "tool-process-test", version: "1" },
};

export interface ToolAnswer {
  text: string;
  structured: Record<string, unknown> | undefined;
  isError: boolean;
}

export class ToolProcess {
  readonly server: ServerProcess;
  #id = 1;

  private constructor(server: ServerProcess) {
    this.server = server;
  }

  static async start(root: string, flags: string[] = []): Promise<ToolProcess> {
    const server = await ServerProcess.spawn(["--root", root, ...flags]);
    await server.request(0, "initialize", INIT);
    await server.send('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    return new ToolProcess(server);
  }

  async call(name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
    const answer = await this.server.request(this.#id++, "tools/call", { name, arguments: args });
    if (answer.error !== undefined) throw new Error(`${name}: ${JSON.stringify(answer.error)}`);
    const result = answer.result as {
      content: { type: string; text?: string }[];
      structuredContent?: Record<string, unknown>;
      isError?: boolean;
    };
    return {
      text: result.content.map((c) => c.text ?? "").join("\n"),
      structured: result.structuredContent,
      isError: result.isError === true,
    };
  }

  async request(method: string, params?: unknown): Promise<Record<string, unknown>> {
    return await this.server.request(this.#id++, method, params);
  }

  async toolNames(): Promise<string[]> {
    const list = await this.request("tools/list");
    return (list.result as { tools: { name: string }[] }).tools.map((t) => t.name);
  }

  async stop(): Promise<void> {
    await this.server.kill();
  }
}
