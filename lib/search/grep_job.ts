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
import type { Job, JobContext, SearchPool } from "./pool.ts";

const BATCH = 128;
const IN_FLIGHT = 2;

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
  const batches = new Map<number, string[]>();
  const reals = new Map<number, string[]>();
  const pieces = new Map<number, (number[] | null)[]>();
  const done = new Map<number, FileResult[]>();
  const queue: number[] = [];
  let walking = true;
  const walkSlot = 0;
  let totalBatches = -1;
  const inFlight: number[] = [];
  const ordered: FileResult[] = [];
  let nextOrdered = 0;
  let complete = true;
  let heldLines = 0;
  let heldChars = 0;
  /** False once the held lines fill the page (from the end of that batch on). */
  let collecting = true;
  let cutoffSet = false;
  const separate = separatesFiles(params.content);
  const skipped: SkippedFile[] = [];

  function dispatch(job: Job<GrepOutcome>): void {
    for (let slot = 0; slot < job.slots; slot++) {
      if (walking && slot === walkSlot) continue;
      while (inFlight[slot] < IN_FLIGHT && queue.length > 0) {
        const batch = queue.shift()!;
        inFlight[slot]++;
        job.post(slot, {
          t: "search",
          job: job.id,
          batch,
          files: batches.get(batch)!,
          reals: reals.get(batch)!,
          pieces: pieces.get(batch),
          ws: params.ws,
          spec: params.spec,
          mode: params.mode,
          content: params.content,
          maxLines: Number.isFinite(params.collectLines) ? params.collectLines : 0,
        });
      }
    }
  }

  /** Counts one output line (and its characters from `offset` on). */
  function hold(line: string): void {
    if (heldLines >= params.offset) heldChars += line.length + 1;
    heldLines++;
  }

  function absorb(job: Job<GrepOutcome>): void {
    while (done.has(nextOrdered)) {
      const results = done.get(nextOrdered)!;
      done.delete(nextOrdered);
      batches.delete(nextOrdered);
      reals.delete(nextOrdered);
      pieces.delete(nextOrdered);
      for (const r of results) {
        if (params.mode !== "content") ordered.push(r);
        else if (!collecting || r.lines === undefined) {
          // Past the cut: a batch searched before the cutoff was set still carries lines.
          collecting = false;
          complete = false;
          ordered.push({ path: r.path, count: r.count });
        } else {
          ordered.push(r);
          if (separate && heldLines > 0) hold("--");
          for (const line of r.lines) hold(line);
        }
      }
      if (
        params.mode === "content" && collecting &&
        (heldLines >= params.collectLines || heldChars > params.collectChars)
      ) collecting = false;
      if (!collecting && !cutoffSet) {
        job.setCutoff(nextOrdered);
        cutoffSet = true;
      }
      nextOrdered++;
    }
    if (totalBatches >= 0 && nextOrdered >= totalBatches) {
      job.finish({ results: ordered, complete, skipped });
    }
  }

  const driver = {
    start(job: Job<GrepOutcome>): void {
      for (let i = 0; i < job.slots; i++) inFlight.push(0);
      if (params.single) {
        walking = false;
        totalBatches = 1;
        batches.set(0, [params.base]);
        reals.set(0, [""]);
        queue.push(0);
        dispatch(job);
        return;
      }
      const given = params.candidates;
      if (given !== undefined) {
        // The index chose the files: no walk, every worker searches.
        walking = false;
        totalBatches = 0;
        for (let i = 0; i < given.files.length; i += BATCH) {
          batches.set(totalBatches, given.files.slice(i, i + BATCH));
          reals.set(totalBatches, given.reals.slice(i, i + BATCH));
          pieces.set(totalBatches, given.pieces.slice(i, i + BATCH));
          queue.push(totalBatches++);
        }
        dispatch(job);
        absorb(job);
        return;
      }
      job.post(walkSlot, {
        t: "walk",
        job: job.id,
        ws: params.ws,
        base: params.base,
        kind: "grep",
        globs: params.globs,
        typeGlobs: params.typeGlobs,
        batchSize: BATCH,
      });
    },
    onMessage(job: Job<GrepOutcome>, slot: number, message: FromWorker): void {
      if (message.t === "files") {
        batches.set(message.batch, message.files);
        reals.set(message.batch, message.reals);
        queue.push(message.batch);
        dispatch(job);
      } else if (message.t === "walked") {
        walking = false;
        totalBatches = message.batches;
        dispatch(job);
        absorb(job);
      } else if (message.t === "searched") {
        inFlight[slot]--;
        done.set(message.batch, message.results);
        if (message.skipped !== undefined) skipped.push(...message.skipped);
        dispatch(job);
        absorb(job);
      }
    },
  };
  return pool.run(driver, {
    ...ctx,
    fileOf: (batch, index) => batches.get(batch)?.[index],
  });
}
