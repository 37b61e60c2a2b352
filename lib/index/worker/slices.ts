/**
 * The index worker works in time slices: between two slices it yields to the event loop, so
 * that queries and watcher events are answered while it builds, walks or reads.
 */

/** Work done between two looks at the message queue, in ms. */
export const SLICE_MS = 25;

/** One turn of the event loop. */
export function tick(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Lets watcher events that are already queued arrive before a query is answered. */
export async function settle(): Promise<void> {
  await tick();
  await tick();
}

/** Bytes as whole MiB, for notes. */
export function mib(bytes: number): number {
  return Math.round(bytes / (1024 * 1024));
}
