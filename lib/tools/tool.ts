import type { Config } from "../config.ts";
import type { Workspace } from "../workspace/workspace.ts";

/** A JSON Schema object as written in a tool definition (draft-07 and 2020-12 read alike). */
export type JsonSchema = Record<string, unknown>;

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export type ContentBlock =
  | { type: "text"; text: string }
  | { type: "image"; data: string; mimeType: string };

/** CallToolResult, keys in wire order: content, structuredContent, isError (only when true). */
export interface ToolResult {
  content: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: true;
}

/** What a running tool may use: its cancellation signal, progress, the workspace, the config. */
export interface ToolContext {
  /** Aborted when the client cancels the request or the server shuts down. */
  signal: AbortSignal;
  /** Reports progress (e.g. files scanned); rate-limited and a no-op without a progress token. */
  progress: (progress: number, total?: number, message?: string) => void;
  /** The served workspace, or null when there is none (tools then answer isError). */
  workspace: Workspace | null;
  config: Config;
}

/** A tool is a plain object: its definition (what tools/list shows) plus run. */
export interface Tool {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  annotations: ToolAnnotations;
  /** Heavy tools (walks, searches) wait for one of the two heavy slots before run. */
  heavy: boolean;
  /** Called with arguments already validated against inputSchema. */
  run(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult>;
}

/** An isError result with one text block telling the model what to fix. */
export function toolError(text: string): ToolResult {
  return { content: [{ type: "text", text }], isError: true };
}
