/**
 * The daemon (docs/architecture.md, "The shared daemon"): one process per workspace key,
 * started by a relay with `--serve-daemon`, listening on the key's socket. It holds the
 * workspace, the index and its watcher, the workers, the symbol cache and the type engines for
 * every session of the key, and ends when its last session has been gone `--daemon-idle-s`.
 *
 * At most one per key: a starting daemon takes the key's lock, and under it looks for a live
 * daemon on the socket (then it leaves), removes a socket no daemon answers on (a dead one's)
 * and listens. The lock is the kernel's (flock): a dead daemon never leaves it held.
 */

import type { Config } from "../config.ts";
import { loadShared } from "../features/load.ts";
import { detectGit } from "../git/availability.ts";
import { chooseCacheDir } from "../index/store/cache_dir.ts";
import { type CacheWriterHandle, startCacheWriter } from "../index/store/cache_owner.ts";
import { startIndexEarly } from "../index/early_start.ts";
import { log } from "../log.ts";
import { revokeUnused } from "../cli/permissions.ts";
import { buildId } from "./build_id.ts";
import { type DaemonHost, DaemonSession } from "./daemon_session.ts";
import { FairTurns } from "./fair_turns.ts";
import { absoluteCacheDir, workspaceKey } from "./key.ts";
import { ensureFolder, socketFolder, type SocketPaths, socketPaths } from "./socket_folder.ts";

/** A daemon nobody connects to after its start ends after this long (its relay died early). */
const FIRST_SESSION_WAIT_MS = 30_000;

/** Why the daemon could not start (exit code 1), or the listener. */
function listenOnce(paths: SocketPaths): Promise<Deno.Listener | "live"> | string {
  let lock: Deno.FsFile;
  try {
    lock = Deno.openSync(paths.lock, { read: true, write: true, create: true, mode: 0o600 });
    lock.lockSync(true);
  } catch (error) {
    return `the lock ${paths.lock} cannot be taken (${String(error)})`;
  }
  const release = () => {
    try {
      lock.unlockSync();
    } finally {
      lock.close();
    }
  };
  return (async (): Promise<Deno.Listener | "live"> => {
    try {
      try {
        (await Deno.connect({ transport: "unix", path: paths.socket })).close();
        return "live";
      } catch {
        // Nobody answers: a socket left by a dead daemon, or none.
      }
      try {
        Deno.removeSync(paths.socket);
      } catch (error) {
        if (!(error instanceof Deno.errors.NotFound)) throw error;
      }
      return Deno.listen({ transport: "unix", path: paths.socket });
    } finally {
      release();
    }
  })();
}

export async function serveDaemon(config: Config, version: string): Promise<number> {
  const root = config.root;
  if (root === null || !root.startsWith("/")) {
    log.error("--serve-daemon needs an absolute --root");
    return 2;
  }
  const uid = Deno.uid();
  if (uid === null) return 2;
  const build = await buildId();
  const key = await workspaceKey(uid, root, config, { version, build });
  const folder = socketFolder(absoluteCacheDir(config), config.noCache);
  if (typeof folder !== "string") {
    log.error(folder.why);
    return 1;
  }
  const unfit = ensureFolder(folder, uid);
  const paths = socketPaths(folder, key.hash);
  if (unfit !== null || "why" in paths) {
    log.error(unfit ?? (paths as { why: string }).why);
    return 1;
  }
  const listening = listenOnce(paths);
  if (typeof listening === "string") {
    log.error(listening);
    return 1;
  }
  const listener = await listening;
  if (listener === "live") return 0;

  const git = detectGit(root, { enabled: config.git });
  const available = {
    write: config.write,
    git: git.ok,
    gitTarget: git.ok ? git.target : null,
    selected: null,
  };
  let cache: CacheWriterHandle | null = null;
  const cacheChoice = chooseCacheDir(config, root);
  if (cacheChoice.dir !== null) {
    const started = startCacheWriter(cacheChoice.dir);
    if (typeof started === "string") log.warn(started);
    else cache = started;
  }
  // Listening, the socket's permissions go (accepting needs none), and all the flags leave out.
  revokeUnused({ write: config.write, run: git.ok });
  const early = cache === null ? null : startIndexEarly(root, config, cache);
  const shared = loadShared(root, config, available, cache, early);
  shared.warm();
  const host: DaemonHost = {
    version,
    build,
    key: key.text,
    config,
    shared,
    available,
    turns: new FairTurns(),
  };
  await new DaemonLife(listener, host, config.daemonIdleS * 1000).run();
  shared.close();
  return 0;
}

/** The accept loop and the idle end. */
class DaemonLife {
  readonly #listener: Deno.Listener;
  readonly #host: DaemonHost;
  readonly #idleMs: number;
  #sessions = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #ended = false;

  constructor(listener: Deno.Listener, host: DaemonHost, idleMs: number) {
    this.#listener = listener;
    this.#host = host;
    this.#idleMs = idleMs;
  }

  async run(): Promise<void> {
    this.#idle(Math.max(this.#idleMs, FIRST_SESSION_WAIT_MS));
    const stop = () => this.#end();
    Deno.addSignalListener("SIGTERM", stop);
    Deno.addSignalListener("SIGINT", stop);
    try {
      for await (const conn of this.#listener) {
        if (this.#ended) {
          conn.close();
          break;
        }
        this.#opened();
        new DaemonSession(conn, this.#host).serve().finally(() => this.#closed());
      }
    } catch (error) {
      if (!this.#ended) log.error(`the daemon stopped listening: ${String(error)}`);
    }
    Deno.removeSignalListener("SIGTERM", stop);
    Deno.removeSignalListener("SIGINT", stop);
  }

  #opened(): void {
    this.#sessions++;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #closed(): void {
    this.#sessions--;
    if (this.#sessions === 0) this.#idle(this.#idleMs);
  }

  #idle(ms: number): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      if (this.#sessions === 0) this.#end();
    }, ms);
  }

  #end(): void {
    if (this.#ended) return;
    this.#ended = true;
    clearTimeout(this.#timer);
    this.#listener.close();
  }
}
