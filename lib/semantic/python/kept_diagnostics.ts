/**
 * The Python engine's diagnostics kept as one answer, as the TypeScript engine keeps its own
 * (typescript/project_diagnostics.ts): a complete answer is kept with the question it answers
 * (the scope, the files asked about, the files checked) and a stamp of every file it checked,
 * and the same question asked again is answered from it until something changes, so the pages
 * of one answer are slices of one list. A change is the engine's freshness signal (the worker's
 * watcher or the server's own writes: any file under the root, which is also what makes pyright
 * read files again), or a checked file whose stamp differs (a write whose event has not come
 * yet; where no watcher could be started, this and the server's writes are the only signals, so
 * a change to a file outside the checked ones, such as an imported package, is seen only by a new
 * scope or a server write, as pyright itself then sees it). An answer computed while a change came
 * in, a partial answer (a time limit, a cancellation) and an overlay question's answer are never
 * kept.
 */
import type { Workspace } from "../../workspace/workspace.ts";
import type { WorkerAnswer } from "../protocol.ts";

type DiagnosticsAnswer = Extract<WorkerAnswer, { kind: "diagnostics" }>;

interface Kept {
  key: string;
  answer: DiagnosticsAnswer;
  stamps: Map<string, string>;
}

/** What the files of a question were when its check began, and the changes seen until then. */
export interface CheckStart {
  key: string;
  stamps: Map<string, string>;
  generation: number;
}

export class KeptDiagnostics {
  readonly #ws: Workspace;
  #kept: Kept | null = null;
  /** Counts the changes seen: an answer is kept only if none came while it was computed. */
  #generation = 0;

  constructor(ws: Workspace) {
    this.#ws = ws;
  }

  /** Something under the root changed (watcher, server write): the kept answer is dropped. */
  changed(): void {
    this.#generation++;
    this.#kept = null;
  }

  /**
   * The kept answer of the question `key` over `files`, when no file changed since; else null,
   * with the checked files whose stamp differs (pyright must be told of them) and the start of
   * a new check.
   */
  find(key: string, files: readonly string[]): {
    answer: DiagnosticsAnswer | null;
    stale: string[];
    start: CheckStart;
  } {
    const stamps = new Map(files.map((rel) => [rel, this.#stamp(rel)]));
    const kept = this.#kept;
    const stale: string[] = [];
    if (kept !== null) {
      for (const [rel, stamp] of kept.stamps) if (stamps.get(rel) !== stamp) stale.push(rel);
    }
    if (kept !== null && kept.key === key && stale.length === 0) {
      return { answer: { ...kept.answer, kept: true }, stale, start: this.#start(key, stamps) };
    }
    if (stale.length > 0) this.changed();
    return { answer: null, stale, start: this.#start(key, stamps) };
  }

  /** Keeps a complete answer, unless a change came in while it was computed. */
  keep(start: CheckStart, answer: DiagnosticsAnswer): void {
    if (answer.stopped !== undefined || start.generation !== this.#generation) return;
    this.#kept = { key: start.key, answer, stamps: start.stamps };
  }

  #start(key: string, stamps: Map<string, string>): CheckStart {
    return { key, stamps, generation: this.#generation };
  }

  #stamp(rel: string): string {
    const entry = this.#ws.lookupForTypes(rel);
    return entry === null ? "absent" : `${entry.size}:${entry.mtimeMs}:${entry.ino}`;
  }
}
