/**
 * Everything behind the handshake, loaded with dynamic import() once it is needed: the tools,
 * the resources provider and their method table, plus the warm-up of their lazy parts.
 */

import type { Config } from "../config.ts";
import { createResourceProvider } from "../resources/provider.ts";
import type { MethodTable } from "../server/method.ts";
import { type ToolAvailability, toolsFor } from "../tools/index.ts";
import { Session } from "../tools/session.ts";
import { log } from "../log.ts";
import { Workspace } from "../workspace/workspace.ts";
import { loadDiffLibrary } from "../edits/diff.ts";
import { sweepStaleTemps } from "../edits/stale_temps.ts";
import { SearchIndex } from "../index/service.ts";
import { indexSettings, sameWorkspace } from "../index/early_start.ts";
import type { CacheWriterHandle } from "../index/store/cache_owner.ts";
import { featureMethods } from "./methods.ts";
import { warmToolChecks } from "./tools.ts";
import { DEFAULT_IDLE_MS } from "../semantic/worker_engine.ts";

export interface LoadedFeatures {
  table: MethodTable;
  /** Loads libraries, compiles schemas, starts workers and walks ahead: call after the handshake. */
  warm(): void;
  /** Stops the session's workers (idle workers keep the process alive). */
  close(): void;
}

/**
 * What the sessions of one process share: the workspace and the services (index, workers,
 * symbol cache, type engines). One per process; in the shared daemon, one for all its sessions.
 */
export interface SharedFeatures {
  workspace: Workspace | null;
  config: Config;
  /** The services' owner; each session is a Session over it (lib/tools/session.ts `shared`). */
  services: Session;
  /** Starts the workers and the index, loads the libraries every session uses. Once. */
  warm(): void;
  close(): void;
}

/**
 * Opens the workspace at `root` (chosen at start; null: none) and builds the features on it,
 * offering the tools that `available` allows.
 */
export function loadFeatures(
  root: string | null,
  config: Config,
  available: ToolAvailability,
  cache: CacheWriterHandle | null = null,
  early: SearchIndex | null = null,
): LoadedFeatures {
  const shared = loadShared(root, config, available, cache, early);
  const session = sessionFeatures(shared, config, available, { session: shared.services });
  return {
    table: session.table,
    warm() {
      shared.warm();
      session.warm();
    },
    close() {
      session.close();
      shared.close();
    },
  };
}

/**
 * How long a type engine stays after its last question: in the daemon, at least as long as the
 * daemon waits for a next session (--daemon-idle-s), so that a session coming within that time
 * finds the programs built; elsewhere the engines' own default.
 */
export function engineIdleMs(config: Config): number {
  const daemonMs = config.serveDaemon ? config.daemonIdleS * 1000 : 0;
  return Math.max(DEFAULT_IDLE_MS, daemonMs);
}

/** The workspace and the services of a process (`available.git`: the git runner is made). */
export function loadShared(
  root: string | null,
  config: Config,
  available: ToolAvailability,
  cache: CacheWriterHandle | null = null,
  early: SearchIndex | null = null,
): SharedFeatures {
  const workspace = openAt(root, config);
  let index: SearchIndex | undefined;
  if (workspace !== null && !config.noIndex) {
    // The index main.ts started early (on a stored index) is taken over when it is this one's.
    if (early !== null && sameWorkspace(early, workspace.options)) index = early;
    else index = new SearchIndex(indexSettings(workspace.options, config), cache);
  }
  if (early !== null && early !== index) early.stop();
  const services = new Session({
    write: available.write,
    index,
    git: available.git ? available.gitTarget : null,
    maxReadBytes: config.maxReadBytes,
    semanticMaxMib: config.semanticMaxMib,
    semanticIdleMs: engineIdleMs(config),
  });
  let warmed = false;
  return {
    workspace,
    config,
    services,
    warm() {
      if (warmed) return;
      warmed = true;
      if (workspace !== null) services.warm();
      if (available.write && workspace !== null) {
        loadDiffLibrary().catch(() => {});
        sweepStaleTemps(workspace);
      }
    },
    close() {
      services.close();
    },
  };
}

/** How one session's features are made (sessionFeatures). */
export interface SessionOptions {
  /**
   * The shared services themselves, for the one session of a process; by default a Session of
   * its own over them (the daemon's sessions).
   */
  session?: Session;
  /**
   * warm() walks the first page of resources/list ahead (default true). A daemon's sessions do
   * not: what a new session costs the daemon stays near nothing, and its first calls do not
   * share the main thread with a walk it may never use.
   */
  walkAhead?: boolean;
}

/**
 * One session's features over the shared ones: its tools (`available`, its `--tools`), its
 * limits (`config`), and what it read and wrote. Its warm-up compiles nothing twice: the tools'
 * schemas and the libraries are compiled and loaded once per process.
 */
export function sessionFeatures(
  shared: SharedFeatures,
  config: Config,
  available: ToolAvailability,
  options: SessionOptions = {},
): LoadedFeatures {
  const session = options.session ??
    new Session({ write: available.write, shared: shared.services });
  const workspace = shared.workspace;
  const tools = { tools: toolsFor(available), workspace, config, session };
  const edits = session.edits;
  const resources = createResourceProvider(workspace, config, { edits });
  return {
    table: featureMethods({ tools, resources }),
    warm() {
      warmToolChecks(tools);
      resources.warm({ firstPage: options.walkAhead !== false });
    },
    close() {
      session.close();
    },
  };
}

function openAt(root: string | null, config: Config): Workspace | null {
  if (root === null) return null;
  try {
    return Workspace.openSync({
      root,
      noIgnore: config.noIgnore,
      allowSecrets: config.allowSecrets,
    });
  } catch (error) {
    // The root was checked at start; it vanished since. Serve nothing rather than die.
    log.error(`${error instanceof Error ? error.message : String(error)}: serving no workspace`);
    return null;
  }
}
