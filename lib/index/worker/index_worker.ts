/**
 * The index worker's state and steps, one object: it builds the trigram index of the workspace
 * off the main thread (in time slices, so queries and watcher events are answered while it
 * builds), keeps it fresh, stores it in the cache folder and answers candidate queries. It serves
 * exactly the files the walk serves: it walks with the same Workspace, and every change is
 * re-walked from the changed path.
 *
 * The parts, each in its own file: state.ts (phase, index in use, status), tree.ts (the
 * workspace, the folder table, reading a file), build.ts (the build), freshness.ts (watching and
 * re-walking what changed), stored_start.ts (opening a stored index and its stat pass),
 * persistence.ts (writing shards), queries.ts (answers). worker.ts only dispatches messages here.
 */
import { setLogLevel } from "../../log.ts";
import type { FromIndex, IndexCache, IndexQuery, IndexSettings, IndexStatus } from "../protocol.ts";
import { Builder } from "./build.ts";
import { Freshness } from "./freshness.ts";
import { Persistence } from "./persistence.ts";
import { Queries, type QueryAnswer } from "./queries.ts";
import { settle } from "./slices.ts";
import { IndexState } from "./state.ts";
import { StoredStart } from "./stored_start.ts";
import { Tree } from "./tree.ts";

export class IndexWorker {
  #state: IndexState;
  #tree: Tree;
  #persistence: Persistence;
  #freshness: Freshness;
  #builder: Builder;
  #storedStart: StoredStart;
  #queries: Queries;
  /** A grep asked for the index (a large tree builds only then). */
  #buildWanted = false;

  constructor(post: (message: FromIndex) => void) {
    const state = new IndexState(post);
    this.#state = state;
    this.#tree = new Tree(state, () => this.#persistence.noteUnwritten());
    this.#persistence = new Persistence(state, this.#tree);
    this.#freshness = new Freshness(
      state,
      this.#tree,
      this.#persistence,
      () => this.#builder.build().catch((error) => state.fail(error)),
    );
    this.#builder = new Builder(state, this.#tree, this.#freshness, this.#persistence);
    this.#storedStart = new StoredStart(state, this.#tree, this.#freshness, this.#persistence);
    this.#queries = new Queries(state, this.#freshness, this.#persistence, this.#builder);
  }

  /**
   * The start: the watcher first (on its own thread: every walk that later queries trust waits
   * until it watches the whole tree, so that a change made during the walk is an event), then
   * the stored index if there is one, else a build (a large tree waits for the first grep).
   */
  async open(
    s: IndexSettings,
    cache: IndexCache | null,
    watch: MessagePort | null,
    busy: Int32Array | null = null,
  ): Promise<void> {
    const state = this.#state;
    state.settings = s;
    state.giveWay.watch(busy);
    if (s.logLevel !== undefined) setLogLevel(s.logLevel);
    this.#tree.open(s.ws);
    if (!s.watch) {
      state.distrust();
      state.setPhase("off", "no file watcher");
      return;
    }
    this.#freshness.start(watch);
    if (cache !== null) {
      await this.#storedStart.begin(cache, s);
      if (state.index !== null) return;
    }
    await this.#freshness.watching;
    if (this.#freshness.ended) return;
    if (s.eagerMaxFiles !== Infinity) {
      const gen = state.generation;
      state.setPhase("building");
      const small = await this.#tree.walkAll(gen, s.eagerMaxFiles, { giveWay: true });
      if (!state.isCurrent(gen)) return;
      if (small === null && !this.#buildWanted) {
        state.setPhase("waiting", "large tree: the index is built after the first grep");
        return;
      }
    }
    await this.#builder.build();
  }

  /** The watch worker failed (its error reached the main thread). */
  unwatched(why: string): void {
    if (!this.#freshness.ended) this.#freshness.stop(why);
  }

  /** A grep happened: build now if the build was deferred. */
  async build(): Promise<void> {
    this.#buildWanted = true;
    if (this.#state.phase === "waiting") await this.#builder.build();
  }

  /**
   * Answers a query once the stored start let it through: after the events already queued
   * arrived and the folders in scope were checked, or, `early`, at once from the index as it is
   * with `confirm` to call next, which lets the queued events arrive, checks the folders and says
   * whether the answer stands (the search reads the candidates meanwhile; the folders of a large
   * tree take tens of milliseconds). No candidates, nothing to confirm: the search scans.
   */
  async query(
    q: IndexQuery,
    early = false,
  ): Promise<{ answer: QueryAnswer; confirm?: () => Promise<boolean> }> {
    await this.#storedStart.admit();
    // No index to answer from (the first build runs): the answer is a full scan whatever the
    // queued events say, so it goes now rather than after two more of the build's slices.
    const phase = this.#state.phase;
    if (this.#state.index === null || phase !== "ready") {
      return { answer: { candidates: null, why: `index ${phase}` } };
    }
    if (!early) {
      await settle();
      return { answer: this.#queries.answer(q) };
    }
    const answer = this.#queries.answer(q, { checkFolders: false });
    // Taken right after the answer, with nothing run in between: what it was computed from.
    const stamp = this.#queries.stamp();
    if (answer.candidates === null || stamp === null) return { answer };
    return {
      answer,
      confirm: async () => {
        // The folders are checked while the events already queued arrive (settle's turns).
        const settled = settle();
        this.#queries.checkFolders(q, stamp);
        await settled;
        return this.#queries.unchanged(stamp);
      },
    };
  }

  /** Paths the server itself changed: re-read before the next query. */
  touch(paths: string[]): void {
    this.#freshness.touch(paths);
  }

  /** Tests: the watcher overflowed (as a "rescan" event does). */
  overflow(): void {
    this.#freshness.distrust();
  }

  /** Tests: stop reading watcher events (as if they were lost). */
  deafen(): void {
    this.#freshness.deafen();
  }

  status(): IndexStatus {
    return this.#state.status();
  }

  /** Tests: writes what is pending to the cache now; the error message, or "" once on disk. */
  async persist(): Promise<string> {
    try {
      await this.#storedStart.loaded;
      await this.#persistence.flush();
      return "";
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    }
  }

  fail(error: unknown): void {
    this.#state.fail(error);
  }
}
