/**
 * Spawns the real server (`deno run <the start task's flags> main.ts`) and talks to it over
 * stdio. Every line it writes to stdout must be a JSON message valid against the MCP schema.
 */

import assert from "node:assert/strict";
import { assertServerMessage } from "../helpers/schema.ts";

const ROOT = new URL("../../", import.meta.url);
export const MAIN = new URL("main.ts", ROOT).pathname;

/** The server's permission flags: the words between `deno run` and `main.ts` of tasks.start. */
export async function serverFlags(): Promise<string[]> {
  const deno = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT)));
  const command: string = typeof deno.tasks.start === "string"
    ? deno.tasks.start
    : deno.tasks.start.command;
  const words = command.split(" ").filter((w) => w !== "");
  const run = words.indexOf("run");
  const main = words.indexOf("main.ts");
  assert.ok(words[0] === "deno" && run === 1 && main > run, `unexpected start task: ${command}`);
  return words.slice(run + 1, main);
}

/**
 * The server arguments of a test spawn: `--no-cache` unless the test names its own cache
 * (`--cache-dir` of a temp folder, or `--no-cache`), so that no test writes into the user's cache;
 * and `--no-daemon` unless the test says `--daemon` (tests/daemon/ do, each with a socket folder of
 * its own), so that no test starts a shared daemon that outlives it or shares one with another.
 */
export function testArgs(args: readonly string[]): string[] {
  const own = args.some((a) =>
    a === "--no-cache" || a === "--cache-dir" || a.startsWith("--cache-dir=")
  );
  const out = own ? [...args] : [...args, "--no-cache"];
  return args.includes("--daemon") || args.includes("--no-daemon") ? out : [...out, "--no-daemon"];
}

/**
 * The environment of a test spawn: this process's own (so the server finds the same Deno cache:
 * DENO_DIR, HOME, XDG_CACHE_HOME; without them it would fetch every npm package again and miss
 * its start-up timeout), plus `extra`. Clients that build a minimal environment (the SDK's
 * StdioClientTransport keeps only HOME, PATH, SHELL, TERM, USER and LOGNAME) must be given it.
 */
export function spawnEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { ...Deno.env.toObject(), NO_COLOR: "1", ...extra };
}

export interface SpawnOptions {
  cwd?: string;
  env?: Record<string, string>;
  /** Skip schema validation of answers (only for tests that send deliberately odd ids). */
  noSchema?: boolean;
}

export class ServerProcess {
  readonly child: Deno.ChildProcess;
  #writer: WritableStreamDefaultWriter<Uint8Array>;
  #lines: string[] = [];
  #waiters: Array<() => void> = [];
  #stdoutDone: Promise<void>;
  #stderr: Promise<string>;
  /** The stderr read so far: a timeout says what the process logged before it. */
  #stderrSoFar = "";
  /** The first stdout line that broke the protocol's schema, as an error. */
  #broken: Error | null = null;
  #methods = new Map<string, string>();
  #noSchema: boolean;
  /** Raw stdout text, for purity checks. */
  raw = "";

  constructor(child: Deno.ChildProcess, noSchema: boolean) {
    this.child = child;
    this.#noSchema = noSchema;
    this.#writer = child.stdin.getWriter();
    this.#stdoutDone = this.#pump(child.stdout);
    this.#stderr = this.#collect(child.stderr);
  }

  async #collect(stream: ReadableStream<Uint8Array>): Promise<string> {
    const decoder = new TextDecoder();
    for await (const chunk of stream) this.#stderrSoFar += decoder.decode(chunk, { stream: true });
    return this.#stderrSoFar += decoder.decode();
  }

  /** What a timeout says besides its own words: the unread lines and the end of stderr. */
  #context(): string {
    const unread = this.#lines.map((line) => line.slice(0, 300)).slice(-5);
    return `; unread lines (last ${unread.length} of ${this.#lines.length}): ${
      JSON.stringify(unread)
    }; stderr so far (its end): ${JSON.stringify(this.#stderrSoFar.slice(-3000))}`;
  }

  static async spawn(args: string[] = [], options: SpawnOptions = {}): Promise<ServerProcess> {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", ...(await serverFlags()), MAIN, ...testArgs(args)],
      cwd: options.cwd,
      env: spawnEnv(options.env),
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    return new ServerProcess(child, options.noSchema ?? false);
  }

  async #pump(stream: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let partial = "";
    for await (const chunk of stream) {
      const text = decoder.decode(chunk, { stream: true });
      this.raw += text;
      const parts = (partial + text).split("\n");
      partial = parts.pop()!;
      for (const line of parts) {
        this.#lines.push(line);
        if (!this.#noSchema && this.#broken === null) this.#check(line);
      }
      for (const wake of this.#waiters.splice(0)) wake();
    }
    assert.equal(partial, "", "stdout ended with a partial line");
    for (const wake of this.#waiters.splice(0)) wake();
  }

  /**
   * Checks one stdout line against the schema; a line that fails is kept as the error every
   * later read throws at once (the pump goes on, so a timeout never hides it).
   */
  #check(line: string): void {
    try {
      const message = JSON.parse(line);
      const method = "id" in message && message.id !== null
        ? this.#methods.get(JSON.stringify(message.id))
        : undefined;
      assertServerMessage(line, method);
    } catch (error) {
      this.#broken = error instanceof Error ? error : new Error(String(error));
    }
  }

  /** Writes raw bytes or text to stdin. */
  async write(data: string | Uint8Array): Promise<void> {
    await this.#writer.write(typeof data === "string" ? new TextEncoder().encode(data) : data);
  }

  /** Sends lines (each followed by LF) in one write, remembering request methods for validation. */
  async send(...lines: string[]): Promise<void> {
    for (const line of lines) {
      try {
        const message = JSON.parse(line);
        if (message && typeof message === "object" && "id" in message && "method" in message) {
          this.#methods.set(JSON.stringify(message.id), message.method);
        }
      } catch {
        // Not JSON on purpose.
      }
    }
    await this.write(lines.map((l) => l + "\n").join(""));
  }

  /** Sends a request object and waits for the answer with the same id. */
  async request(
    id: number | string,
    method: string,
    params?: unknown,
  ): Promise<Record<string, unknown>> {
    const message: Record<string, unknown> = { jsonrpc: "2.0", id, method };
    if (params !== undefined) message.params = params;
    await this.send(JSON.stringify(message));
    return JSON.parse(await this.readUntil((line) => JSON.parse(line).id === id));
  }

  /** The next `count` lines, waiting up to `ms`. */
  async read(count = 1, ms = 10_000): Promise<string[]> {
    const deadline = Date.now() + ms;
    while (this.#lines.length < count) {
      if (this.#broken !== null) throw this.#broken;
      if (Date.now() > deadline) {
        throw new Error(`wanted ${count} lines within ${ms} ms${this.#context()}`);
      }
      await new Promise<void>((resolve) => {
        this.#waiters.push(resolve);
        setTimeout(resolve, 25);
      });
    }
    return this.#lines.splice(0, count);
  }

  /** Reads lines until one satisfies `match`; returns it (earlier lines are dropped). */
  async readUntil(match: (line: string) => boolean, ms = 10_000): Promise<string> {
    const deadline = Date.now() + ms;
    for (;;) {
      const [line] = await this.read(1, Math.max(1, deadline - Date.now()));
      if (match(line)) return line;
    }
  }

  /** Takes the first unread line that satisfies `match`, wherever it is; the others stay unread. */
  async take(match: (line: string) => boolean, ms = 10_000): Promise<string> {
    const deadline = Date.now() + ms;
    for (;;) {
      const k = this.#lines.findIndex(match);
      if (k >= 0) return this.#lines.splice(k, 1)[0];
      if (this.#broken !== null) throw this.#broken;
      if (Date.now() > deadline) {
        throw new Error(`no matching line within ${ms} ms${this.#context()}`);
      }
      await new Promise<void>((resolve) => {
        this.#waiters.push(resolve);
        setTimeout(resolve, 25);
      });
    }
  }

  /** What the process has written on stderr so far. */
  get stderrSoFar(): string {
    return this.#stderrSoFar;
  }

  /** Lines received and not read yet. */
  get unread(): readonly string[] {
    return this.#lines;
  }

  /** Closes stdin and waits for exit; returns the status, the remaining lines and stderr. */
  async close(): Promise<{ code: number; lines: string[]; stderr: string }> {
    await this.#writer.close().catch(() => {});
    return await this.wait();
  }

  async wait(): Promise<{ code: number; lines: string[]; stderr: string }> {
    const status = await this.child.status;
    await this.#stdoutDone;
    if (this.#broken !== null) throw this.#broken;
    return { code: status.code, lines: this.#lines.splice(0), stderr: await this.#stderr };
  }

  /** Kills the process if it still runs (test cleanup). */
  async kill(): Promise<void> {
    try {
      this.child.kill("SIGKILL");
    } catch {
      // Already gone.
    }
    await this.#writer.close().catch(() => {});
    await this.child.status;
    await this.#stdoutDone.catch(() => {});
    await this.#stderr.catch(() => {});
  }
}
