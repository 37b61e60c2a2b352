/**
 * The file watcher of the index worker, on a thread of its own: `Deno.watchFs` over a large
 * tree blocks for as long as it takes to add a watch to every folder (about 350 ms on the Linux
 * kernel's 5,000 folders), and the index worker's stat pass can run meanwhile. It says "ready"
 * once every folder is watched (a change made after that is an event), then forwards the
 * events, a batch per turn of its event loop, and says why when the watcher fails or ends.
 *
 * The main thread starts it (a worker started by another worker took about a second longer to
 * start, in Deno 2.9.6, than one the main thread starts) and hands it a port of a channel whose
 * other end goes to the index worker; everything after that goes over the port.
 */
/// <reference lib="deno.worker" />

/** Messages from the watch worker to the index worker. */
export type FromWatcher =
  | { t: "ready" }
  | { t: "events"; events: { kind: string; paths: string[]; flag?: string }[] }
  /** It could not start, failed, or ended: nothing is seen any more. */
  | { t: "ended"; why: string };

/** From the main thread: the port to the index worker. */
export interface WatchPort {
  port: MessagePort;
}

/** From the index worker, over the port: what to watch, or that watching ends. */
export type ToWatcher = { t: "watch"; root: string } | { t: "stop" };

/** One watch of the tree, reporting through the port to the index worker. */
class TreeWatch {
  #out: MessagePort | null;
  #batch: FromWatcher & { t: "events" } | null = null;
  #current: Deno.FsWatcher | null = null;

  constructor(out: MessagePort) {
    this.#out = out;
  }

  /** A watch was started (a second "watch" is ignored). */
  get started(): boolean {
    return this.#current !== null;
  }

  #send(message: FromWatcher): void {
    this.#out?.postMessage(message);
  }

  #flush(): void {
    if (this.#batch !== null) this.#send(this.#batch);
    this.#batch = null;
  }

  /** Watches `root`: "ready" once every folder is watched, then the events, a batch per turn. */
  async watch(root: string): Promise<void> {
    let watcher: Deno.FsWatcher;
    try {
      watcher = Deno.watchFs(root, { recursive: true });
    } catch (error) {
      this.#send({ t: "ended", why: `cannot watch the tree (${(error as Error).message})` });
      return;
    }
    this.#current = watcher;
    this.#send({ t: "ready" });
    let why = "the file watcher stopped";
    try {
      for await (const event of watcher) this.#add(event);
    } catch (error) {
      why = `the file watcher failed (${(error as Error).message})`;
    }
    this.#flush();
    this.#send({ t: "ended", why });
  }

  #add(event: Deno.FsEvent): void {
    if (this.#batch === null) {
      this.#batch = { t: "events", events: [] };
      queueMicrotask(() => this.#flush());
    }
    this.#batch.events.push({
      kind: event.kind,
      paths: event.paths,
      ...(event.flag === undefined ? {} : { flag: event.flag }),
    });
  }

  /** Watching ends: nothing more is sent. */
  stop(): void {
    this.#out = null;
    this.#current?.close();
  }
}

self.onmessage = (event: MessageEvent<WatchPort>) => {
  self.onmessage = null;
  const port = event.data.port;
  const tree = new TreeWatch(port);
  port.onmessage = (message: MessageEvent<ToWatcher>) => {
    const m = message.data;
    if (m.t === "watch" && !tree.started) tree.watch(m.root);
    else if (m.t === "stop") {
      tree.stop();
      port.close();
      self.close();
    }
  };
};
