/** Messages between the index service (main thread) and the index worker. */
import type { LogLevel } from "../log.ts";
import type { WorkspaceOptions } from "../workspace/workspace.ts";
import type { Candidates } from "./live/trigram_index.ts";
import type { CandidateQuery } from "../search/protocol.ts";

export interface IndexSettings {
  ws: WorkspaceOptions;
  /** The memory cap of the index in bytes (--index-max-mib). */
  maxBytes: number;
  /** Trees with more files than this wait for the first grep before building. */
  eagerMaxFiles: number;
  /** Watch the tree for changes (Deno.watchFs); without it the index is never trusted. */
  watch: boolean;
  /** The session's --log-level (the worker logs to stderr itself). */
  logLevel?: LogLevel;
}

/** A search's question (lib/search/search.ts asks it). */
export type IndexQuery = CandidateQuery;

/** The stored index: the cache folder and the port of its writer (cache_writer.ts). */
export interface IndexCache {
  dir: string;
  port: MessagePort;
}

export type ToIndex =
  | {
    t: "open";
    settings: IndexSettings;
    cache: IndexCache | null;
    /** The port of the watch worker (watch_worker.ts), when settings.watch. */
    watch: MessagePort | null;
    /** Units of the session's work queue in use (shared memory): the build gives way to them. */
    busy: Int32Array;
  }
  /** The watch worker failed (its error reached the main thread): nothing is seen any more. */
  | { t: "unwatched"; why: string }
  /** A grep happened: build now if the build was deferred. */
  | { t: "build" }
  /**
   * `early`: answered before the folders in scope are checked, with `checking` set; a "checked"
   * message follows and says whether the answer stands (the search reads meanwhile).
   */
  | { t: "query"; id: number; query: IndexQuery; early?: boolean }
  /** Paths (absolute or root-relative) the server itself changed: re-read before the next query. */
  | { t: "touch"; paths: string[] }
  /** Tests: the watcher overflowed (as a "rescan" event does). */
  | { t: "overflow" }
  /** Tests: stop reading watcher events (as if they were lost). */
  | { t: "deafen" }
  | { t: "status"; id: number }
  /** Tests: write what is pending to the cache now and answer when it is on disk. */
  | { t: "persist"; id: number };

/**
 * "checking": a stored index was found and the stat pass runs (queries wait for it, briefly);
 * "building": the first build (queries get full scans); "ready": queries are answered.
 */
export type IndexPhase =
  | "idle"
  | "checking"
  | "waiting"
  | "building"
  | "ready"
  | "catching-up"
  | "off";

export interface IndexStatus {
  phase: IndexPhase;
  files: number;
  textBytes: number;
  bytes: number;
  /** Files left out by the memory cap (always scanned). */
  leftOut: number;
  /** Why the index is off or waiting, for logs. */
  note: string;
  /** Bytes of the stored shards on disk (0 without a cache). */
  diskBytes: number;
  /** During the stat pass ("checking"): files compared with the disk so far. */
  checked?: number;
  /** Times the stored index was written this session. */
  persisted: number;
}

export type FromIndex =
  | { t: "state"; status: IndexStatus }
  /** `candidates` null: use the full scan (`why` says why). */
  | { t: "answer"; id: number; candidates: Candidates | null; why: string; checking?: boolean }
  /**
   * After an early answer with `checking`: `fresh` when the changes heard of and the folders in
   * scope changed nothing it was computed from; false: ask again.
   */
  | { t: "checked"; id: number; fresh: boolean }
  | { t: "status"; id: number; status: IndexStatus }
  | { t: "persisted"; id: number; error: string };
