/** Messages between the symbol service (main thread) and its parser worker. Structured-cloneable. */
import type { WorkspaceOptions } from "../workspace/workspace.ts";
import type { CodeSymbol } from "./types.ts";

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
  /** Definitions only: C/C++ function bodies may be cut out before parsing (skip_bodies.ts). */
  skipBodies?: boolean;
}

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
    /** Function bodies were cut out: `partial` covers only what was parsed. */
    bodiesSkipped: boolean;
    references?: Reference[];
    /** Text of the reference lines and their context lines, by 1-based line number. */
    lines?: Record<number, string>;
  }
  | { path: string; ok: false; reason: "binary" | "too-large" | "unreadable"; size?: number };

export type FromParser =
  | { t: "ready" }
  /** `bytes`: source bytes parsed; `largest`: the largest file among them. */
  | { t: "parsed"; id: number; files: ParsedFile[]; bytes: number; largest: number }
  | { t: "failed"; id: number; message: string };
