/**
 * Timers for the relay's path, without the global setTimeout: in Deno 2.9 the first setTimeout
 * of a process costs 10-25 ms and about 3 MiB of memory (measured on Linux: a fresh process,
 * before and after one call), which a relay would pay in every new session, in its first call.
 * An AbortSignal.timeout costs neither.
 */

/**
 * Resolves after `ms`, keeping the process alive until then; unless `until` settles first: then
 * the wait is dropped (it never resolves, and no longer keeps the process alive). For races.
 */
export function after(ms: number, until?: Promise<unknown>): Promise<void> {
  const signal = AbortSignal.timeout(Math.max(0, Math.ceil(ms)));
  return new Promise((resolve) => {
    const done = () => resolve();
    signal.addEventListener("abort", done, { once: true });
    // An AbortSignal.timeout with no listener left does not keep the process alive.
    until?.finally(() => signal.removeEventListener("abort", done)).catch(() => {});
  });
}
