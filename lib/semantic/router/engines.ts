/**
 * The engine table (docs/architecture.md "Engines"): one line per engine, in the order the
 * router asks them which files they handle. Adding an engine is its folder plus one line here.
 */
import type { Engine } from "../engine.ts";
import type { EngineOptions } from "../worker_engine.ts";
import { typescriptEngine } from "../typescript/engine.ts";
import { pythonEngine } from "../python/engine.ts";

/** Makes a session's engine (nothing starts until its first question). */
export type EngineFactory = (options: EngineOptions) => Engine;

export const ENGINES: readonly EngineFactory[] = [
  typescriptEngine,
  pythonEngine,
];
