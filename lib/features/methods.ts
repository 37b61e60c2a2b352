/** The method table of the server: lifecycle methods plus the registered features. */

import type { MethodSpec, MethodTable } from "../server/method.ts";
import { catalogMethods } from "./catalog.ts";
import { coreMethods, type ServerInfo } from "./lifecycle.ts";
import type { ResourceProvider } from "../resources/resource.ts";
import { resourceMethods } from "./resources.ts";
import { type ToolDeps, toolMethods } from "./tools.ts";

export interface Features {
  tools: ToolDeps;
  resources: ResourceProvider;
}

/** The features' methods; exactly the catalog's, so the advertised capabilities hold. */
export function featureMethods(features: Features): MethodTable {
  const registered = new Map<string, MethodSpec>([
    ...toolMethods(features.tools),
    ...resourceMethods(features.resources),
  ]);
  const expected = catalogMethods();
  if (registered.size !== expected.length || expected.some((name) => !registered.has(name))) {
    throw new TypeError(`Registered methods ${[...registered.keys()]} differ from the catalog`);
  }
  return registered;
}

/** The whole table at once (tests and embedders that need no lazy loading). */
export function buildMethods(features: Features & { info: ServerInfo }): MethodTable {
  return new Map([...coreMethods(features.info), ...featureMethods(features)]);
}
