/**
 * Queries: a search's question answered with candidate files, or with null (the search scans)
 * and why. The index answers only when it is ready and trusted, after the dirty paths are
 * re-walked and the folders in scope whose mtime moved are listed again (freshness.ts).
 */
import { isUnder, scopeFilter } from "../../search/scope.ts";
import { planQuery } from "../query/planner.ts";
import { nameHash } from "../lists/name_hashes.ts";
import type { Candidates } from "../live/trigram_index.ts";
import type { LayeredIndex } from "../live/layered_index.ts";
import type { IndexQuery } from "../protocol.ts";
import type { Builder } from "./build.ts";
import { type Freshness, MAX_SYNC_DIRTY } from "./freshness.ts";
import type { Persistence } from "./persistence.ts";
import type { IndexState } from "./state.ts";

/** Candidate files above this share of the indexed files: the full scan is as good. */
const TOO_MANY = 0.9;

/** The answer to a query: candidates, or null and why not. */
export type QueryAnswer = { candidates: Candidates; why: "" } | { candidates: null; why: string };

/** What an answer was computed from: the same index, unchanged since, gives the same answer. */
export interface AnswerStamp {
  index: LayeredIndex;
  version: number;
  generation: number;
}

export class Queries {
  #state: IndexState;
  #freshness: Freshness;
  #persistence: Persistence;
  #builder: Builder;

  constructor(
    state: IndexState,
    freshness: Freshness,
    persistence: Persistence,
    builder: Builder,
  ) {
    this.#state = state;
    this.#freshness = freshness;
    this.#persistence = persistence;
    this.#builder = builder;
  }

  /**
   * The answer from the index as it is once the changes heard of are applied. `checkFolders`
   * (default true): the folders in scope whose mtime moved are listed again first; false leaves
   * that to `unchanged`, asked after the answer has gone (the search reads the candidates
   * meanwhile).
   */
  answer(q: IndexQuery, options: { checkFolders?: boolean } = {}): QueryAnswer {
    const state = this.#state;
    const none = (why: string): QueryAnswer => ({ candidates: null, why });
    if (state.index === null || state.phase !== "ready") return none(`index ${state.phase}`);
    if (state.untrusted) return none("index catching up");
    if (!this.#freshness.applyDirty(MAX_SYNC_DIRTY)) {
      this.#freshness.scheduleDirty();
      return none("too many changed files");
    }
    if (options.checkFolders !== false) this.#freshness.checkFolders(q.base);
    const index = state.index;
    if (index === null || state.phase !== "ready") return none(`index ${state.phase}`);
    const query = planQuery(q.source, q.flags);
    if (query.op === "all") return none("no usable trigram");
    const inScope = scopeFilter(q.base, q.globs, q.typeGlobs);
    const keep = (rel: string) => isUnder(rel, q.base) && inScope(rel);
    let candidates;
    try {
      const defines = q.defines === undefined ? null : nameHash(q.defines);
      candidates = index.candidates(query, q.multiline, keep, defines);
    } catch (error) {
      // A stored list failed its check: the stored index is dropped (rebuilt), this query scans.
      this.#storeFailed(error);
      return none("the stored index failed a check");
    }
    if (candidates === null) return none("no usable trigram");
    if (q.defines !== undefined) candidates.byNames = true;
    if (candidates.files.length > TOO_MANY * index.liveFiles && index.liveFiles > 100) {
      return none("too many candidates");
    }
    return { candidates, why: "" };
  }

  /** What an answer given now is computed from (null: no index to answer from). */
  stamp(): AnswerStamp | null {
    const index = this.#state.index;
    if (index === null) return null;
    return { index, version: index.version, generation: this.#state.generation };
  }

  /**
   * The folders in scope whose mtime moved since they were listed are listed again (as `answer`
   * does before it answers), while the index answers from `stamp`'s.
   */
  checkFolders(q: IndexQuery, stamp: AnswerStamp): void {
    if (this.#current(stamp)) this.#freshness.checkFolders(q.base);
  }

  /**
   * Whether an answer computed at `stamp` is still the answer once the changes heard of since
   * are applied: nothing the index answers from has changed (a folder listed again by
   * `checkFolders` that changed anything counts too).
   */
  unchanged(stamp: AnswerStamp): boolean {
    if (!this.#current(stamp)) return false;
    if (!this.#freshness.applyDirty(MAX_SYNC_DIRTY)) {
      this.#freshness.scheduleDirty();
      return false;
    }
    return this.#current(stamp) && stamp.index.version === stamp.version;
  }

  #current(stamp: AnswerStamp): boolean {
    const state = this.#state;
    return state.index === stamp.index && state.generation === stamp.generation &&
      state.phase === "ready" && !state.untrusted;
  }

  /** A stored list failed its check mid-session: drop the stored index and build again. */
  #storeFailed(error: unknown): void {
    const state = this.#state;
    this.#persistence.noteBroken(error instanceof Error ? error.message : String(error));
    state.dropIndex();
    this.#builder.build().catch((e) => state.fail(e));
  }
}
