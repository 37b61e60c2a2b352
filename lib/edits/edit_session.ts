/**
 * The editing state of one session (only with --write): what was read (read before write), one
 * lock per file, and who must hear of a write so that no cache serves the old state.
 */
import { PathLocks } from "./path_locks.ts";
import { ReadTracker } from "./read_tracker.ts";

/** A file the server has just written: root-relative and real path, and whether it is new. */
export interface WrittenFile {
  rel: string;
  abs: string;
  created: boolean;
  /** The file is gone (deleted, or moved away from this path). */
  removed?: boolean;
}

export class EditSession {
  readonly reads = new ReadTracker();
  readonly locks = new PathLocks();
  readonly #listeners: ((file: WrittenFile) => void)[] = [];

  /** `listener` hears of every write (caches drop what the write made stale). */
  onWritten(listener: (file: WrittenFile) => void): void {
    this.#listeners.push(listener);
  }

  /** Tells every listener; one that throws does not stop the others. */
  written(file: WrittenFile): void {
    for (const listener of this.#listeners) {
      try {
        listener(file);
      } catch {
        // A cache that cannot be told expires on its own schedule.
      }
    }
  }
}
