/** The shapes resources/* answer with, keys in wire order, and the provider the workspace fills. */

export interface Resource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
}

export interface ResourceTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

export type ResourceContents =
  | { uri: string; mimeType?: string; text: string }
  | { uri: string; mimeType?: string; blob: string };

/**
 * Implemented by the workspace issue (lib/resources/). Methods throw RpcError for wire errors:
 * -32602 `Invalid cursor`, -32002 `Resource not found` (data.uri), -32602 `Resource too large: ...`.
 */
export interface ResourceProvider {
  list(cursor: string | undefined, signal: AbortSignal): Promise<{
    resources: Resource[];
    nextCursor?: string;
  }>;
  templates(): ResourceTemplate[];
  read(uri: string, signal: AbortSignal): Promise<{ contents: ResourceContents[] }>;
}
