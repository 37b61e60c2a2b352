/**
 * One grep over the pool: worker 0 walks and posts file batches (in path order), the others
 * search them at once, and the walker joins the search when its walk ends. Results are kept in
 * batch order, so output is sorted by path.
 *
 * Content mode collects output lines only until the page is known to be full: the lines are
 * counted exactly as they will be printed (`--` between files only with context, see
 * content_lines.ts), and once the held lines reach `collectLines` (or the chars after `offset`
 * exceed `collectChars`) at the end of batch B, batches above B report counts only (the
 * cutoff). Batches above B that were already searched with lines lose them too, so the held
 * output is always the same exact prefix of the full output, whatever the workers' timing.
 */
import type { WorkspaceOptions } from "../workspace/workspace.ts";
import { type ContentOptions, separatesFiles } from "./content_lines.ts";
import type { PatternSpec } from "./pattern.ts";
import type { Candidates, FileResult, FromWorker, GrepMode, SkippedFile } from "./protocol.ts";
import type { Job, JobContext, JobDriver, SearchPool } from "./pool.ts";

const BATCH = 128;
const IN_FLIGHT = 2;
/** The slot that walks (the others search from the start). */
const WALK_SLOT = 0;

export interface GrepJob {
  ws: WorkspaceOptions;
  /** Root-relative folder to walk, or the single file to search. */
  base: string;
  single: boolean;
  globs: string[];
  typeGlobs: string[];
  spec: PatternSpec;
  mode: GrepMode;
  content: ContentOptions;
  /** Content mode: stop collecting once this many output lines are held (from line 0). */
  collectLines: number;
  /** Content mode: ...or once the output lines from `offset` on hold more characters. */
  collectChars: number;
  offset: number;
  /** The files to search instead of walking `base` (from the trigram index), in walk order. */
  candidates?: Candidates;
  /** Verdicts on C/C++ hits (protocol.ts SearchMessage `uses`). */
  uses?: { extensions: string[] };
}

export interface GrepOutcome {
  /** Files with matches in path order. */
  results: FileResult[];
  /**
   * Content mode: false when some files' lines were not collected. The files with lines are then
   * a prefix of `results`, and their output (joined by `contentOutput`) is an exact prefix of
   * the full output that holds `collectLines` lines or the `collectChars` after `offset`.
   */
  complete: boolean;
  /** Files left out because searching them would hold more than MAX_HOLD_BYTES at once. */
  skipped: SkippedFile[];
}

export function runGrep(
  pool: SearchPool,
  params: GrepJob,
  ctx: Omit<JobContext, "fileOf">,
): Promise<GrepOutcome> {
  const driver = new GrepDriver(params);
  return pool.run(driver, { ...ctx, fileOf: (batch, index) => driver.fileOf(batch, index) });
}

/**
 * The state of one grep on the pool: the batches known (from the walk or the index), those
 * queued and in flight per worker, the results absorbed in batch order, and how much content
 * output is held. The pool calls `start` once and `onMessage` for each worker message.
 */
class GrepDriver implements JobDriver<GrepOutcome> {
  readonly #params: GrepJob;
  readonly #batches = new Map<number, string[]>();
  readonly #reals = new Map<number, string[]>();
  readonly #folders = new Map<number, (number[] | null)[]>();
  readonly #pieces = new Map<number, (number[] | null)[]>();
  /** Batches searched but not yet absorbed (an earlier one is still out). */
  readonly #done = new Map<number, FileResult[]>();
  readonly #queue: number[] = [];
  /** Searches posted to each slot and not yet answered. */
  readonly #inFlight: number[] = [];
  readonly #ordered: FileResult[] = [];
  readonly #skipped: SkippedFile[] = [];
  readonly #separate: boolean;
  /** Slot 0 walks until the walk ends; it searches only then. */
  #walking = true;
  /** Known once the walk has ended (or at once for a single file or the index's files). */
  #totalBatches = -1;
  #nextOrdered = 0;
  #complete = true;
  #heldLines = 0;
  #heldChars = 0;
  /** False once the held lines fill the page (from the end of that batch on). */
  #collecting = true;
  #cutoffSet = false;

  constructor(params: GrepJob) {
    this.#params = params;
    this.#separate = separatesFiles(params.content);
  }

  /** The file a slot was scanning (for timeout messages). */
  fileOf(batch: number, index: number): string | undefined {
    return this.#batches.get(batch)?.[index];
  }

  start(job: Job<GrepOutcome>): void {
    for (let i = 0; i < job.slots; i++) this.#inFlight.push(0);
    const params = this.#params;
    if (params.single) {
      this.#walking = false;
      this.#totalBatches = 1;
      this.#batches.set(0, [params.base]);
      this.#reals.set(0, [""]);
      this.#queue.push(0);
      this.#dispatch(job);
      return;
    }
    const given = params.candidates;
    if (given !== undefined) {
      // The index chose the files: no walk, every worker searches.
      this.#walking = false;
      this.#totalBatches = 0;
      for (let i = 0; i < given.files.length; i += BATCH) {
        this.#batches.set(this.#totalBatches, given.files.slice(i, i + BATCH));
        this.#reals.set(this.#totalBatches, given.reals.slice(i, i + BATCH));
        this.#pieces.set(this.#totalBatches, given.pieces.slice(i, i + BATCH));
        this.#queue.push(this.#totalBatches++);
      }
      this.#dispatch(job);
      this.#absorb(job);
      return;
    }
    job.post(WALK_SLOT, {
      t: "walk",
      job: job.id,
      ws: params.ws,
      base: params.base,
      kind: "grep",
      globs: params.globs,
      typeGlobs: params.typeGlobs,
      batchSize: BATCH,
      rampUp: params.mode !== "content",
    });
  }

  onMessage(job: Job<GrepOutcome>, slot: number, message: FromWorker): void {
    if (message.t === "files") {
      this.#batches.set(message.batch, message.files);
      this.#reals.set(message.batch, message.reals);
      this.#folders.set(message.batch, message.folders);
      this.#queue.push(message.batch);
      this.#dispatch(job);
    } else if (message.t === "walked") {
      this.#walking = false;
      this.#totalBatches = message.batches;
      this.#dispatch(job);
      this.#absorb(job);
    } else if (message.t === "searched") {
      this.#inFlight[slot]--;
      this.#done.set(message.batch, message.results);
      if (message.skipped !== undefined) this.#skipped.push(...message.skipped);
      this.#dispatch(job);
      this.#absorb(job);
    }
  }

  /**
   * Posts queued batches to every searching slot, up to IN_FLIGHT each while there is work for
   * every slot; at the end of the job one each, so that no batch waits behind another on one
   * worker while the other has nothing left to do.
   */
  #dispatch(job: Job<GrepOutcome>): void {
    const params = this.#params;
    for (let slot = 0; slot < job.slots; slot++) {
      if (this.#walking && slot === WALK_SLOT) continue;
      while (this.#inFlight[slot] < this.#inFlightLimit(job) && this.#queue.length > 0) {
        const batch = this.#queue.shift()!;
        this.#inFlight[slot]++;
        job.post(slot, {
          t: "search",
          job: job.id,
          batch,
          files: this.#batches.get(batch)!,
          reals: this.#reals.get(batch)!,
          folders: this.#folders.get(batch),
          pieces: this.#pieces.get(batch),
          ws: params.ws,
          spec: params.spec,
          mode: params.mode,
          content: params.content,
          maxLines: Number.isFinite(params.collectLines) ? params.collectLines : 0,
          ...(params.uses === undefined ? {} : { uses: params.uses }),
        });
      }
    }
  }

  /** IN_FLIGHT while the walk goes on or more batches are queued than slots; then 1. */
  #inFlightLimit(job: Job<GrepOutcome>): number {
    return this.#walking || this.#queue.length > job.slots ? IN_FLIGHT : 1;
  }

  /** Counts one output line (and its characters from `offset` on). */
  #hold(line: string): void {
    if (this.#heldLines >= this.#params.offset) this.#heldChars += line.length + 1;
    this.#heldLines++;
  }

  /** Takes the searched batches that come next in order; finishes after the last one. */
  #absorb(job: Job<GrepOutcome>): void {
    const params = this.#params;
    while (this.#done.has(this.#nextOrdered)) {
      const batch = this.#nextOrdered;
      const results = this.#done.get(batch)!;
      this.#done.delete(batch);
      this.#batches.delete(batch);
      this.#reals.delete(batch);
      this.#folders.delete(batch);
      this.#pieces.delete(batch);
      for (const r of results) this.#take(r);
      if (
        params.mode === "content" && this.#collecting &&
        (this.#heldLines >= params.collectLines || this.#heldChars > params.collectChars)
      ) this.#collecting = false;
      if (!this.#collecting && !this.#cutoffSet) {
        job.setCutoff(batch);
        this.#cutoffSet = true;
      }
      this.#nextOrdered++;
    }
    if (this.#totalBatches >= 0 && this.#nextOrdered >= this.#totalBatches) {
      job.finish({ results: this.#ordered, complete: this.#complete, skipped: this.#skipped });
    }
  }

  /** One file's result, in order: its lines held while the page is still being collected. */
  #take(r: FileResult): void {
    if (this.#params.mode !== "content") this.#ordered.push(r);
    else if (!this.#collecting || r.lines === undefined) {
      // Past the cut: a batch searched before the cutoff was set still carries lines.
      this.#collecting = false;
      this.#complete = false;
      this.#ordered.push({ path: r.path, count: r.count });
    } else {
      this.#ordered.push(r);
      if (this.#separate && this.#heldLines > 0) this.#hold("--");
      for (const line of r.lines) this.#hold(line);
    }
  }
}
