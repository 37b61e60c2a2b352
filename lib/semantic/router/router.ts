/**
 * The semantic router of a session (docs/architecture.md "Engines"): the engines of the table
 * (engines.ts), made when the session starts and started on their first question, and the one
 * answer to "which engine answers for this file?". Tools ask it and never name a language.
 */
import type { Engine } from "../engine.ts";
import { type EngineFactory, ENGINES } from "./engines.ts";
import type { EngineOptions } from "../worker_engine.ts";

export class SemanticRouter {
  readonly #engines: readonly Engine[];

  constructor(options: EngineOptions = {}, table: readonly EngineFactory[] = ENGINES) {
    this.#engines = table.map((make) => make(options));
  }

  /** Every engine, in table order. */
  get engines(): readonly Engine[] {
    return this.#engines;
  }

  /** The engine that answers for a root-relative path, or null (name-based answers then). */
  engineFor(path: string): Engine | null {
    return this.#engines.find((engine) => engine.handles(path)) ?? null;
  }

  /** The engine with this id (tests, benchmarks), or null. */
  byId(id: string): Engine | null {
    return this.#engines.find((engine) => engine.id === id) ?? null;
  }

  /**
   * The server wrote these root-relative files: every engine hears of them (a config file such
   * as tsconfig.json or pyproject.toml matters to an engine that does not handle it).
   */
  touch(paths: string[], created: boolean): void {
    if (paths.length === 0) return;
    for (const engine of this.#engines) engine.touch(paths, created);
  }

  /** Ends every engine's worker. Idempotent. */
  stop(): void {
    for (const engine of this.#engines) engine.stop();
  }
}
