/** tools/list and tools/call over a sorted registry of tools. */

import type { Config } from "../config.ts";
import { RpcError } from "../jsonrpc/errors.ts";
import type { MethodSpec, RequestContext } from "../server/method.ts";
import type { Session } from "../tools/session.ts";
import {
  type CallContext,
  type Tool,
  ToolError,
  toolError,
  type ToolResult,
} from "../tools/tool.ts";
import { NO_WORKSPACE } from "../workspace/root.ts";
import { mebibytes, MESSAGE_CAP_BYTES, utf8Length } from "../message_size.ts";
import { type Workspace, WorkspaceError } from "../workspace/workspace.ts";
import { didYouMean } from "../workspace/suggest.ts";
import { fsFailureSentence } from "../workspace/fs_errors.ts";
import { type ArgumentCheck, argumentChecker, isPrecompiled, warmValidator } from "./arguments.ts";

export interface ToolDeps {
  /** The tools this session offers (lib/tools/index.ts decides which). */
  tools: readonly Tool[];
  workspace: Workspace | null;
  config: Config;
  session: Session;
}

interface Entry {
  tool: Tool;
  check: () => Promise<ArgumentCheck>;
}

export function toolMethods(deps: ToolDeps): Map<string, MethodSpec> {
  const sorted = [...deps.tools].sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  const registry = new Map<string, Entry>();
  for (const tool of sorted) {
    if (registry.has(tool.name)) throw new TypeError(`Tool "${tool.name}" is registered twice`);
    registry.set(tool.name, { tool, check: argumentChecker(tool.name, tool.inputSchema) });
  }
  const listAnswer = JSON.stringify({ tools: sorted.map((tool) => definition(tool, deps.config)) });

  const list: MethodSpec = {
    beforeInit: false,
    instant: true,
    handle(params) {
      if (params?.cursor !== undefined) throw RpcError.invalidParams("Invalid cursor");
      return listAnswer;
    },
  };

  const call: MethodSpec = {
    beforeInit: false,
    handle(params, ctx) {
      const name = params?.name;
      if (name === undefined) throw RpcError.invalidParams("Missing required parameter: name");
      if (typeof name !== "string") {
        throw RpcError.invalidParams("Invalid parameter: name must be a string");
      }
      const entry = registry.get(name);
      if (entry === undefined) throw RpcError.invalidParams(`Unknown tool: ${name}`);
      const args = params?.arguments;
      if (
        args !== undefined && (typeof args !== "object" || args === null || Array.isArray(args))
      ) {
        throw RpcError.invalidParams("Invalid parameter: arguments must be an object");
      }
      return callTool(entry, (args ?? {}) as Record<string, unknown>, ctx, deps).then((result) =>
        encodeResult(name, result)
      );
    },
  };

  return new Map([["tools/list", list], ["tools/call", call]]);
}

/**
 * Warms the argument checkers that were not compiled ahead of time (scripts/validators.ts: a
 * tool whose schema changed since): once the validator is loaded, one schema per turn of the
 * event loop, so that a call that came meanwhile compiles its own schema first. With every
 * checker compiled ahead of time, nothing (the validator is not even loaded).
 */
export function warmToolChecks(deps: ToolDeps): void {
  const left = deps.tools.filter((tool) => !isPrecompiled(tool.name, tool.inputSchema));
  if (left.length === 0) return;
  const next = (): void => {
    const tool = left.shift();
    if (tool === undefined) return;
    argumentChecker(tool.name, tool.inputSchema)().catch(() => {}).finally(() => {
      setTimeout(next, 0);
    });
  };
  warmValidator().then(() => setTimeout(next, 0));
}

/**
 * Claude Code saves a tool result of more than 50,000 characters to a file and shows the model a
 * file reference instead, unless the tool declares a larger `anthropic/maxResultSizeChars`.
 */
export const HOST_RESULT_CHARS = 50_000;

/**
 * The largest result a tool gives when the caller sets no limit, in the characters hosts count
 * (JSON.stringify(structuredContent)): its budget, or the message cap when the budget is off.
 */
export function defaultPageChars(tool: Tool, config: Config): number {
  const budget = tool.budget === "read" ? config.maxReadChars : config.maxOutputChars;
  return budget === 0 ? MESSAGE_CAP_BYTES : budget;
}

/** The tools/list entry, keys in the spec's order; `_meta` only when a page can pass 50,000. */
export function definition(tool: Tool, config: Config): Record<string, unknown> {
  const entry: Record<string, unknown> = {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema,
    outputSchema: tool.outputSchema,
    annotations: tool.annotations,
  };
  const chars = defaultPageChars(tool, config);
  if (chars > HOST_RESULT_CHARS) entry._meta = { "anthropic/maxResultSizeChars": chars };
  return entry;
}

async function callTool(
  entry: Entry,
  args: Record<string, unknown>,
  ctx: RequestContext,
  deps: ToolDeps,
): Promise<ToolResult> {
  if (deps.workspace === null) {
    // Argument problems first, then the one no-workspace refusal: no tool runs without one.
    const checked = (await entry.check())(args);
    return toolError("problem" in checked ? checked.problem : NO_WORKSPACE);
  }
  return await invokeTool(entry.tool, args, {
    signal: ctx.signal,
    progress: ctx.progress,
    workspace: deps.workspace,
    config: deps.config,
    session: deps.session,
  }, entry.check);
}

/**
 * Checks the arguments (an isError result saying what to fix), fills the schema's defaults and
 * runs the tool. The only place where errors become isError results: what a tool throws for the
 * model (ToolError), what the workspace refused (WorkspaceError), and what the file system
 * refused (an errno, fs_errors.ts). Anything else is a bug and reaches the client as Internal
 * error.
 */
export async function invokeTool(
  tool: Tool,
  args: Record<string, unknown>,
  ctx: CallContext,
  check: () => Promise<ArgumentCheck> = argumentChecker(tool.name, tool.inputSchema),
): Promise<ToolResult> {
  const checked = (await check())(args);
  if ("problem" in checked) return toolError(checked.problem);
  try {
    return await tool.run(checked.input, { ...ctx, given: checked.given });
  } catch (error) {
    if (error instanceof WorkspaceError && error.reason === "missing") {
      // docs/tools.md: a path that does not exist gets the nearest served paths.
      return toolError(error.message + didYouMean(ctx.workspace.suggest(error.input)));
    }
    if (error instanceof ToolError || error instanceof WorkspaceError) {
      return toolError(error.message);
    }
    if (error instanceof Error) {
      // A file-system failure (ENAMETOOLONG, ENOSPC, EXDEV...): one sentence, never -32603.
      const sentence = fsFailureSentence(tool.name, error, { root: ctx.workspace.root, args });
      if (sentence !== null) return toolError(sentence);
    }
    if (error instanceof RangeError && /call stack/i.test(error.message)) {
      // A pathological argument (30,000 nested regex groups) ran some code out of stack.
      return toolError(
        `The arguments of ${tool.name} are too deeply nested to process; simplify them`,
      );
    }
    throw error;
  }
}

/** Room for the JSON-RPC envelope around a result (an id is echoed as sent). */
const ENVELOPE_BYTES = 1024;

/**
 * The result as the wire carries it. Pages stop at the message cap (lib/search/paging.ts); a
 * result that is over it all the same (one enormous entry: a single matching line of a minified
 * file) is refused rather than sent: Claude Code closes its connection on such a message.
 */
export function encodeResult(name: string, result: ToolResult): string {
  const wire: ToolResult = { content: result.content };
  if (result.structuredContent !== undefined) wire.structuredContent = result.structuredContent;
  if (result.isError === true) wire.isError = true;
  const json = JSON.stringify(wire);
  // UTF-8 is at most 3 bytes per UTF-16 unit: most answers need no count.
  if (json.length * 3 + ENVELOPE_BYTES <= MESSAGE_CAP_BYTES) return json;
  const bytes = utf8Length(json);
  if (bytes + ENVELOPE_BYTES <= MESSAGE_CAP_BYTES) return json;
  return JSON.stringify(toolError(
    `The answer of ${name} would be ${mebibytes(bytes)} MiB, over the ${
      mebibytes(MESSAGE_CAP_BYTES)
    } MiB limit of one message; ask for less (a smaller head_limit or limit, or a narrower path)`,
  ));
}
