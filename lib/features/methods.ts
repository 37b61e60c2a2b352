/** The method table of the server: lifecycle methods plus the registered features. */

import type { MethodSpec, MethodTable } from "../server/method.ts";
import { initializeMethod, pingMethod, type ServerInfo } from "./lifecycle.ts";
import type { ResourceProvider } from "./resource_provider.ts";
import { resourceMethods } from "./resources.ts";
import { type ToolDeps, toolMethods } from "./tools.ts";

export interface Features {
  info: ServerInfo;
  tools: ToolDeps;
  resources: ResourceProvider;
}

export function buildMethods(features: Features): MethodTable {
  const registered = new Map<string, MethodSpec>([
    ...toolMethods(features.tools),
    ...resourceMethods(features.resources),
  ]);
  // Capabilities come from what is registered, never written twice.
  const capabilities: Record<string, object> = {};
  if (registered.has("tools/list")) capabilities.tools = {};
  if (registered.has("resources/list")) capabilities.resources = {};
  return new Map([
    ["initialize", initializeMethod(features.info, capabilities)],
    ["ping", pingMethod],
    ...registered,
  ]);
}
