/** Messages between the symbol service (main thread) and its parser worker. Structured-cloneable. */
import type { WorkspaceOptions } from "../workspace/workspace.ts";
import type { CodeSymbol } from "./types.ts";
import type { SyntaxRegion } from "./syntax_errors.ts";

export interface ParseRequest {
  t: "parse";
  id: number;
  ws: WorkspaceOptions;
  /** Root-relative paths of files in a supported language. */
  files: string[];
  /** Files larger than this are not read (`too-large`). */
  maxBytes: number;
  /** When set: also report where this name occurs as an identifier, with `context` lines. */
  references?: { name: string; context: number };
  /** Definitions only: C/C++ function bodies may be cut out before parsing (lib/c_source/skip_bodies.ts). */
  skipBodies?: boolean;
  /** The cap of the worker's WebAssembly heap, fixed by the first request (bytes). */
  heapCapBytes: number;
  /**
   * Start tree-sitter's runtime before the files (none, for a warm-up): a symbol call starts its
   * workers while its candidate scan runs, so that the first parse does not wait for them.
   */
  warm?: boolean;
  /**
   * With skipBodies: the name looked for (the candidate scan's regex). A C/C++ file none of
   * whose hits may be a definition (lib/c_source/definition_sites.ts) is not parsed (`pruned`).
   */
  definitionOf?: { source: string; flags: string };
  /**
   * With skipBodies: a file with more than FILTER_FROM_SYMBOLS symbols (a generated header of
   * 70,000 register macros), or of FILTER_FROM_BYTES or more, posts only those whose name this
   * regex matches, flattened (`filtered`), so that neither side holds the whole list.
   */
  keep?: { source: string; flags: string };
  /** With keep: every file posts only the matching symbols (a call over thousands of files). */
  keepAll?: boolean;
  /**
   * With definitionOf: a C/C++ file's parse covers only the top-level items around the name's
   * possible definitions (lib/c_source/definition_regions.ts; the whole text when that parse
   * has a syntax error), and posts their symbols (`regions`). For an exact name: a prefix that
   * matches most identifiers would keep most items anyway.
   */
  regions?: boolean;
  /** Also report the file's syntax error regions (`syntax`; lib/symbols/syntax_errors.ts). */
  syntax?: boolean;
}

/** Symbols in one file above which a find_symbol parse posts only the matching ones. */
export const FILTER_FROM_SYMBOLS = 4096;
/**
 * A file of this many bytes or more posts only the matching symbols to a find_symbol parse
 * whatever their number, and holds no others while they are extracted (extract.ts `keep`).
 */
export const FILTER_FROM_BYTES = 1024 * 1024;

export type ToParser = ParseRequest;

/** [1-based line, 1-based column, is a definition]. */
export type Reference = [number, number, boolean];

export type ParsedFile =
  | {
    path: string;
    ok: true;
    size: number;
    mtimeMs: number;
    symbols: CodeSymbol[];
    partial: boolean;
    /** The line of the first syntax error, when `partial`. */
    errorLine?: number;
    /** With ParseRequest `syntax`: the error regions (at most MAX_REGIONS) and their number. */
    syntax?: { regions: SyntaxRegion[]; total: number };
    /** Function bodies were cut out: `partial` covers only what was parsed. */
    bodiesSkipped: boolean;
    /** A `.h` file whose text is C++ was parsed as C++ (headerLanguage). */
    language?: "cpp";
    /**
     * Not parsed: every hit of the name is inside a function body or surely a use, so the file
     * defines nothing of that name (`symbols` is empty; not the file's symbols, never cached).
     */
    pruned?: boolean;
    /**
     * Only the symbols whose name matched `keep`, flattened (each keeps its `container`, none its
     * children): not the file's symbols, never cached.
     */
    filtered?: boolean;
    /**
     * Only the symbols of the items around the name's possible definitions (ParseRequest
     * `regions`): not the file's symbols, never cached as such.
     */
    regions?: true;
    references?: Reference[];
    /** Text of the reference lines and their context lines, by 1-based line number. */
    lines?: Record<number, string>;
  }
  | { path: string; ok: false; reason: UnparsedReason; size?: number };

/**
 * Why a file has no symbols: a NUL byte, over --max-read-bytes, unreadable, or its syntax tree
 * needed more than the parser worker's heap cap (`heap`).
 */
export type UnparsedReason = "binary" | "too-large" | "unreadable" | "heap";

export type FromParser =
  | { t: "ready" }
  /**
   * `bytes`: source bytes parsed; `largest`: the largest file among them; `heapBytes`: the size
   * of the worker's WebAssembly heap after the batch (it never shrinks); `broken`: a parse ran out
   * of heap, so the worker must not be used again; `v8HeapBytes`: the worker's JavaScript heap
   * (V8's heapTotal plus external memory), which the pool also recycles by.
   */
  | {
    t: "parsed";
    id: number;
    files: ParsedFile[];
    bytes: number;
    largest: number;
    heapBytes: number;
    v8HeapBytes: number;
    broken: boolean;
  }
  | { t: "failed"; id: number; message: string };
