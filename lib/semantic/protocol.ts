/** Messages between the semantic service (main thread) and its worker. Structured-cloneable. */
import type { WorkspaceOptions } from "../workspace/workspace.ts";
import type { PositionInput } from "./positions.ts";

/** A position in a served TS/JS file (root-relative path). */
export interface FilePosition extends PositionInput {
  path: string;
}

export type Query =
  | { kind: "definition"; at: FilePosition }
  | { kind: "references"; at: FilePosition }
  | { kind: "rename"; at: FilePosition; newName: string }
  | { kind: "diagnostics"; path: string };

/** One definition; `path` null for a file outside the root (TypeScript's own lib files). */
export interface Definition {
  path: string | null;
  external?: string;
  line: number;
  column: number;
  end_line: number;
  kind: string;
  name: string;
  text: string;
}

export interface Reference {
  path: string;
  line: number;
  column: number;
  text: string;
  definition: boolean;
}

export interface RenameEdit {
  line: number;
  column: number;
  old_text: string;
  new_text: string;
}

/** One file a rename changes: the text the program read, and the text after the edits. */
export interface RenameFile {
  path: string;
  edits: RenameEdit[];
  before: string;
  after: string;
}

export interface Diagnostic {
  path: string;
  line: number;
  column: number;
  code: number;
  category: string;
  message: string;
}

export type Answer =
  | { kind: "definition"; definitions: Definition[] }
  | { kind: "references"; references: Reference[] }
  | { kind: "rename"; files: RenameFile[] }
  | {
    kind: "diagnostics";
    diagnostics: Diagnostic[];
    /** Files checked. */
    files: number;
    /** TS/JS files in the scope (more than `files` when stopped). */
    total: number;
    /** Minified files in the scope that no tsconfig claims: not checked. */
    leftOut: number;
    /** Why the check stopped before every file was checked (a sentence), when it did. */
    stopped?: string;
  };

export interface WorkerSettings {
  ws: WorkspaceOptions;
  /** Files over this many bytes are left out of programs. */
  maxBytes: number;
  /** Diagnostics stop between files once they have run this long (a partial answer). */
  budgetMs: number;
}

export type ToSemantic =
  | { t: "open"; settings: WorkerSettings; cancel: SharedArrayBuffer }
  | { t: "ask"; id: number; query: Query }
  /** The server wrote these root-relative files (`created`: new names). */
  | { t: "touch"; paths: string[]; created: boolean };

export type FromSemantic =
  | { t: "ready" }
  | { t: "progress"; id: number; done: number; message: string }
  /** TypeScript is loaded and the question's work begins (its time bound starts). */
  | { t: "begun"; id: number }
  /** The files a diagnostics request will check, and the minified ones it leaves out. */
  | { t: "scope"; id: number; total: number; leftOut: number }
  /** One file of a diagnostics request checked, with its diagnostics. */
  | { t: "checked"; id: number; path: string; diagnostics: Diagnostic[] }
  | { t: "answer"; id: number; answer: Answer }
  /** Something the model must fix or know (ToolError text). */
  | { t: "refused"; id: number; message: string }
  | { t: "cancelled"; id: number }
  | { t: "failed"; id: number; message: string }
  | { t: "log"; level: "warn" | "info" | "debug"; message: string };
