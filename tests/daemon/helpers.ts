/**
 * Daemon tests through real processes: each world has its own root and its own socket folder
 * (an XDG_RUNTIME_DIR in a temp folder), starts relays with `--daemon`, finds the daemons it
 * caused by their `--root` (unique to the world) and kills every one of them when it ends.
 */

import assert from "node:assert/strict";
import { INIT } from "../helpers/memory_session.ts";
import { ServerProcess } from "../e2e/harness.ts";

export const INITIALIZED = '{"jsonrpc":"2.0","method":"notifications/initialized"}';

export class DaemonWorld {
  readonly top: string;
  readonly root: string;
  /** The XDG_RUNTIME_DIR of every relay of this world. */
  readonly runtime: string;
  readonly #sessions: ServerProcess[] = [];

  private constructor(top: string) {
    this.top = top;
    this.root = `${top}/root`;
    this.runtime = `${top}/run`;
  }

  static async create(files: Record<string, string> = {}): Promise<DaemonWorld> {
    // Under /tmp: a socket path must stay under about 100 bytes, and macOS's own temp folder
    // (/var/folders/...) alone takes half of that.
    const top = await Deno.realPath(await Deno.makeTempDir({ dir: "/tmp", prefix: "scd-" }));
    const world = new DaemonWorld(top);
    await Deno.mkdir(world.root);
    await Deno.mkdir(world.runtime, { mode: 0o700 });
    await Deno.chmod(world.runtime, 0o700);
    await Deno.mkdir(`${top}/bin`);
    await Deno.symlink(Deno.execPath(), `${top}/bin/deno`);
    for (const [name, text] of Object.entries(files)) {
      const path = `${world.root}/${name}`;
      await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
      await Deno.writeTextFile(path, text);
    }
    return world;
  }

  /**
   * The environment of this world's relays: its socket folder, and a PATH whose first `deno` is
   * this very executable. The launch line grants `--allow-run=deno` as PATH resolves it, and a
   * relay starts its daemon only through a granted name that is itself (lib/daemon/launch.ts);
   * run through npm's wrapper script (`npx deno`, a `deno` whose bin entry is bin.cjs), the test
   * runner's executable is another file than PATH's `deno`.
   */
  env(extra: Record<string, string> = {}): Record<string, string> {
    return {
      XDG_RUNTIME_DIR: this.runtime,
      PATH: `${this.top}/bin:${Deno.env.get("PATH") ?? ""}`,
      ...extra,
    };
  }

  /** The socket folder the daemons of this world use. */
  get folder(): string {
    return `${this.runtime}/shipcode-mcp`;
  }

  /** A relay (not yet initialized) on this world's root. */
  async spawn(args: string[] = [], env: Record<string, string> = {}): Promise<ServerProcess> {
    const server = await ServerProcess.spawn(["--daemon", "--root", this.root, ...args], {
      env: this.env(env),
    });
    this.#sessions.push(server);
    return server;
  }

  /**
   * A relay past the handshake and connected to its daemon (its first tools/list, id "ready",
   * has been answered): the daemons of a world can be counted once sessions are ready.
   */
  async session(args: string[] = [], env: Record<string, string> = {}): Promise<ServerProcess> {
    const server = await this.spawn(args, env);
    await server.send(INIT);
    await server.readUntil((line) => JSON.parse(line).id === 1);
    await server.send(INITIALIZED);
    // Its first call may start the daemon: a loaded machine may take seconds to start a process.
    await server.send('{"jsonrpc":"2.0","id":"ready","method":"tools/list"}');
    await server.take((line) => JSON.parse(line).id === "ready", 60_000);
    return server;
  }

  /** The pids of the daemons serving this world's root (ps: Linux and macOS). */
  async daemons(): Promise<number[]> {
    const out = await new Deno.Command("ps", {
      args: ["-ax", "-ww", "-o", "pid=,command="],
      stdout: "piped",
      stderr: "null",
    }).output();
    const pids: number[] = [];
    for (const line of new TextDecoder().decode(out.stdout).split("\n")) {
      const m = line.match(/^\s*(\d+)\s+(.*)$/);
      if (m === null) continue;
      if (m[2].includes("--serve-daemon") && m[2].includes(`--root ${this.root} `)) {
        pids.push(Number(m[1]));
      }
    }
    return pids;
  }

  /** Waits until the daemons are exactly `count` (they start and end on their own). */
  async waitForDaemons(count: number, ms = 30_000): Promise<number[]> {
    const deadline = Date.now() + ms;
    for (;;) {
      const pids = await this.daemons();
      if (pids.length === count) return pids;
      if (Date.now() > deadline) {
        assert.fail(`wanted ${count} daemons, have ${pids.length}: ${await this.#described(pids)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Each pid's state, age and command (ps), for a failure's message. */
  async #described(pids: number[]): Promise<string> {
    if (pids.length === 0) return "none";
    const out = await new Deno.Command("ps", {
      args: ["-ww", "-o", "pid=,stat=,etime=,command=", "-p", pids.join(",")],
      stdout: "piped",
      stderr: "null",
    }).output();
    const listed = new TextDecoder().decode(out.stdout).trim().replaceAll(/\s*\n\s*/g, " | ");
    const logs = this.#sessions.map((s, i) =>
      `relay ${i}: ${JSON.stringify(s.stderrSoFar.slice(-600))}`
    );
    return `${listed}; ${logs.join("; ")}`;
  }

  /** Kills every relay and every daemon of this world, then removes its folders. */
  async dispose(): Promise<void> {
    for (const server of this.#sessions) await server.kill();
    for (const pid of await this.daemons()) {
      try {
        Deno.kill(pid, "SIGKILL");
      } catch {
        // Gone meanwhile.
      }
    }
    await this.waitForDaemons(0);
    await Deno.remove(this.top, { recursive: true });
  }
}

/** A tools/call request line. */
export function call(id: number | string, name: string, args: Record<string, unknown>): string {
  return JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name, arguments: args },
  });
}

/** The structuredContent of a tools/call answer line (fails on an error answer). */
export function content(line: string): Record<string, unknown> {
  const message = JSON.parse(line);
  assert.ok(message.result !== undefined, `an error answer: ${line}`);
  return message.result.structuredContent;
}
