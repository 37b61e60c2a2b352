/**
 * The file watcher of the index worker, on a thread of its own: `Deno.watchFs` over a large
 * tree blocks for as long as it takes to add a watch to every folder (about 350 ms on the Linux
 * kernel's 5,000 folders), and the index worker's stat pass can run meanwhile. It says "ready"
 * once every folder is watched (a change made after that is an event), then forwards the
 * events, a batch per turn of its event loop, and says why when the watcher fails or ends.
 */
/// <reference lib="deno.worker" />

/** Messages from the watch worker to the index worker. */
export type FromWatcher =
  | { t: "ready" }
  | { t: "events"; events: { kind: string; paths: string[]; flag?: string }[] }
  /** It could not start, failed, or ended: nothing is seen any more. */
  | { t: "ended"; why: string };

/** The one message to the watch worker: what to watch. */
export interface ToWatcher {
  root: string;
}

let batch: FromWatcher & { t: "events" } | null = null;

function flush(): void {
  if (batch !== null) self.postMessage(batch);
  batch = null;
}

async function watch(root: string): Promise<void> {
  let watcher: Deno.FsWatcher;
  try {
    watcher = Deno.watchFs(root, { recursive: true });
  } catch (error) {
    self.postMessage({ t: "ended", why: `cannot watch the tree (${(error as Error).message})` });
    return;
  }
  self.postMessage({ t: "ready" } satisfies FromWatcher);
  let why = "the file watcher stopped";
  try {
    for await (const event of watcher) {
      if (batch === null) {
        batch = { t: "events", events: [] };
        queueMicrotask(flush);
      }
      batch.events.push({
        kind: event.kind,
        paths: event.paths,
        ...(event.flag === undefined ? {} : { flag: event.flag }),
      });
    }
  } catch (error) {
    why = `the file watcher failed (${(error as Error).message})`;
  }
  flush();
  self.postMessage({ t: "ended", why } satisfies FromWatcher);
}

self.onmessage = (event: MessageEvent<ToWatcher>) => {
  self.onmessage = null;
  watch(event.data.root);
};
