/** notifications/progress for one request: strictly increasing, rate-limited, none after the answer. */

import { encodeNotification } from "../jsonrpc/encode.ts";
import { encodeId, type Id } from "../jsonrpc/message.ts";

export type ProgressFn = (progress: number, total?: number, message?: string) => void;

/** The least time between two progress notifications of one request (at most ~10 per second). */
export const PROGRESS_INTERVAL_MS = 100;

export function noProgress(): void {}

export class ProgressReporter {
  #token: Id;
  #send: (line: string) => void;
  #last = -Infinity;
  #lastAt = -Infinity;
  #done = false;

  constructor(token: Id, send: (line: string) => void) {
    this.#token = token;
    this.#send = send;
  }

  /** Sends a notification if progress increased and the interval has passed; otherwise drops it. */
  report: ProgressFn = (progress, total, message) => {
    if (this.#done || !Number.isFinite(progress) || progress <= this.#last) return;
    const now = performance.now();
    if (now - this.#lastAt < PROGRESS_INTERVAL_MS) return;
    this.#last = progress;
    this.#lastAt = now;
    let params = `{"progressToken":${encodeId(this.#token)},"progress":${progress}`;
    if (total !== undefined && Number.isFinite(total)) params += `,"total":${total}`;
    if (message !== undefined) params += `,"message":${JSON.stringify(message)}`;
    this.#send(encodeNotification("notifications/progress", params + "}"));
  };

  /** Called before the answer is sent: no notification may follow it. */
  finish(): void {
    this.#done = true;
  }
}

/** The progress token of a request, if its params carry a valid one in `_meta`. */
export function progressTokenOf(params: unknown): Id | undefined {
  if (typeof params !== "object" || params === null) return undefined;
  const meta = (params as Record<string, unknown>)._meta;
  if (typeof meta !== "object" || meta === null) return undefined;
  const token = (meta as Record<string, unknown>).progressToken;
  if (typeof token === "string" || (typeof token === "number" && Number.isInteger(token))) {
    return token;
  }
  return undefined;
}
