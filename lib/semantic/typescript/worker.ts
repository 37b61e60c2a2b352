/**
 * The TypeScript engine's worker: TypeScript's language service over the workspace (typescript
 * 6.0.3, loaded here on first use, never on the main thread). Every read goes through TypeFiles;
 * the loop of ../worker_host.ts runs requests one at a time; the main thread cancels one through
 * a shared flag that the language service's cancellation token reads. A file watcher on the root
 * tells when files come or go (the projects are then read again); file contents are checked per
 * request by their stamps.
 */
/// <reference lib="deno.worker" />
import process from "node:process";
import type ts from "typescript";
import { Workspace } from "../../workspace/workspace.ts";
import { isGitName } from "../../workspace/names.ts";
import { isTempName } from "../../workspace/temp_names.ts";
import type { NavigationQuery, Query } from "../engine.ts";
import type { WorkerAnswer, WorkerSettings } from "../protocol.ts";
import { hostEngine, postToMain as post } from "../worker_host.ts";
import { type Project, ProjectSet } from "./projects.ts";
import { SemanticQueries } from "./queries.ts";
import { MAX_CALL_DEPTH, NavigationQueries } from "./navigation.ts";
import { TypeFiles } from "./type_files.ts";
import { sharedRegistry } from "./shared_registry.ts";
import { ProjectDiagnostics } from "./project_diagnostics.ts";

type TS = typeof ts;

/** Progress messages at most this often while a program builds or diagnostics run. */
const PROGRESS_MS = 100;

/** The state of the worker once opened: the workspace, the projects, the watcher. */
class SemanticWorld {
  readonly #files: TypeFiles;
  readonly #projects: ProjectSet;
  readonly #queries: SemanticQueries;
  readonly #navigation: NavigationQueries;
  readonly #diagnostics: ProjectDiagnostics;
  readonly #flag: Int32Array;
  #current = 0;
  readonly #budgetBytes: number;
  #stale = false;
  #watcher: Deno.FsWatcher | null = null;
  #progressAt = 0;
  #read = 0;

  constructor(tsModule: TS, settings: WorkerSettings, cancel: SharedArrayBuffer) {
    const ws = Workspace.openSync(settings.ws);
    this.#budgetBytes = (settings.maxMib ?? 1536) * 1024 * 1024;
    const libDir = tsModule.getDefaultLibFilePath({}).replace(/\/[^/]*$/, "");
    this.#files = new TypeFiles(ws, libDir, settings.maxBytes);
    this.#flag = new Int32Array(cancel);
    const token: ts.CancellationToken = {
      isCancellationRequested: () => Atomics.load(this.#flag, 0) === this.#current,
      throwIfCancellationRequested: () => {
        if (Atomics.load(this.#flag, 0) === this.#current) {
          throw new tsModule.OperationCanceledException();
        }
      },
    };
    this.#projects = new ProjectSet(
      tsModule,
      this.#files,
      sharedRegistry(tsModule, tsModule.createDocumentRegistry(true, ws.root)),
      token,
      (message) => post({ t: "log", level: "warn", message: `tsconfig: ${message}` }),
    );
    this.#queries = new SemanticQueries(
      tsModule,
      this.#files,
      this.#projects,
      () => this.#projects.reset(),
    );
    this.#navigation = new NavigationQueries(tsModule, this.#files, this.#queries);
    this.#diagnostics = new ProjectDiagnostics(tsModule, this.#files, this.#projects, {
      placeOf: (path, offset) => this.#queries.placeOf(path, offset),
      message: (text) => this.#queries.message(text),
    });
    this.#files.onRead = () => {
      this.#read++;
      this.#progress(this.#read, "files read");
    };
    this.#watch(ws.root);
  }

  #progress(done: number, message: string): void {
    const now = performance.now();
    if (now - this.#progressAt < PROGRESS_MS) return;
    this.#progressAt = now;
    post({ t: "progress", id: this.#current, done, message });
  }

  async #watch(root: string): Promise<void> {
    try {
      this.#watcher = Deno.watchFs(root, { recursive: true });
      for await (const event of this.#watcher) {
        if (event.kind === "access") continue;
        for (const path of event.paths) {
          const rel = this.#files.relOf(path);
          if (rel === null) continue;
          const segments = rel.split("/");
          if (segments.some(isGitName) || segments.some(isTempName)) continue;
          if (this.#projects.configFiles.has(path)) this.#stale = true;
          else if (event.kind === "modify") continue;
          // A file the programs already read that is written again (an atomic write renames
          // over it) is seen by its stamp; anything else that comes or goes changes projects.
          else if (event.kind === "remove" || this.#files.cachedText(rel) === undefined) {
            this.#stale = true;
          }
        }
      }
    } catch {
      // No watcher (limits, platform): new files are found when a position's file is missing.
    }
  }

  touch(paths: readonly string[], created: boolean): void {
    this.#files.touch(paths);
    if (created || paths.some((p) => this.#projects.configFiles.has(this.#files.absOf(p)))) {
      this.#stale = true;
    }
  }

  /**
   * A new question: files are stamped afresh, and projects read again if a config changed; an
   * overlay given with it stands in for those files for this question only.
   */
  #begin(id: number, overlay?: Readonly<Record<string, string>>): void {
    this.#current = id;
    this.#read = 0;
    this.#files.setOverlay(overlay ?? {});
    this.#files.newEpoch();
    // The watcher may not have told of a config edit yet: the configs' stamps are asked too.
    if (this.#stale || this.#projects.configsChanged()) {
      this.#stale = false;
      this.#projects.reset();
    }
  }

  navigate(id: number, query: NavigationQuery): WorkerAnswer {
    const answer = this.#navigate(id, query);
    this.#keepWithinBudget();
    return answer;
  }

  answer(id: number, query: Query): WorkerAnswer {
    const answer = this.#answer(id, query);
    this.#keepWithinBudget();
    return answer;
  }

  /**
   * After each question: past the memory budget (--semantic-max-mib), the projects used longest
   * ago are released (ProjectSet.release), said on the log.
   */
  #keepWithinBudget(keep?: ReadonlySet<Project>): void {
    const heap = Deno.memoryUsage().heapUsed;
    const released = this.#projects.release(heap, this.#budgetBytes, keep);
    if (released.length === 0) return;
    const mib = (n: number) => Math.round(n / (1024 * 1024));
    post({
      t: "log",
      level: "info",
      message: `typescript: released ${released.length} idle project${
        released.length === 1 ? "" : "s"
      } (${released.map((k) => k || "default project").join(", ")}): the heap held ${
        mib(heap)
      } MiB of the ${mib(this.#budgetBytes)} MiB budget (--semantic-max-mib)`,
    });
  }

  #navigate(id: number, query: NavigationQuery): WorkerAnswer {
    this.#begin(id);
    const nav = this.#navigation;
    switch (query.kind) {
      // The type at the position comes with the answer: one question, one program check.
      case "implementations":
        return {
          kind: "implementations",
          ...nav.implementations(query.at),
          type: nav.type(query.at),
        };
      case "type_definitions":
        return {
          kind: "type_definitions",
          definitions: nav.typeDefinitions(query.at),
          type: nav.type(query.at),
        };
      case "type":
        return { kind: "type", info: nav.type(query.at) };
      case "calls": {
        const depth = Math.min(Math.max(1, Math.trunc(query.depth)), MAX_CALL_DEPTH);
        const walk = nav.calls(query.at, query.direction, depth);
        return { kind: "calls", direction: query.direction, ...walk };
      }
    }
  }

  #answer(id: number, query: Query): WorkerAnswer {
    this.#begin(id, "overlay" in query ? query.overlay : undefined);
    switch (query.kind) {
      case "definition":
        return {
          kind: "definition",
          definitions: this.#queries.definitions(query.at),
          type: this.#navigation.type(query.at),
        };
      case "references":
        return { kind: "references", ...this.#queries.references(query.at) };
      case "rename":
        return { kind: "rename", ...this.#queries.rename(query.at, query.newName) };
      case "diagnostics":
        return this.#checkDiagnostics(id, query);
    }
  }

  #checkDiagnostics(id: number, query: Extract<Query, { kind: "diagnostics" }>): WorkerAnswer {
    const found = this.#diagnostics.run({
      path: query.path,
      files: query.files,
      timeoutMs: query.timeoutMs,
      scope: (total, leftOut) => post({ t: "scope", id, total, leftOut }),
      checked: (path, list) => post({ t: "checked", id, path, diagnostics: list }),
      afterProject: (pending) => this.#keepWithinBudget(pending),
      progress: (done, total, project) =>
        this.#progress(done, `${done} of ${total} files checked (${project || "default project"})`),
    }, this.#files.overlaid);
    const answer: WorkerAnswer = {
      kind: "diagnostics",
      diagnostics: found.list,
      config: found.config,
      projects: found.projects,
      files: found.files,
      total: found.total,
      leftOut: found.leftOut,
    };
    if (found.partial !== undefined) answer.stopped = found.partial;
    if (found.kept === true) answer.kept = true;
    return answer;
  }
}

let tsModule: TS | null = null;

async function loadTypeScript(): Promise<TS> {
  if (tsModule === null) {
    // TypeScript reads a few variables (TSC_WATCHFILE, NODE_ENV...) as it loads; it sees none:
    // the process's environment is not its to read.
    Object.defineProperty(process, "env", { value: {}, configurable: true, writable: false });
    tsModule = (await import("typescript")).default;
  }
  return tsModule;
}

hostEngine({
  loading: "loading TypeScript",
  open: async (settings, cancel) => new SemanticWorld(await loadTypeScript(), settings, cancel),
  isCancellation: (error) =>
    tsModule !== null && error instanceof tsModule.OperationCanceledException,
});
