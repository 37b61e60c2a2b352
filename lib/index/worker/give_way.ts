/**
 * The index worker gives way to the session's heavy calls: between two slices of a build (or of a
 * catch-up, or of re-reading files), while a call holds the work queue (lib/work_queue.ts: a
 * grep's scan, a parse, a git run), the worker waits rather than share the cores with it. On 2
 * cores a first build running beside the first grep's full scan made that scan about twice as
 * slow; the build's total work is the same either way, only done in the gaps. A run of heavy
 * work that lasts longer than GIVE_WAY_MAX_MS (a long job, or calls back to back) is shared with
 * again until the queue is idle, so that no build waits on the calls for long.
 *
 * Never used by the stat pass of a stored index: queries wait for that one.
 */
import { tick } from "./slices.ts";

/** How long one run of heavy work may hold the index's slices back, in ms. */
export const GIVE_WAY_MAX_MS = 1000;
/** How often a waiting slice looks at the queue again, in ms. */
const LOOK_MS = 3;

export class GiveWay {
  /** Units of the work queue in use (written by the main thread: lib/index/service.ts). */
  #busy: Int32Array | null = null;
  /** When the worker began waiting on the current run of heavy work (0: not waiting). */
  #since = 0;

  /** The shared counter of units in use (null: never give way). */
  watch(busy: Int32Array | null): void {
    this.#busy = busy;
  }

  /** Between two slices: one turn of the event loop, then more while a heavy call runs. */
  async turn(): Promise<void> {
    await tick();
    const busy = this.#busy;
    if (busy === null || Atomics.load(busy, 0) === 0) {
      this.#since = 0;
      return;
    }
    if (this.#since === 0) this.#since = performance.now();
    while (Atomics.load(busy, 0) > 0 && performance.now() - this.#since < GIVE_WAY_MAX_MS) {
      await new Promise((resolve) => setTimeout(resolve, LOOK_MS));
    }
    if (Atomics.load(busy, 0) === 0) this.#since = 0;
  }
}
