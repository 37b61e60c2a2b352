/**
 * The workspaces a worker has opened (the search and parser workers get plain options and
 * re-open the workspace themselves): one per distinct options, kept while the worker lives.
 */
import { Workspace, type WorkspaceOptions } from "./workspace.ts";

const opened = new Map<string, Workspace>();

/** The worker's workspace for `options`, opened on first use (at most a few are kept). */
export function workspaceFor(options: WorkspaceOptions): Workspace {
  const key = JSON.stringify(options);
  let ws = opened.get(key);
  if (ws === undefined) {
    ws = Workspace.openSync(options);
    if (opened.size > 8) opened.clear();
    opened.set(key, ws);
  }
  return ws;
}

/** Drops every opened workspace (their cached listings and ignore rules): a file was written. */
export function forgetWorkspaces(): void {
  opened.clear();
}
