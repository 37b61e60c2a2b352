/**
 * Everything behind the handshake, loaded with dynamic import() once it is needed: the tools,
 * the resources provider and their method table, plus the warm-up of their lazy parts.
 */

import type { Config } from "../config.ts";
import { createResourceProvider } from "../resources/provider.ts";
import { HeavySlots } from "../server/heavy_slots.ts";
import type { MethodTable } from "../server/method.ts";
import { TOOLS, warmUp as warmTools } from "../tools/index.ts";
import { log } from "../log.ts";
import { Workspace } from "../workspace/workspace.ts";
import { warmValidator } from "./arguments.ts";
import { featureMethods } from "./methods.ts";
import { warmToolChecks } from "./tools.ts";

export interface LoadedFeatures {
  table: MethodTable;
  /** Loads libraries, compiles schemas, starts workers and walks ahead: call after the handshake. */
  warm(): void;
}

/** Opens the workspace at `root` (chosen at start; null: none) and builds the features on it. */
export function loadFeatures(root: string | null, config: Config): LoadedFeatures {
  const workspace = openAt(root, config);
  const tools = { tools: TOOLS, workspace, config, heavy: new HeavySlots(2) };
  const resources = createResourceProvider(workspace, config);
  return {
    table: featureMethods({ tools, resources }),
    warm() {
      warmValidator();
      warmToolChecks(tools);
      warmTools();
      resources.warm();
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
