/**
 * Starts the cache writer (cache_writer.ts) while the process still holds its launch
 * permissions: a worker whose write permission is narrowed to the cache folder keeps it after
 * the main thread revokes write (a worker can never gain a permission its parent lacks, so it
 * must exist before the revoke). The index worker, created later with read permission only,
 * reaches the writer through the port this hands out.
 */
export interface CacheWriterHandle {
  /** The cache folder (a real path). */
  readonly dir: string;
  /** The writer's port, for the index worker (transferred to it, once). */
  readonly port: MessagePort;
  stop(): void;
}

/** The writer for `dir`, or a sentence saying why there is none (the index stays in memory). */
export function startCacheWriter(dir: string): CacheWriterHandle | string {
  // Deno 2.9 ends the whole process, with its own message, when this worker is asked for
  // without `--unstable-worker-options` (the flag lists of deno.json carry it; a process cannot
  // tell whether it was given). Without --allow-write no writer is asked for at all.
  let worker: Worker;
  try {
    worker = new Worker(new URL("./cache_writer.ts", import.meta.url).href, {
      type: "module",
      name: "index cache writer",
      deno: {
        permissions: {
          read: true,
          write: [dir],
          env: false,
          net: false,
          run: false,
          ffi: false,
          sys: false,
          import: false,
        },
      },
    });
  } catch (error) {
    return `The index cache writer cannot start (${
      error instanceof Error ? error.message : String(error)
    }): the index stays in memory`;
  }
  const channel = new MessageChannel();
  worker.postMessage({ t: "open", dir, port: channel.port1 }, [channel.port1]);
  return {
    dir,
    port: channel.port2,
    stop: () => worker.terminate(),
  };
}
