/**
 * Fair service between the sessions of a daemon: each session's calls wait in a line of their
 * own, and the lines are served in turn, one call each, while fewer than `total` calls run (32)
 * and the session has fewer than `perSession` running (16). One session's burst of calls never
 * makes another's wait behind all of it.
 */

interface Line {
  running: number;
  /** The session has gone; the line goes once its running calls end. */
  left: boolean;
  waiting: Array<() => void>;
}

export class FairTurns {
  readonly #total: number;
  readonly #perSession: number;
  #running = 0;
  readonly #lines = new Map<object, Line>();
  /** The sessions in turn order; #cursor is whose turn is next. */
  #order: object[] = [];
  #cursor = 0;

  constructor(total = 32, perSession = 16) {
    this.#total = total;
    this.#perSession = perSession;
  }

  /** Calls running now (all sessions). */
  get running(): number {
    return this.#running;
  }

  /**
   * Waits for `session`'s turn; resolves to the function that ends the call. A call whose signal
   * aborts while it waits leaves its line and rejects with the signal's reason.
   */
  enter(session: object, signal: AbortSignal): Promise<() => void> {
    signal.throwIfAborted();
    let line = this.#lines.get(session);
    if (line === undefined) {
      line = { running: 0, left: false, waiting: [] };
      this.#lines.set(session, line);
      this.#order.push(session);
    }
    const own = line;
    return new Promise((resolve, reject) => {
      const start = () => {
        signal.removeEventListener("abort", onAbort);
        own.running++;
        this.#running++;
        let ended = false;
        resolve(() => {
          if (ended) return;
          ended = true;
          own.running--;
          this.#running--;
          if (own.left && own.running === 0) this.#remove(session);
          this.#serve();
        });
      };
      const onAbort = () => {
        const at = own.waiting.indexOf(start);
        if (at === -1) return;
        own.waiting.splice(at, 1);
        reject(signal.reason);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      own.waiting.push(start);
      this.#serve();
    });
  }

  /** The session has gone: its waiting calls are dropped (their signals abort them anyway). */
  leave(session: object): void {
    const line = this.#lines.get(session);
    if (line === undefined) return;
    line.waiting.length = 0;
    line.left = true;
    // Its running calls still end through their release, which removes the line then.
    if (line.running === 0) this.#remove(session);
  }

  #remove(session: object): void {
    if (!this.#lines.delete(session)) return;
    const at = this.#order.indexOf(session);
    this.#order.splice(at, 1);
    if (this.#cursor > at) this.#cursor--;
  }

  /** Starts waiting calls, one per session in turn, while the bounds allow. */
  #serve(): void {
    let idle = 0;
    while (this.#running < this.#total && idle < this.#order.length) {
      if (this.#cursor >= this.#order.length) this.#cursor = 0;
      const line = this.#lines.get(this.#order[this.#cursor++])!;
      if (line.waiting.length > 0 && line.running < this.#perSession) {
        line.waiting.shift()!();
        idle = 0;
      } else idle++;
    }
  }
}
