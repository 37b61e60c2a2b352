/**
 * A search worker's view of the pool's shared control block (protocol.ts): which job may run,
 * and this worker's slot, where it stamps what it is doing (job, batch, file, phase) and when it
 * started, so that the pool's watchdog can time a read, a regex scan or a walk step.
 */
import {
  CTL_CUTOFF,
  CTL_INTS,
  CTL_JOB,
  CTL_SCANNED,
  CTL_SLOT,
  CTL_STAMP_OFFSET,
  PHASE_READ,
  PHASE_REGEX,
  PHASE_WALK,
} from "./protocol.ts";

export class WorkerSlot {
  #ints: Int32Array<ArrayBufferLike> = new Int32Array(new SharedArrayBuffer(CTL_INTS * 4));
  #stamps: Float64Array<ArrayBufferLike> = new Float64Array(1);
  #slot = 0;

  /** Takes the pool's control block and this worker's slot (the `init` message). */
  attach(control: SharedArrayBuffer, slot: number): void {
    this.#ints = new Int32Array(control, 0, CTL_INTS);
    this.#stamps = new Float64Array(control, CTL_STAMP_OFFSET);
    this.#slot = slot;
  }

  /** True while `job` is the one the pool runs (else its messages are dropped). */
  current(job: number): boolean {
    return Atomics.load(this.#ints, CTL_JOB) === job;
  }

  /** Batches above this one report counts only (content lines are past the page). */
  cutoff(): number {
    return Atomics.load(this.#ints, CTL_CUTOFF);
  }

  /** Adds files scanned, for progress. */
  addScanned(n: number): void {
    Atomics.add(this.#ints, CTL_SCANNED, n);
  }

  /** Marks this slot as walking for `job`: its stamp then times each step (PHASE_WALK). */
  walking(job: number): void {
    const base = this.#base();
    this.#ints[base] = job;
    this.#ints[base + 1] = -1;
    this.#ints[base + 3] = PHASE_WALK;
    this.touch();
  }

  /** Marks this slot as searching `batch` of `job`. */
  searching(job: number, batch: number): void {
    const base = this.#base();
    this.#ints[base] = job;
    this.#ints[base + 1] = batch;
  }

  /** Starts reading file `index` of the batch (PHASE_READ, stamped now). */
  reading(index: number): void {
    const base = this.#base();
    this.#ints[base + 2] = index;
    this.#ints[base + 3] = PHASE_READ;
    this.touch();
  }

  /** The regex timeout times only the regex: the stamp is set around each scan (PHASE_REGEX). */
  regexStart(): void {
    this.#ints[this.#base() + 3] = PHASE_REGEX;
    this.touch();
  }

  /** Back to reading: the stall deadline (PHASE_READ). */
  regexEnd(): void {
    this.#ints[this.#base() + 3] = PHASE_READ;
    this.touch();
  }

  /** The current step made progress: its deadline starts again. */
  touch(): void {
    this.#stamps[this.#slot] = Date.now();
  }

  /** Idle: a stale stamp would let the watchdog kill this worker during a later job. */
  idle(): void {
    this.#stamps[this.#slot] = 0;
  }

  #base(): number {
    return CTL_SLOT + 4 * this.#slot;
  }
}
