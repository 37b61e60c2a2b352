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
  early: SearchIndex | null = null,
): LoadedFeatures {
  const workspace = openAt(root, config);
  let index: SearchIndex | undefined;
  if (workspace !== null && !config.noIndex) {
    // The index main.ts started early (on a stored index) is taken over when it is this one's.
    if (early !== null && sameWorkspace(early, workspace.options)) index = early;
    else index = new SearchIndex(indexSettings(workspace.options, config), cache);
  }
  if (early !== null && early !== index) early.stop();
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
