/**
 * The methods each feature registers, known before the features' code is loaded: the initialize
 * answer (its capabilities) goes out before the tools and resources modules are even read.
 */

export const FEATURE_METHODS = {
  tools: ["tools/list", "tools/call"],
  resources: ["resources/list", "resources/read", "resources/templates/list"],
} as const;

/** Capabilities from the methods registered: a feature is advertised when its list method is. */
export function capabilitiesOf(methods: Iterable<string>): Record<string, object> {
  const names = new Set(methods);
  const capabilities: Record<string, object> = {};
  if (names.has("tools/list")) capabilities.tools = {};
  if (names.has("resources/list")) capabilities.resources = {};
  return capabilities;
}

/** Every method name of the catalog. */
export function catalogMethods(): string[] {
  return [...FEATURE_METHODS.tools, ...FEATURE_METHODS.resources];
}
