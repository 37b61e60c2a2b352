/**
 * The Python engine (docs/architecture.md "Engines"): pyright's language server in a worker
 * (worker.ts) for `.py` and `.pyi` files, on the generic worker-backed engine.
 */
import { type EngineOptions, WorkerEngine, type WorkerEngineSpec } from "../worker_engine.ts";
import { isPythonPath } from "./scope.ts";

const PYTHON: WorkerEngineSpec = {
  id: "pyright",
  name: "Python",
  handles: isPythonPath,
  worker: new URL("./worker.ts", import.meta.url),
  // Reading only: pyright is shown an empty environment (pyright_server.ts).
  needs: {},
  // pyright has no implementation request: implementations.ts builds them from its references.
  navigation: ["implementations", "type_definitions", "type", "calls"],
  // Overlay texts are opened in pyright for one question, then closed (queries.ts withOverlay).
  overlays: true,
  words: {
    stopped: "pyright was still checking files (a very large or generated file can take long); " +
      "name a narrower path, or leave such files out with the pyright configuration's exclude",
    overrun: (seconds) =>
      `pyright gave no answer within ${seconds} s: analysing this file and what it imports takes ` +
      `longer; leave very large or generated files out with the pyright configuration's ` +
      `exclude, or use grep and find_symbol instead`,
    leftOut: (count) => `${count} file${count === 1 ? "" : "s"} left out`,
  },
};

/** The Python engine of a session (its worker starts on the first question). */
export function pythonEngine(options: EngineOptions = {}): WorkerEngine {
  return new WorkerEngine(PYTHON, options);
}
