/** A workspace with an edit session, and a read that records what the model saw. */
import { makeTree, openWorkspaceAt, type Tree } from "../helpers/fixture.ts";
import { EditSession } from "../../lib/edits/edit_session.ts";
import { recordFileRead } from "../../lib/edits/record_read.ts";
import type { Workspace } from "../../lib/workspace/workspace.ts";

export const LIMITS = { maxBytes: 10 * 1024 * 1024 };

export interface EditFixture {
  base: string;
  root: string;
  ws: Workspace;
  edits: EditSession;
  /** What read_file does with --write: record the file as read. */
  read(rel: string): Promise<void>;
  text(rel: string): string;
  dispose(): Promise<void>;
}

export async function editFixture(
  tree: Tree,
  options: { allowSecrets?: boolean; noIgnore?: boolean } = {},
): Promise<EditFixture> {
  const t = await makeTree(tree);
  const ws = openWorkspaceAt(t.root, options);
  const edits = new EditSession();
  return {
    base: t.base,
    root: ws.root,
    ws,
    edits,
    async read(rel) {
      const opened = await ws.openFile(rel);
      opened.file.close();
      await recordFileRead(edits, ws, rel, { ...opened, maxBytes: LIMITS.maxBytes });
    },
    text: (rel) => Deno.readTextFileSync(`${ws.root}/${rel}`),
    dispose: t.dispose,
  };
}
