/**
 * The relay (docs/architecture.md, "The shared daemon"): the process a host starts answers the
 * handshake itself and passes every other call of its session to the daemon of its workspace
 * key over a Unix socket, starting that daemon when none answers. Loaded after the initialize
 * answer, like the features; it loads no feature and no library.
 */

import type { Config } from "../config.ts";
import { catalogMethods } from "../features/catalog.ts";
import { INTERNAL_ERROR, RpcError } from "../jsonrpc/errors.ts";
import type { JsonBytes } from "../jsonrpc/json_bytes.ts";
import type { MethodSpec, MethodTable, RequestContext } from "../server/method.ts";
import { progressTokenOf } from "../server/progress.ts";
import { after } from "../light_timer.ts";
import { buildId } from "./build_id.ts";
import { DaemonLink } from "./daemon_link.ts";
import { type Hello, WIRE_VERSION } from "./frames.ts";
import { absoluteCacheDir, daemonArgs, sessionArgs, workspaceKey } from "./key.ts";
import { daemonLaunch, type Launch, startDaemon } from "./launch.ts";

export { runFlags } from "./launch.ts";
import {
  existingFolderProblem,
  socketFolder,
  type SocketPaths,
  socketPaths,
} from "./socket_folder.ts";

/** How long a relay waits for a daemon it started to listen. */
const START_WAIT_MS = 20_000;
/** A daemon that exits before it listens is started again at most this many times. */
const MAX_STARTS = 3;

export interface RelayPlan {
  paths: SocketPaths;
  hello: Hello;
  launch: Launch;
  daemonArgs: string[];
  root: string;
  uid: number;
}

class NotUsed extends Error {}

function granted(descriptor: Deno.PermissionDescriptor): boolean {
  try {
    return Deno.permissions.querySync(descriptor).state === "granted";
  } catch {
    return false;
  }
}

/**
 * Everything a relay needs, or why this session runs in its own process (one sentence): no
 * user id, no permission to start the daemon or reach its socket, an unfit socket folder.
 */
export async function planRelay(
  root: string,
  config: Config,
  program: { version: string; runFlags: readonly string[] },
): Promise<RelayPlan | { why: string }> {
  const version = program.version;
  let uid: number | null;
  try {
    uid = Deno.uid();
  } catch {
    return { why: "the launch line does not allow reading the user id (--allow-sys=uid)" };
  }
  if (uid === null) return { why: "this system has no user ids" };
  const launch = daemonLaunch(program.runFlags);
  if ("why" in launch) return launch;
  if (!granted({ name: "net" })) {
    return { why: "the launch line does not allow Unix sockets (--allow-net)" };
  }
  const folder = socketFolder(absoluteCacheDir(config), config.noCache);
  if (typeof folder !== "string") return folder;
  if (!granted({ name: "write", path: folder })) {
    return { why: `the launch line does not allow writing the socket folder ${folder}` };
  }
  const build = await buildId();
  const key = await workspaceKey(uid, root, config, { version, build });
  const paths = socketPaths(folder, key.hash);
  if ("why" in paths) return paths;
  const unfit = existingFolderProblem(folder, uid);
  if (unfit !== null) return { why: unfit };
  return {
    paths,
    hello: { wire: WIRE_VERSION, version, build, key: key.text, session: sessionArgs(config) },
    launch,
    daemonArgs: daemonArgs(root, config),
    root,
    uid,
  };
}

export class Relay {
  readonly #plan: RelayPlan;
  #link: DaemonLink | null = null;
  #opening: Promise<DaemonLink> | null = null;
  #closed = false;

  constructor(plan: RelayPlan) {
    this.#plan = plan;
  }

  /** Connects (starting the daemon when none answers); rejects with why it could not. */
  connect(): Promise<DaemonLink> {
    if (this.#link?.open) return Promise.resolve(this.#link);
    this.#opening ??= this.#open().then((link) => {
      this.#link = link;
      return link;
    }).finally(() => {
      this.#opening = null;
    });
    return this.#opening;
  }

  async #open(): Promise<DaemonLink> {
    const { paths, hello, uid } = this.#plan;
    const deadline = performance.now() + START_WAIT_MS;
    let starts = 0;
    let child: { exited: boolean } | null = null;
    for (let attempt = 0;; attempt++) {
      if (this.#closed) throw new NotUsed("the session has ended");
      const unfit = existingFolderProblem(paths.folder, uid);
      if (unfit !== null) throw new NotUsed(unfit);
      try {
        // The link may end before `open` returns (a daemon dying as it accepts): the callback
        // names no link of its own, it only drops the relay's link once that one has closed.
        const link = await DaemonLink.open(paths.socket, hello, () => {
          if (this.#link !== null && !this.#link.open) this.#link = null;
        }, Math.max(1, deadline - performance.now()));
        if ("refused" in link) {
          throw new NotUsed(`the daemon at ${paths.socket} is not used: ${link.refused}`);
        }
        return link;
      } catch (error) {
        if (error instanceof NotUsed) throw error;
      }
      if (child === null || child.exited) {
        if (starts === MAX_STARTS) throw new NotUsed("the daemon exits as soon as it starts");
        starts++;
        child = this.#start();
      }
      if (performance.now() > deadline) {
        throw new NotUsed(`the daemon did not listen within ${START_WAIT_MS / 1000} s`);
      }
      await after(Math.min(10 * 2 ** attempt, 100));
    }
  }

  #start(): { exited: boolean } {
    const state = { exited: false };
    const child = startDaemon(this.#plan.launch, this.#plan.daemonArgs, this.#plan.root);
    child.status.then(() => state.exited = true, () => state.exited = true);
    return state;
  }

  /** The features' methods, each passed to the daemon; its answers are passed on as bytes. */
  table(): MethodTable {
    const table = new Map<string, MethodSpec>();
    for (const method of catalogMethods()) {
      const forward = (params: unknown, ctx: RequestContext) =>
        this.#call(method, params, ctx.signal, ctx.progress);
      table.set(method, {
        beforeInit: false,
        forward,
        handle: (params, ctx) => forward(params, ctx).then((json) => json.text()),
      });
    }
    return table;
  }

  async #call(
    method: string,
    params: unknown,
    signal: AbortSignal,
    progress: (p: number, total?: number, message?: string) => void,
  ): Promise<JsonBytes> {
    let link: DaemonLink;
    try {
      link = await this.connect();
    } catch (error) {
      throw new RpcError(
        INTERNAL_ERROR,
        `The shared server could not be started again (${
          error instanceof Error ? error.message : String(error)
        }); restart the session, or run it with --no-daemon.`,
      );
    }
    signal.throwIfAborted();
    const token = progressTokenOf(params);
    return await link.call(method, params, signal, token === undefined ? null : progress);
  }

  /** Lets queued frames go (at most `ms`), then hangs up: the daemon cancels what is left. */
  async close(ms: number): Promise<void> {
    this.#closed = true;
    const link = this.#link;
    if (link === null) return;
    await link.flush(ms);
    link.close();
  }
}
