/**
 * Where the server's workers start (all but the index cache's writer, lib/index/store/cache_owner.ts,
 * the one that may write): each with the permission to read and nothing else, whatever the
 * process holds. A session with git tools holds `run` for git, and one with `--write` holds
 * `write`, but only the main thread (which runs git through lib/git/runner.ts and writes through
 * lib/edits/) needs them; a worker that searches, parses, indexes or watches never runs or writes
 * anything, so it cannot. TypeScript's language service also reads the environment variables the
 * launch allows (its system layer asks for a few at load) and what the system says of itself.
 *
 * A worker cannot gain a permission its parent lacks; narrowing needs the launch flag
 * `--unstable-worker-options` (in every launch line of the README and in deno.json's tasks), and
 * Deno ends the process when a worker asks for it without the flag, which no code can detect. So
 * a worker is narrowed only when the process holds `run` or `write` (its launch line then is the
 * README's, which has the flag): a process started with fewer flags (`--allow-read` alone) has
 * nothing to keep from its workers and starts them plainly.
 */

/** What a worker needs beyond reading. */
export interface WorkerNeeds {
  /** The environment variables the launch allows, and the system's own facts (TypeScript). */
  environment?: boolean;
}

/** Does the process hold `run` or `write` (that its workers must not)? */
function holdsMore(): boolean {
  return Deno.permissions.querySync({ name: "run" }).state === "granted" ||
    Deno.permissions.querySync({ name: "write" }).state === "granted";
}

/**
 * Workers started ahead of their owner (prestartWorker), by module, name and needs, until their
 * owner's startWorker takes them; `failed` when their module did not load meanwhile.
 */
const parked = new Map<string, { worker: Worker; failed: boolean }[]>();

function parkingKey(url: URL, name: string, needs: WorkerNeeds): string {
  return `${needs.environment === true ? "env" : "read"} ${name} ${url.href}`;
}

/**
 * Starts the module at `url` as a worker now, for the next startWorker call with the same
 * arguments: its start (a thread, an isolate, its modules) then runs while the main thread still
 * loads the code that will ask for it. Only for a worker that speaks only when spoken to (a
 * message it posted before it was taken would be lost). A process that never takes it ends it at
 * exit. It gets the permissions of the moment it starts, never more than it would get later: the
 * permissions a process holds only shrink.
 */
export function prestartWorker(url: URL, name: string, needs: WorkerNeeds = {}): void {
  const entry = { worker: spawn(url, name, needs), failed: false };
  entry.worker.onerror = (event) => {
    event.preventDefault();
    entry.failed = true;
  };
  const key = parkingKey(url, name, needs);
  parked.set(key, [...(parked.get(key) ?? []), entry]);
}

/** Prestarted workers not taken yet (tests: each prestart has its taker). */
export function parkedWorkers(): number {
  let count = 0;
  for (const list of parked.values()) count += list.length;
  return count;
}

/**
 * Starts the module at `url` as a worker that may read and, with `needs`, little more (or hands
 * out one prestartWorker started with the same arguments).
 */
export function startWorker(url: URL, name: string, needs: WorkerNeeds = {}): Worker {
  const waiting = parked.get(parkingKey(url, name, needs));
  while (waiting !== undefined && waiting.length > 0) {
    const entry = waiting.shift()!;
    entry.worker.onerror = null;
    // One whose module failed to load is started again: its owner then hears the error.
    if (!entry.failed) return entry.worker;
    entry.worker.terminate();
  }
  return spawn(url, name, needs);
}

function spawn(url: URL, name: string, needs: WorkerNeeds): Worker {
  if (!holdsMore()) return new Worker(url.href, { type: "module", name });
  const environment = needs.environment === true ? "inherit" : false;
  return new Worker(url.href, {
    type: "module",
    name,
    deno: {
      permissions: {
        read: true,
        write: false,
        run: false,
        net: false,
        ffi: false,
        import: false,
        env: environment,
        sys: environment,
      },
    },
  });
}
