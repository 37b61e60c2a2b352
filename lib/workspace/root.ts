/**
 * Which folder is served (docs/workspace.md "The root"), decided at start with two system calls and no
 * other module: the workspace itself is opened after the handshake.
 */
import type { Config } from "../config.ts";

export const NO_WORKSPACE = "No workspace: restart shipcode-mcp with --root DIR";

export interface RootChoice {
  /** The folder to serve as given (absolute), or null when nothing is served. */
  root: string | null;
  /** Why nothing is served, for one stderr line. */
  notice?: string;
}

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
 * An explicit `--root` that is missing or not a folder throws an Error whose message is the one
 * stderr line before exit 2. Without `--root` the current folder is served, unless it is `/` or
 * the home folder: then `root` is null and `notice` says why.
 */
export function chooseRoot(config: Config): RootChoice {
  if (config.root !== null) {
    const given = config.root;
    const fail = (why: string) => new Error(`Cannot serve --root ${JSON.stringify(given)}: ${why}`);
    if (given === "" || given.includes("\0")) throw fail("not a folder");
    let info: Deno.FileInfo;
    try {
      info = Deno.statSync(given);
    } catch (e) {
      const denied = e instanceof Deno.errors.PermissionDenied ||
        e instanceof Deno.errors.NotCapable;
      throw fail(denied ? "permission denied" : "no such folder");
    }
    if (!info.isDirectory) throw fail("not a folder");
    return { root: given.startsWith("/") ? given : `${Deno.cwd()}/${given}` };
  }
  const cwd = Deno.cwd();
  const home = homeFolder();
  const realCwd = realOrSelf(cwd);
  if (realCwd === "/" || (home !== undefined && realCwd === realOrSelf(home))) {
    return { root: null, notice: NO_WORKSPACE };
  }
  return { root: cwd };
}
