/** Fixture trees, a tool context, and outputSchema validation for the code-tool tests. */
import assert from "node:assert/strict";
import Ajv from "ajv";
import { type Config, defaultConfig } from "../../lib/config.ts";
import { Workspace } from "../../lib/workspace/workspace.ts";
import type { CallContext, Tool, ToolResult } from "../../lib/tools/tool.ts";
import { invokeTool } from "../../lib/features/tools.ts";
import { type Tree, writeTree } from "../helpers/fixture.ts";
import { Session } from "../../lib/tools/session.ts";

/** Builds `files` (path -> text or bytes) under a fresh temp folder. */
export async function makeTree(files: Tree): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "shipcode-tools-" });
  await writeTree(root, files);
  return root;
}

export interface Harness {
  root: string;
  ws: Workspace;
  ctx: CallContext;
  progress: number[];
  controller: AbortController;
}

export async function harness(
  files: Record<string, string | Uint8Array>,
  config: Partial<Config> = {},
): Promise<Harness> {
  const root = await makeTree(files);
  const ws = Workspace.openSync({
    root,
    noIgnore: config.noIgnore ?? false,
    allowSecrets: config.allowSecrets ?? false,
  });
  const controller = new AbortController();
  const progress: number[] = [];
  const ctx: CallContext = {
    signal: controller.signal,
    progress: (n) => progress.push(n),
    workspace: ws,
    config: { ...defaultConfig(), root, ...config },
    session: new Session({ write: config.write ?? false }),
  };
  return { root, ws, ctx, progress, controller };
}

// deno-lint-ignore no-explicit-any
const ajv = new (Ajv as any)({ strict: true, allErrors: true });
const validators = new Map<Tool, (data: unknown) => boolean>();

/** Runs the tool and checks its result's shape: errors carry no structuredContent, others validate. */
export async function call(
  tool: Tool,
  args: Record<string, unknown>,
  h: Harness,
): Promise<ToolResult> {
  const result = await invokeTool(tool, args, h.ctx);
  assert.equal(result.content.length >= 1, true);
  if (result.isError) {
    assert.equal(result.structuredContent, undefined);
    assert.equal(result.content[0].type, "text");
  } else if (result.structuredContent !== undefined) {
    let validate = validators.get(tool);
    if (validate === undefined) {
      validate = ajv.compile(tool.outputSchema) as (data: unknown) => boolean;
      validators.set(tool, validate);
    }
    const ok = validate(result.structuredContent);
    // deno-lint-ignore no-explicit-any
    assert.ok(ok, JSON.stringify((validate as any).errors));
  }
  return result;
}

export function text(result: ToolResult): string {
  const block = result.content[0];
  return block.type === "text" ? block.text : "";
}

/** A Deno.test that removes its fixture and stops the search workers afterwards. */
export function toolTest(
  name: string,
  files: Record<string, string | Uint8Array>,
  fn: (h: Harness) => Promise<void>,
  config: Partial<Config> = {},
  ignore = false,
): void {
  Deno.test({ name, ignore }, async () => {
    const h = await harness(files, config);
    try {
      await fn(h);
    } finally {
      h.ctx.session.close();
      await Deno.remove(h.root, { recursive: true });
    }
  });
}

/** True when ripgrep is installed (agreement tests skip with a message otherwise). */
export function hasRipgrep(): boolean {
  try {
    const out = new Deno.Command("rg", { args: ["--version"], stdout: "null", stderr: "null" })
      .outputSync();
    return out.success;
  } catch {
    return false;
  }
}

export function ripgrep(cwd: string, args: string[]): string {
  const out = new Deno.Command("rg", { args, cwd, stdout: "piped", stderr: "piped" }).outputSync();
  return new TextDecoder().decode(out.stdout);
}
