import type { Config } from "../config.ts";
import type { Session } from "./session.ts";
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

/** What a running tool may use. */
export interface ToolContext {
  /** Aborted when the client cancels the request or the server shuts down. */
  signal: AbortSignal;
  /** Reports progress (e.g. files scanned); rate-limited and a no-op without a progress token. */
  progress: (progress: number, total?: number, message?: string) => void;
  /** The served workspace (a session without one never runs a tool). */
  workspace: Workspace;
  config: Config;
  /** The session's shared services: the work queue, the search pool. */
  session: Session;
}

/**
 * Something the model must fix or know (a bad pattern, a missing file): the tools feature turns
 * it into an isError result whose one text block is the message. Tools throw it; they never
 * build error results themselves.
 */
export class ToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ToolError";
  }
}

/**
 * A tool is a plain object: its definition (what tools/list shows) plus run. `run` gets
 * arguments already validated against inputSchema and returns a successful result, or throws
 * ToolError (or a WorkspaceError) for the model.
 */
export interface Tool {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  annotations: ToolAnnotations;
  run(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult>;
}

/** An isError result with one text block telling the model what to fix. */
export function toolError(text: string): ToolResult {
  return { content: [{ type: "text", text }], isError: true };
}
