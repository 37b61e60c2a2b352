import type { Config } from "../config.ts";
import type { Session } from "./session.ts";
import type { Workspace } from "../workspace/workspace.ts";

/** A JSON Schema object as written in a tool definition (draft-07 and 2020-12 read alike). */
export type JsonSchema = Record<string, unknown>;

/**
 * The value a schema property admits, read from the schema itself (written `as const`): `enum`
 * gives its members, `type` its JavaScript type. Only the keywords our schemas use.
 */
export type ValueOf<P> = P extends { readonly enum: readonly (infer E)[] } ? E
  : P extends { readonly type: "string" } ? string
  : P extends { readonly type: "integer" | "number" } ? number
  : P extends { readonly type: "boolean" } ? boolean
  : P extends { readonly type: "array"; readonly items: infer I } ? readonly ValueOf<I>[]
  : unknown;

/** The properties of an input schema that are always present: required, or filled by a default. */
type PresentKeys<S extends InputSchema> =
  | (S["required"] extends readonly (infer R)[] ? R : never)
  | {
    [K in keyof S["properties"]]: S["properties"][K] extends { readonly default: unknown } ? K
      : never;
  }[keyof S["properties"]];

/** The shape of an inputSchema, as `InputOf` reads it. */
export interface InputSchema {
  readonly properties: Readonly<Record<string, unknown>>;
  readonly required?: readonly string[];
}

/**
 * The typed input a tool's `run` receives, derived from its inputSchema: the validator has
 * checked every value and filled each default (lib/features/arguments.ts), so a required or
 * defaulted property is present and the others are optional. The schema stays the one source.
 */
export type InputOf<S extends InputSchema> =
  & { readonly [K in keyof S["properties"] & PresentKeys<S>]: ValueOf<S["properties"][K]> }
  & {
    readonly [K in Exclude<keyof S["properties"], PresentKeys<S>>]?: ValueOf<S["properties"][K]>;
  };

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
  /**
   * The parameters the caller sent, before the validator filled the defaults: for the rare tool
   * whose behaviour differs when a parameter is left out (list_dir's `depth`).
   */
  given: ReadonlySet<string>;
}

/** What the caller of a tool provides; the arguments' check adds `given`. */
export type CallContext = Omit<ToolContext, "given">;

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
 * A tool is a plain object: its definition (what tools/list shows) plus run. `run` gets its
 * input already validated against inputSchema, defaults filled (`InputOf<typeof inputSchema>`),
 * and returns a successful result, or throws ToolError (or a WorkspaceError) for the model.
 */
// deno-lint-ignore no-explicit-any
export interface Tool<In extends Readonly<Record<string, any>> = Record<string, unknown>> {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  annotations: ToolAnnotations;
  /**
   * Which budget holds a page when the caller gives no limit: "read" for `--max-read-chars`
   * (read_file, and git_show's file pages), else `--max-output-chars`. tools/list declares the
   * size a host must accept from it (lib/features/tools.ts, `_meta`).
   */
  budget?: "read";
  run(input: In, ctx: ToolContext): Promise<ToolResult>;
}

/** An isError result with one text block telling the model what to fix. */
export function toolError(text: string): ToolResult {
  return { content: [{ type: "text", text }], isError: true };
}
