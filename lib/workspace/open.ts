/** Opens the workspace the server serves, from the command-line config (WORKSPACE.md "The root"). */
import type { Config } from "../config.ts";
import { Workspace, WorkspaceError } from "./workspace.ts";

export const NO_WORKSPACE = "No workspace: restart shipcode-mcp with --root DIR";

function realOrSelf(path: string): string {
  try {
    return Deno.realPathSync(path);
  } catch {
    return path;
  }
}

function homeFolder(): string | undefined {
  try {
    return Deno.env.get("HOME") || undefined;
  } catch {
    return undefined; // no env permission: no home folder to compare with
  }
}

/**
 * The workspace of `config`. An explicit `--root` that is missing or not a folder throws an Error
 * whose message is the one stderr line before exit 2. Without `--root` the current folder is
 * served, unless it is `/` or the home folder: then `workspace` is null and `notice` says why.
 */
export async function openWorkspace(
  config: Config,
): Promise<{ workspace: Workspace | null; notice?: string }> {
  const options = { noIgnore: config.noIgnore, allowSecrets: config.allowSecrets };
  if (config.root !== null) {
    try {
      return { workspace: await Workspace.open({ root: config.root, ...options }) };
    } catch (e) {
      if (!(e instanceof WorkspaceError)) throw e;
      const why = e.message.slice(e.message.indexOf('": ') + 3);
      throw new Error(`Cannot serve --root ${JSON.stringify(config.root)}: ${why}`);
    }
  }
  const cwd = Deno.cwd();
  const home = homeFolder();
  const realCwd = realOrSelf(cwd);
  if (realCwd === "/" || (home !== undefined && realCwd === realOrSelf(home))) {
    return { workspace: null, notice: NO_WORKSPACE };
  }
  return { workspace: await Workspace.open({ root: cwd, ...options }) };
}
