/** initialize and ping: the methods allowed before the handshake. */

import type { MethodSpec, MethodTable } from "../server/method.ts";
import { capabilitiesOf, catalogMethods } from "./catalog.ts";

/** The protocol version implemented; the answer whatever version the client asks for. */
export const PROTOCOL_VERSION = "2025-06-18";

export interface ServerInfo {
  name: string;
  version: string;
}

/** initialize: never fails on its params; the answer is computed once. */
export function initializeMethod(
  info: ServerInfo,
  capabilities: Record<string, object>,
): MethodSpec {
  const answer = JSON.stringify({
    protocolVersion: PROTOCOL_VERSION,
    capabilities,
    serverInfo: { name: info.name, version: info.version },
  });
  return {
    beforeInit: true,
    anyParams: true,
    opensSession: true,
    instant: true,
    handle: () => answer,
  };
}

export const pingMethod: MethodSpec = { beforeInit: true, instant: true, handle: () => "{}" };

/** initialize and ping, advertising the capabilities of the catalog's features. */
export function coreMethods(info: ServerInfo): MethodTable {
  return new Map([
    ["initialize", initializeMethod(info, capabilitiesOf(catalogMethods()))],
    ["ping", pingMethod],
  ]);
}
