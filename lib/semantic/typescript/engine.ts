/**
 * The TypeScript engine (docs/architecture.md "Engines"): TypeScript's language service in a
 * worker (worker.ts) for TypeScript and JavaScript files, on the generic worker-backed engine.
 */
import { type EngineOptions, WorkerEngine, type WorkerEngineSpec } from "../worker_engine.ts";
import { isScriptPath } from "./script_paths.ts";

const TYPESCRIPT: WorkerEngineSpec = {
  id: "typescript",
  name: "TypeScript/JavaScript",
  handles: isScriptPath,
  navigation: ["implementations", "type_definitions", "calls", "type"],
  overlays: true,
  worker: new URL("./worker.ts", import.meta.url),
  // TypeScript's system layer reads the environment the launch allows and the system's facts.
  needs: { environment: true },
  words: {
    stopped: "TypeScript was building a project or checking a file when it stopped; call " +
      "again without timeout_s (and without cancelling) for the complete answer",
    overrun: (seconds) =>
      `TypeScript gave no answer within ${seconds} s: building this file's project takes ` +
      `longer (a very large or generated file in it can take minutes); leave such files out ` +
      `with tsconfig, or use grep and find_symbol instead`,
    leftOut: (count) =>
      `${count} minified file${count === 1 ? "" : "s"} left out ` +
      `(no tsconfig includes ${count === 1 ? "it" : "them"})`,
  },
};

/** The TypeScript engine of a session (its worker starts on the first question). */
export function typescriptEngine(options: EngineOptions = {}): WorkerEngine {
  return new WorkerEngine(TYPESCRIPT, options);
}
