/** Opens the workspace the server serves, from the command-line config (WORKSPACE.md "The root"). */
import type { Config } from "../config.ts";
import { chooseRoot, NO_WORKSPACE } from "./root.ts";
import { Workspace, WorkspaceError } from "./workspace.ts";

export { NO_WORKSPACE };

/**
 * The workspace of `config` (see chooseRoot for the rules). Throws an Error whose message is the
 * one stderr line before exit 2 when an explicit `--root` cannot be served.
 */
export async function openWorkspace(
  config: Config,
): Promise<{ workspace: Workspace | null; notice?: string }> {
  const choice = chooseRoot(config);
  if (choice.root === null) return { workspace: null, notice: choice.notice };
  try {
    return {
      workspace: Workspace.openSync({
        root: choice.root,
        noIgnore: config.noIgnore,
        allowSecrets: config.allowSecrets,
      }),
    };
  } catch (e) {
    if (!(e instanceof WorkspaceError)) throw e;
    const why = e.message.slice(e.message.indexOf('": ') + 3);
    throw new Error(`Cannot serve --root ${JSON.stringify(config.root ?? choice.root)}: ${why}`);
  }
}
