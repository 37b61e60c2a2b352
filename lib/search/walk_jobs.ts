/** Glob and listing walks on the pool (one worker each: the walk is the work). */
import type { WorkspaceOptions } from "../workspace/workspace.ts";
import type { FromWorker, GlobbedFile, ListEntry } from "./protocol.ts";
import type { Job, JobContext, SearchPool } from "./pool.ts";

/** Files under `base` matching the ripgrep globs, with their mtimes. */
export function runGlob(
  pool: SearchPool,
  params: { ws: WorkspaceOptions; base: string; globs: string[] },
  ctx: Omit<JobContext, "fileOf">,
): Promise<GlobbedFile[]> {
  const found: GlobbedFile[] = [];
  return pool.run({
    start(job: Job<GlobbedFile[]>): void {
      job.post(0, {
        t: "walk",
        job: job.id,
        ws: params.ws,
        base: params.base,
        kind: "glob",
        globs: params.globs,
        typeGlobs: [],
        batchSize: 0,
        rampUp: false,
      });
    },
    onMessage(job: Job<GlobbedFile[]>, _slot: number, message: FromWorker): void {
      if (message.t === "globbed") {
        for (const e of message.entries) found.push(e);
        ctx.progress(found.length);
      } else if (message.t === "walked") job.finish(found);
    },
  }, ctx);
}

/** Entries under `base` down to `depth`, in walk order. */
export function runList(
  pool: SearchPool,
  params: { ws: WorkspaceOptions; base: string; depth: number },
  ctx: Omit<JobContext, "fileOf">,
): Promise<ListEntry[]> {
  return pool.run({
    start(job: Job<ListEntry[]>): void {
      job.post(0, {
        t: "list",
        job: job.id,
        ws: params.ws,
        base: params.base,
        depth: params.depth,
      });
    },
    onMessage(job: Job<ListEntry[]>, _slot: number, message: FromWorker): void {
      if (message.t === "listed") job.finish(message.entries);
    },
  }, ctx);
}
