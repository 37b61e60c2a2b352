/**
 * Messages between a worker-backed engine (worker_engine.ts, main thread) and its worker
 * (worker_host.ts runs the worker's side). Structured-cloneable; the questions and answers are
 * the language-neutral ones of engine.ts.
 */
import type { WorkspaceOptions } from "../workspace/workspace.ts";
import type { Answer, Diagnostic, NavigationQuery, Query } from "./engine.ts";

export interface WorkerSettings {
  ws: WorkspaceOptions;
  /** Files over this many bytes are left out of programs. */
  maxBytes: number;
  /** Diagnostics stop between files once they have run this long (a partial answer). */
  budgetMs: number;
  /** The memory budget of the engine's programs in MiB: past it, the least recently used go. */
  maxMib?: number;
}

type WithoutEngine<A> = A extends unknown ? Omit<A, "engine"> : never;

/** An answer as a worker posts it: the engine names itself on the main thread. */
export type WorkerAnswer = WithoutEngine<Answer>;

export type ToEngine =
  | { t: "open"; settings: WorkerSettings; cancel: SharedArrayBuffer }
  | { t: "ask"; id: number; query: Query | NavigationQuery }
  /** The server wrote these root-relative files (`created`: new names). */
  | { t: "touch"; paths: string[]; created: boolean };

export type FromEngine =
  | { t: "ready" }
  | { t: "progress"; id: number; done: number; message: string }
  /** The engine is loaded and the question's work begins (its time bound starts). */
  | { t: "begun"; id: number }
  /** The files a diagnostics request will check, and the ones it leaves out on purpose. */
  | { t: "scope"; id: number; total: number; leftOut: number }
  /** One file of a diagnostics request checked, with its diagnostics. */
  | { t: "checked"; id: number; path: string; diagnostics: Diagnostic[] }
  | { t: "answer"; id: number; answer: WorkerAnswer }
  /** Something the model must fix or know (ToolError text). */
  | { t: "refused"; id: number; message: string }
  | { t: "cancelled"; id: number }
  | { t: "failed"; id: number; message: string }
  | { t: "log"; level: "warn" | "info" | "debug"; message: string };
