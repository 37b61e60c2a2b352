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

/** Starts the module at `url` as a worker that may read and, with `needs`, little more. */
export function startWorker(url: URL, name: string, needs: WorkerNeeds = {}): Worker {
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
