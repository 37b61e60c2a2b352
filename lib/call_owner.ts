/**
 * Whose call the running code serves, where one process serves several sessions (the shared
 * daemon, lib/daemon/): the daemon runs each call inside `asOwner(session, ...)`, and the heavy
 * work queue (lib/work_queue.ts) reads `currentOwner()` to serve the sessions in turn. The owner
 * follows the call through every await (AsyncLocalStorage). A single-session process never sets
 * one: every call is `undefined`'s, and the queue is plain arrival order.
 */

import { AsyncLocalStorage } from "node:async_hooks";

const owners = new AsyncLocalStorage<object>();

/** Runs `fn` with `owner` as the owner of everything it starts. */
export function asOwner<T>(owner: object, fn: () => T): T {
  return owners.run(owner, fn);
}

export function currentOwner(): object | undefined {
  return owners.getStore();
}
