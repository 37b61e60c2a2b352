/**
 * Everything behind the handshake, loaded with dynamic import() once it is needed: the tools,
 * the resources provider and their method table, plus the warm-up of their lazy parts.
 */

import { type Config, MIB } from "../config.ts";
import { createResourceProvider } from "../resources/provider.ts";
import type { MethodTable } from "../server/method.ts";
import { type ToolAvailability, toolsFor } from "../tools/index.ts";
import { Session } from "../tools/session.ts";
import { log } from "../log.ts";
import { Workspace } from "../workspace/workspace.ts";
import { loadDiffLibrary } from "../edits/diff.ts";
import { sweepStaleTemps } from "../edits/stale_temps.ts";
import { SearchIndex } from "../index/service.ts";
import type { CacheWriterHandle } from "../index/cache_owner.ts";
import { warmValidator } from "./arguments.ts";
import { featureMethods } from "./methods.ts";
import { warmToolChecks } from "./tools.ts";

export interface LoadedFeatures {
  table: MethodTable;
  /** Loads libraries, compiles schemas, starts workers and walks ahead: call after the handshake. */
  warm(): void;
  /** Stops the session's workers (idle workers keep the process alive). */
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
): LoadedFeatures {
  const workspace = openAt(root, config);
  const index = workspace === null || config.noIndex ? undefined : new SearchIndex({
    ws: workspace.options,
    maxBytes: config.indexMaxMib * MIB,
    eagerMaxFiles: EAGER_MAX_FILES,
    watch: true,
    logLevel: config.logLevel,
  }, cache);
  const session = new Session({
    write: available.write,
    index,
    git: available.git ? available.gitTarget : null,
    maxReadBytes: config.maxReadBytes,
  });
  const tools = { tools: toolsFor(available), workspace, config, session };
  const edits = session.edits;
  const resources = createResourceProvider(workspace, config, { edits });
  return {
    table: featureMethods({ tools, resources }),
    warm() {
      warmValidator();
      warmToolChecks(tools);
      if (workspace !== null) session.warm();
      resources.warm();
      if (edits !== null && workspace !== null) {
        loadDiffLibrary().catch(() => {});
        sweepStaleTemps(workspace);
      }
    },
    close() {
      session.close();
    },
  };
}

/** Trees with more files build their trigram index after the first grep, not at start. */
const EAGER_MAX_FILES = 30_000;

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
