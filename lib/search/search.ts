/**
 * The one search sequence every caller uses (grep, and the symbol tools' candidate files): the
 * resolved scope, then the index's candidate files when it has them, then the grep job over
 * those files (or a walk of the scope), then the index told that a grep happened, which is
 * what starts its deferred build on a large tree. Whoever searches, the index learns of it.
 */
import { type GrepJob, type GrepOutcome, runGrep } from "./grep_job.ts";
import type { JobContext, SearchPool } from "./pool.ts";
import type { CandidateQuery, Candidates } from "./protocol.ts";
import type { SearchScope } from "./scope.ts";

/**
 * What a search asks of the trigram index (lib/index/service.ts SearchIndex): candidate files
 * for a pattern in a scope (null: search the whole scope), and to know that a grep happened.
 */
export interface CandidateSource {
  /**
   * `waiting` hears how far a stored index's check is while the query waits for it. `early`:
   * the answer may come before the index has checked the folders in scope; its `fresh` then
   * says whether the candidates stand (false: ask again).
   */
  candidates(
    query: CandidateQuery,
    waiting?: (done: number, total: number, message: string) => void,
    options?: { early?: boolean },
  ): Promise<{ candidates: Candidates | null; fresh?: Promise<boolean> }>;
  grepDone(): void;
}

/** The session's search services: the worker pool, and the index when there is one. */
export interface SearchEngine {
  pool: SearchPool;
  index: CandidateSource | null;
}

/** A grep job's request (grep_job.ts) with its scope resolved, its files not yet chosen. */
export type SearchRequest =
  & Omit<GrepJob, "base" | "single" | "globs" | "typeGlobs" | "candidates">
  & {
    scope: SearchScope;
    /**
     * find_symbol's exact name (an ASCII identifier, with `uses`): the index leaves out the
     * C/C++ files whose names lists say they cannot define it (CandidateQuery `defines`).
     */
    defines?: string;
  };

/**
 * The grep's outcome; `narrowed` when the index left out files by `defines` (their matches are
 * not in `results`: they cannot define the name).
 */
export type SearchOutcome = GrepOutcome & { narrowed?: true };

/**
 * Runs the search; whatever its outcome (a failure too), the index is told afterwards. `waiting`
 * hears the progress of a stored index's check when the query waits for it (the first grep of a
 * session); the search's own progress (files searched) then counts on from there, so that
 * progress only ever increases.
 *
 * The index is first asked for an early answer: the candidates are read while it checks the
 * folders in scope (on a large tree that check takes about as long as reading a few hundred
 * files). When the check finds a change, that read is dropped and the index is asked again,
 * this time checking before it answers, as every answer did before.
 */
export async function search(
  engine: SearchEngine,
  request: SearchRequest,
  ctx: Omit<JobContext, "fileOf">,
  waiting?: (done: number, total: number, message: string) => void,
): Promise<SearchOutcome> {
  const { scope, spec } = request;
  const index = engine.index;
  let shown = 0;
  const heard = waiting === undefined
    ? undefined
    : (done: number, total: number, message: string) => {
      shown = Math.max(shown, done);
      waiting(done, total, message);
    };
  try {
    for (let attempt = 0;; attempt++) {
      // The trigram index narrows the files to read, when it is ready and the pattern allows it.
      const answer = scope.single || index === null ? null : await index.candidates(
        {
          source: spec.source,
          flags: spec.flags,
          multiline: spec.multiline,
          base: scope.base,
          globs: scope.globs,
          typeGlobs: scope.typeGlobs,
          ...(request.defines === undefined ? {} : { defines: request.defines }),
        },
        heard,
        { early: attempt === 0 },
      );
      const candidates = answer?.candidates ?? null;
      const from = shown;
      const outcome = await grepUnless(engine.pool, jobOf(request, candidates), {
        ...ctx,
        progress: (n) => {
          shown = Math.max(shown, from + n);
          ctx.progress(shown);
        },
      }, answer?.fresh);
      if (outcome === null) continue;
      return candidates?.byNames === true ? { ...outcome, narrowed: true } : outcome;
    }
  } finally {
    index?.grepDone();
  }
}

/** The grep job of `request` over `candidates` (null: a walk of the scope). */
function jobOf(request: SearchRequest, candidates: Candidates | null): GrepJob {
  const scope = request.scope;
  return {
    candidates: candidates ?? undefined,
    ws: request.ws,
    base: scope.base,
    single: scope.single,
    globs: scope.globs,
    typeGlobs: scope.typeGlobs,
    spec: request.spec,
    mode: request.mode,
    content: request.content,
    collectLines: request.collectLines,
    collectChars: request.collectChars,
    offset: request.offset,
    uses: request.uses,
  };
}

/**
 * The grep, run at once; with `fresh` (an early answer's check), its outcome only once the
 * check says the candidates stood, else null (the grep is cancelled: ask the index again).
 */
async function grepUnless(
  pool: SearchPool,
  job: GrepJob,
  ctx: Omit<JobContext, "fileOf">,
  fresh: Promise<boolean> | undefined,
): Promise<GrepOutcome | null> {
  if (fresh === undefined) return await runGrep(pool, job, ctx);
  const own = new AbortController();
  const cancel = () => own.abort(ctx.signal.reason);
  ctx.signal.addEventListener("abort", cancel, { once: true });
  try {
    if (ctx.signal.aborted) cancel();
    const grep = runGrep(pool, job, { ...ctx, signal: own.signal });
    // Settled below either way; until then its failure is not an unhandled one.
    grep.catch(() => {});
    // Cancelled by the caller meanwhile: the grep's own outcome (the pool's cancellation).
    if (await fresh || ctx.signal.aborted) return await grep;
    own.abort(new Error("the index's candidates changed"));
    await grep.catch(() => {});
    return null;
  } finally {
    ctx.signal.removeEventListener("abort", cancel);
  }
}

/**
 * The engine with the index's notice held back: its searches tell the index only on `release`
 * (call it once, whatever happened; it tells only if a search ran). For a call whose search is
 * its first step (find_symbol and find_references parse the candidates next): a large tree's
 * deferred build then starts after the whole call rather than in the middle of its parse, where
 * the two would share the cores and add up in memory.
 */
export function holdingIndexNotice(
  engine: SearchEngine,
): { engine: SearchEngine; release: () => void } {
  const index = engine.index;
  if (index === null) return { engine, release: () => {} };
  let searched = false;
  let released = false;
  const held: CandidateSource = {
    candidates: (query, waiting, options) => index.candidates(query, waiting, options),
    grepDone: () => {
      if (released) index.grepDone();
      else searched = true;
    },
  };
  return {
    engine: { pool: engine.pool, index: held },
    release: () => {
      if (released) return;
      released = true;
      if (searched) index.grepDone();
    },
  };
}
