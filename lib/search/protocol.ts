/**
 * Messages between the search pool (main thread) and its workers, and the shared control block.
 * Everything here is structured-cloneable.
 */
import type { WorkspaceOptions } from "../workspace/workspace.ts";
import type { PatternSpec } from "./pattern.ts";
import type { ContentOptions } from "./content_lines.ts";

export type GrepMode = "files_with_matches" | "content" | "count";

/** Int32 slots of the control block. */
export const CTL_JOB = 0; // the job workers may work on; others are dropped
export const CTL_CUTOFF = 1; // batches above this one report counts only (no lines)
export const CTL_SCANNED = 2; // files scanned, for progress
/** Per worker slot: Int32 [job, batch, file index, phase] at CTL_SLOT + 4 * slot. */
export const CTL_SLOT = 4;
export const CTL_INTS = 16;
/** What a slot's stamp times (docs/limits.md): each phase has its own deadline. */
export const PHASE_READ = 0; // opening and reading a file (a FIFO swapped in, a stalled disk)
export const PHASE_REGEX = 1; // one regex scan of one chunk: the regex timeout
export const PHASE_WALK = 2; // listing folders: stamped on every step, so only a stall counts
/** Float64 stamp (Date.now() when the current file's scan began, 0 when idle) per slot. */
export const CTL_STAMP_OFFSET = CTL_INTS * 4;
export const MAX_WORKERS = 3;
export const CTL_BYTES = CTL_STAMP_OFFSET + 8 * MAX_WORKERS;

export interface InitMessage {
  t: "init";
  control: SharedArrayBuffer;
  slot: number;
}

/** Walk `base` and post the files that pass the filters in batches (grep) or with mtimes (glob). */
export interface WalkMessage {
  t: "walk";
  job: number;
  ws: WorkspaceOptions;
  base: string;
  kind: "grep" | "glob";
  /** ripgrep -g globs, relative to base. */
  globs: string[];
  /** Basename globs of the chosen file types (any must match), or empty for no type filter. */
  typeGlobs: string[];
  batchSize: number;
  /**
   * The first batches are smaller (16 files, doubling up to batchSize), so that the other
   * workers start at once. Not in content mode: there the held page ends at a batch's end
   * (grep_job.ts), and the answer must not depend on how the files were batched.
   */
  rampUp: boolean;
}

export interface SearchMessage {
  t: "search";
  job: number;
  batch: number;
  files: string[];
  /** The real path of each file where it differs from root + "/" + rel (symlinks), else "". */
  reals: string[];
  /**
   * From a walk, per file: the walk's record of the folder that listed it as a plain file
   * ([inode, mtimeMs], walk.ts FolderRecord), or null. While the folder still has that record,
   * the file is opened without an lstat of its own (workspace.ts openListedSync).
   */
  folders?: (number[] | null)[];
  /**
   * From the trigram index, per file: null, or [size, mtimeMs, offset, length, ...]: only these
   * line-aligned pieces can match while the file still has that size and mtime.
   */
  pieces?: (number[] | null)[];
  ws: WorkspaceOptions;
  spec: PatternSpec;
  mode: GrepMode;
  content: ContentOptions;
  /**
   * For files with one of these extensions (lower-case, with the dot): tell when every hit of the
   * pattern is surely a use of the identifier in C/C++ terms, not a definition
   * (lib/c_source/definition_sites.ts `mayDefineAnywhere`); the result then has `uses: true`.
   * Files scanned in chunks or streamed get no verdict. find_symbol asks it so that its parser
   * workers read only the files that may define the name.
   */
  uses?: { extensions: string[] };
  /**
   * Content lines a streamed file holds at most (the page needs no more: one file with more
   * lines than the page ends collecting, grep_job.ts); its count stays exact. 0: no limit.
   */
  maxLines?: number;
}

export interface ListMessage {
  t: "list";
  job: number;
  ws: WorkspaceOptions;
  base: string;
  depth: number;
}

/** Drop every cached workspace and folder listing: the server has just written a file. */
export interface ForgetMessage {
  t: "forget";
}

/** What a search asks the trigram index (lib/index/): a pattern in a scope. */
export interface CandidateQuery {
  source: string;
  flags: string;
  multiline: boolean;
  base: string;
  globs: string[];
  typeGlobs: string[];
  /**
   * find_symbol's exact name (an ASCII identifier): the C/C++ files whose names the index keeps
   * are chosen only when they may define it (any case), so the files that cannot are not read.
   */
  defines?: string;
}

/** Files chosen by the trigram index (lib/index/) for a grep to search instead of a walk. */
export interface Candidates {
  /** Root-relative paths, in walk order. */
  files: string[];
  reals: string[];
  /** Per file: null (read it whole) or [size, mtimeMs, offset, length, offset, length, ...]. */
  pieces: (number[] | null)[];
  /**
   * Asked with `defines`: the files the index's names say cannot define the name were left out,
   * so `files` is no longer every file that may match.
   */
  byNames?: true;
}

export type ToWorker = InitMessage | WalkMessage | SearchMessage | ListMessage | ForgetMessage;

/** A file with matches: its matching lines counted, and its output lines when collected. */
export interface FileResult {
  path: string;
  /** Matching lines (rg -c). */
  count: number;
  /** Content mode within the cutoff: the file's output lines (grep_job.ts). */
  lines?: string[];
  /** Asked by `uses`: every hit is surely a use, so the file defines nothing of that name. */
  uses?: true;
}

/** One entry of a list_dir walk. */
export interface ListEntry {
  rel: string;
  isDir: boolean;
  size: number;
  /** A folder cut by depth: how many entries it holds; -1 otherwise. */
  children: number;
}

/** One file a glob matched, with its modification time (glob sorts newest first). */
export interface GlobbedFile {
  rel: string;
  mtimeMs: number;
}

/**
 * A file a search left out because it would hold more than MAX_HOLD_BYTES of it at once
 * (stream_scan.ts): a multiline pattern over a larger file, or a longer line.
 */
export interface SkippedFile {
  path: string;
  reason: "multiline" | "line";
  size: number;
}

/**
 * `heap` on the messages that end a unit of work (a walk, a batch, a listing): the worker's
 * JavaScript heap then (V8's committed heap with its external memory, in bytes), which the pool
 * compares with its share once the job has settled (pool.ts).
 */
export type FromWorker =
  | {
    t: "files";
    job: number;
    batch: number;
    files: string[];
    reals: string[];
    folders: (number[] | null)[];
  }
  | { t: "globbed"; job: number; entries: GlobbedFile[] }
  | { t: "walked"; job: number; batches: number; walked: number; heap: number }
  | {
    t: "searched";
    job: number;
    batch: number;
    results: FileResult[];
    scanned: number;
    skipped?: SkippedFile[];
    heap: number;
  }
  | { t: "listed"; job: number; entries: ListEntry[]; heap: number }
  /** `code`: the errno of a file-system failure (fs_errors.ts), when it was one. */
  | { t: "failed"; job: number; message: string; code?: string }
  | { t: "ready" };
