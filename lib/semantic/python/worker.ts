/**
 * The Python worker: pyright's language server (pyright_server.ts) over the workspace, questions
 * answered one at a time through worker_host.ts's loop. It holds the permission to read and
 * nothing else (lib/worker_start.ts); pyright is shown an empty environment. pyright starts on
 * the first question that needs it (a diagnostics question over a scope with no Python file is
 * answered without it). A file watcher on the root tells pyright when files change, come or go
 * (pyright_server.ts "Freshness").
 */
/// <reference lib="deno.worker" />
import { Workspace } from "../../workspace/workspace.ts";
import { isGitName, relativeUnder } from "../../workspace/names.ts";
import { isTempName } from "../../workspace/temp_names.ts";
import type { NavigationQuery, Query } from "../engine.ts";
import type { WorkerAnswer, WorkerSettings } from "../protocol.ts";
import { type EngineWorld, hostEngine, postToMain } from "../worker_host.ts";
import { LspError, REQUEST_CANCELLED } from "./lsp_client.ts";
import { PyrightServer } from "./pyright_server.ts";
import { PythonQueries } from "./queries.ts";
import { PythonCallHierarchy } from "./call_hierarchy.ts";
import { PythonImplementations } from "./implementations.ts";
import { pythonFilesIn } from "./scope.ts";
import { withImporters } from "./importers.ts";
import { KeptDiagnostics } from "./kept_diagnostics.ts";

/** The deepest call hierarchy walked (engine.ts: 1-3). */
const MAX_CALL_DEPTH = 3;

/** How often a question looks at the shared cancellation flag. */
const CANCEL_POLL_MS = 25;

/** The least time between two progress messages of one diagnostics question. */
const PROGRESS_MS = 100;

interface Started {
  server: PyrightServer;
  queries: PythonQueries;
}

class PythonWorld implements EngineWorld {
  readonly #ws: Workspace;
  readonly #settings: WorkerSettings;
  readonly #flag: Int32Array;
  readonly #kept: KeptDiagnostics;
  #started: Promise<Started> | null = null;
  #server: PyrightServer | null = null;

  constructor(settings: WorkerSettings, cancel: SharedArrayBuffer) {
    this.#ws = Workspace.openSync(settings.ws);
    this.#settings = settings;
    this.#flag = new Int32Array(cancel);
    this.#kept = new KeptDiagnostics(this.#ws);
  }

  /** pyright, started on the first question that needs it. */
  #start(id: number): Promise<Started> {
    if (this.#started === null) {
      postToMain({ t: "progress", id, done: 0, message: "starting pyright" });
      const server = new PyrightServer(this.#ws, (level, message) => {
        if (level !== "debug") postToMain({ t: "log", level, message });
      });
      this.#started = server.start().then(() => {
        this.#server = server;
        this.#watch();
        const queries = new PythonQueries(
          server,
          this.#ws,
          server.typeshed,
          this.#settings.maxBytes,
        );
        return { server, queries };
      }, (error) => {
        // The next question tries again (a fresh start) rather than failing for ever.
        this.#started = null;
        throw error;
      });
    }
    return this.#started;
  }

  async #watch(): Promise<void> {
    const root = this.#ws.root;
    try {
      const watcher = Deno.watchFs(root, { recursive: true });
      for await (const event of watcher) {
        if (event.kind === "access") continue;
        const rels: string[] = [];
        for (const path of event.paths) {
          const rel = relativeUnder(path, root);
          if (rel === null || rel === "") continue;
          const segments = rel.split("/");
          if (segments.some(isGitName) || segments.some(isTempName)) continue;
          rels.push(rel);
        }
        if (rels.length === 0) continue;
        this.#kept.changed();
        if (event.kind === "modify") this.#server?.changed(rels);
        else this.#server?.relist();
      }
    } catch {
      // No watcher (limits, platform): the server's own writes still arrive through touch.
    }
  }

  touch(paths: readonly string[], created: boolean): void {
    this.#kept.changed();
    if (created) this.#server?.relist();
    else this.#server?.changed(paths);
  }

  /**
   * The navigation questions pyright answers: the type at a position, its declaration, calls,
   * and implementations built from its references (implementations.ts).
   */
  async navigate(id: number, query: NavigationQuery): Promise<WorkerAnswer> {
    return await this.#withPyright(id, async ({ server, queries }, signal) => {
      if (query.kind === "type") {
        return { kind: "type", info: await queries.typeAt(query.at, signal) };
      }
      if (query.kind === "type_definitions") {
        return {
          kind: "type_definitions",
          definitions: await queries.typeDefinitions(query.at, signal),
        };
      }
      if (query.kind === "implementations") {
        return {
          kind: "implementations",
          definitions: await new PythonImplementations(server.client, queries).implementations(
            query.at,
            signal,
          ),
        };
      }
      const depth = Math.min(Math.max(1, Math.trunc(query.depth)), MAX_CALL_DEPTH);
      const walk = await new PythonCallHierarchy(server.client, queries).calls(
        query.at,
        { direction: query.direction, depth },
        signal,
      );
      return { kind: "calls", direction: query.direction, ...walk };
    });
  }

  /** Runs `work` once pyright has started and listed the workspace, cancellable by the flag. */
  async #withPyright(
    id: number,
    work: (started: Started, signal: AbortSignal) => Promise<WorkerAnswer>,
  ): Promise<WorkerAnswer> {
    const control = new AbortController();
    const poll = setInterval(() => {
      if (Atomics.load(this.#flag, 0) === id) control.abort();
    }, CANCEL_POLL_MS);
    try {
      const started = await this.#start(id);
      await started.server.listed();
      started.queries.newQuestion();
      return await work(started, control.signal);
    } finally {
      clearInterval(poll);
    }
  }

  async answer(id: number, query: Query): Promise<WorkerAnswer> {
    const files = query.kind !== "diagnostics"
      ? null
      : query.files !== undefined
      ? withImporters(this.#ws, query.files)
      : pythonFilesIn(this.#ws, query.path);
    if (files !== null && files.length === 0) {
      return { kind: "diagnostics", diagnostics: [], files: 0, total: 0, leftOut: 0 };
    }
    return await this.#withPyright(
      id,
      ({ server, queries }, signal) =>
        queries.withOverlay(
          query.kind === "references" || query.kind === "diagnostics" ? query.overlay : undefined,
          () =>
            query.kind === "diagnostics"
              ? this.#diagnostics(id, query, { server, queries }, files ?? [], signal)
              : this.#ask(query, queries, signal),
        ),
    );
  }

  async #ask(
    query: Exclude<Query, { kind: "diagnostics" }>,
    queries: PythonQueries,
    signal: AbortSignal,
  ): Promise<WorkerAnswer> {
    switch (query.kind) {
      case "definition":
        // The type at the position comes with it: go_to_definition asks one question, not two.
        return {
          kind: "definition",
          definitions: await queries.definitions(query.at, signal),
          type: await queries.typeAt(query.at, signal),
        };
      case "references":
        return { kind: "references", references: await queries.references(query.at, signal) };
      case "rename":
        return { kind: "rename", edits: await queries.rename(query.at, query.newName, signal) };
    }
  }

  /**
   * The diagnostics of `files` (the scope, or the files asked about and their importers): the
   * kept answer of the same question when no file changed since (kept_diagnostics.ts), else a
   * check of every file with progress, kept when complete. An overlay question is checked and
   * never kept.
   */
  async #diagnostics(
    id: number,
    query: Extract<Query, { kind: "diagnostics" }>,
    { server, queries }: Started,
    files: readonly string[],
    signal: AbortSignal,
  ): Promise<WorkerAnswer> {
    const overlaid = Object.keys(query.overlay ?? {}).length > 0;
    const found = this.#kept.find(JSON.stringify([query.path, query.files ?? null, files]), files);
    postToMain({ t: "scope", id, total: files.length, leftOut: 0 });
    if (!overlaid && found.answer !== null) return found.answer;
    // Changed files whose event has not come yet: pyright reads them again before the check.
    server.changed(found.stale);
    let progressAt = 0;
    let done = 0;
    const checked = await queries.diagnostics(files, {
      timeoutMs: query.timeoutMs,
      checked: (path, diagnostics) => {
        postToMain({ t: "checked", id, path, diagnostics });
        done++;
        const now = performance.now();
        if (now - progressAt < PROGRESS_MS && done < files.length) return;
        progressAt = now;
        postToMain({
          t: "progress",
          id,
          done,
          message: `${done} of ${files.length} files checked`,
        });
      },
    }, signal);
    const answer: WorkerAnswer = {
      kind: "diagnostics",
      diagnostics: checked.list,
      files: checked.files,
      total: checked.total,
      leftOut: 0,
    };
    if (checked.stopped !== undefined) answer.stopped = checked.stopped;
    if (!overlaid) this.#kept.keep(found.start, answer);
    return answer;
  }
}

hostEngine({
  loading: "opening the workspace for pyright",
  open: (settings: WorkerSettings, cancel: SharedArrayBuffer) =>
    Promise.resolve(new PythonWorld(settings, cancel)),
  isCancellation: (error) => error instanceof LspError && error.code === REQUEST_CANCELLED,
});
