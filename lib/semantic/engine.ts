/**
 * The seam every type engine sits on (docs/architecture.md "Engines"): the language-neutral
 * questions the tools ask and the answers an engine gives, and the engine's own shape. Paths are
 * root-relative, lines 1-based, columns 1-based in UTF-16 code units (as LSP and read_file count
 * them). An engine folder (lib/semantic/<engine>/) implements `Engine`;
 * lib/semantic/router/engines.ts holds the one table the router reads. Nothing here names a
 * language.
 */
import type { Workspace } from "../workspace/workspace.ts";

/** A position as the tools take it: `line` with `column` or `name` (+ `occurrence`). */
export interface FilePosition {
  path: string;
  line: number;
  column?: number;
  name?: string;
  occurrence?: number;
}

/**
 * Texts that stand in for files on disk for one question (root-relative path -> whole text):
 * safe rename asks its checks on the renamed texts before anything is written. Optional for an
 * engine: one that does not read it must not be asked with it (Engine.overlays).
 */
export type Overlay = Record<string, string>;

export type Query =
  | { kind: "definition"; at: FilePosition }
  | { kind: "references"; at: FilePosition; overlay?: Overlay }
  | { kind: "rename"; at: FilePosition; newName: string }
  | {
    kind: "diagnostics";
    /** A root-relative file or folder ("" for the whole root). */
    path: string;
    /** Instead of `path`: these files and the files that import one of them directly. */
    files?: string[];
    overlay?: Overlay;
    /** Stop between files after this long: a partial answer that says so (no limit if absent). */
    timeoutMs?: number;
  };

/**
 * The deeper navigation questions. Optional for an engine: it lists those it answers in
 * `Engine.navigation`, and any other is refused in one sentence before it reaches the engine.
 * `calls` walks the call hierarchy `depth` levels (1-3) from the function at the position.
 */
export type NavigationQuery =
  | { kind: "implementations"; at: FilePosition }
  | { kind: "type_definitions"; at: FilePosition }
  | { kind: "calls"; at: FilePosition; direction: "incoming" | "outgoing"; depth: number }
  | { kind: "type"; at: FilePosition };

export type NavigationKind = NavigationQuery["kind"];

const NAVIGATION_KINDS: ReadonlySet<string> = new Set<NavigationKind>([
  "implementations",
  "type_definitions",
  "calls",
  "type",
]);

/** True for a deeper navigation question (one an engine may not answer). */
export function isNavigation(query: Query | NavigationQuery): query is NavigationQuery {
  return NAVIGATION_KINDS.has(query.kind);
}

/** The question's words in a refusal ("implementations", "the call hierarchy"). */
export const NAVIGATION_WORDS: Readonly<Record<NavigationKind, string>> = {
  implementations: "implementations",
  type_definitions: "type definitions",
  calls: "the call hierarchy",
  type: "the type at a position",
};

/** One definition; `path` null for a file outside the root, named by `external`. */
export interface Definition {
  path: string | null;
  /** A library file by its path inside the engine's bundled library (`lib.es5.d.ts`). */
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
  /** The entry declares the symbol (import and export specifiers do not). */
  definition: boolean;
}

/**
 * One replacement in a file (LSP's TextEdit, TypeScript's TextChange): the text from
 * `line`:`column` up to, not including, `end_line`:`end_column` becomes `new_text`. `old_text` is
 * what the engine read there: the edit layer refuses a span whose text has changed since.
 */
export interface SpanEdit {
  path: string;
  line: number;
  column: number;
  end_line: number;
  end_column: number;
  old_text: string;
  new_text: string;
}

/**
 * The declaration a rename leaves as it is: asked at a use of an imported name, the engines
 * rename only the local name (as TypeScript's and pyright's renames do).
 */
export interface Untouched {
  name: string;
  path: string;
  line: number;
  column: number;
}

export interface Diagnostic {
  path: string;
  line: number;
  column: number;
  /** The engine's own code as it prints it: `TS2322`, `reportAttributeAccessIssue`, `syntax`. */
  code: string;
  /** TypeScript's categories (`message` among them) and LSP's severities (`information`). */
  category: "error" | "warning" | "information" | "suggestion" | "message";
  message: string;
  /** The engine that reported it (an engine id). */
  source: string;
}

/**
 * The type at a position (quick info, hover): `type` is the engine's whole display text
 * (`function scale(value: number): number`), `documentation` the first paragraph of its
 * documentation ("" when none), `kind` the engine's word for the symbol.
 */
export interface TypeInfo {
  kind: string;
  type: string;
  documentation: string;
}

/**
 * A function, method, class or file in a call hierarchy: placed and named as a definition is
 * (library items too).
 */
export type CallItem = Definition;

/**
 * One call of a call hierarchy, in depth-first order under the item asked about: its parent is
 * the nearest entry before it with `depth - 1` (depth 1: the item asked about). Incoming: the
 * entry calls its parent at `sites` (in the entry's own file); outgoing: the parent calls the
 * entry at `sites` (in the parent's file).
 */
export interface CallEntry extends CallItem {
  depth: number;
  sites: Array<{ line: number; column: number }>;
  /** Already expanded above it (recursion): its own calls are not listed again. */
  cycle?: boolean;
}

/**
 * Answers that list declarations for a position. `type`: the type at that position, when the
 * engine gives it with the answer (one question instead of two); absent, ask `type`.
 */
interface DeclarationsAnswer {
  engine: string;
  definitions: Definition[];
  type?: TypeInfo | null;
  /** The projects searched (implementations: every one that holds the file), when several. */
  projects?: string[];
}

export type Answer =
  | { kind: "definition" } & DeclarationsAnswer
  | {
    kind: "references";
    engine: string;
    references: Reference[];
    /** The projects searched (config paths, root-relative; "" the default), when several. */
    projects?: string[];
    /** Configuration problems of the projects searched, one sentence each. */
    notes?: string[];
  }
  | {
    kind: "rename";
    engine: string;
    edits: SpanEdit[];
    untouched?: Untouched;
    /** The projects searched, when several. */
    projects?: string[];
    /** Configuration problems of the projects searched, one sentence each. */
    notes?: string[];
  }
  | {
    kind: "diagnostics";
    engine: string;
    diagnostics: Diagnostic[];
    /** Files checked. */
    files: number;
    /** Files of this engine in the scope (more than `files` when stopped). */
    total: number;
    /** Files in the scope the engine leaves out on purpose (e.g. minified), not checked. */
    leftOut: number;
    /** With leftOut: the sentence that names them and why ("2 minified files left out..."). */
    leftOutNote?: string;
    /** Why the check stopped before every file was checked (a sentence), when it did. */
    stopped?: string;
    /** Configuration problems (path: the config file), placed before the file entries. */
    config?: Diagnostic[];
    /** The projects checked (config paths, root-relative; "" the default project). */
    projects?: string[];
    /** The answer was kept from an earlier identical question (no file changed since). */
    kept?: boolean;
  }
  | { kind: "implementations" } & DeclarationsAnswer
  | { kind: "type_definitions" } & DeclarationsAnswer
  | {
    kind: "calls";
    engine: string;
    direction: "incoming" | "outgoing";
    /** The item(s) at the position (empty: no function or class there). */
    roots: CallItem[];
    calls: CallEntry[];
    /** Why the walk stopped before `depth` everywhere (a sentence), when it did. */
    partial?: string;
    /** The projects searched (every one that holds the file asked about), when several. */
    projects?: string[];
  }
  | { kind: "type"; engine: string; info: TypeInfo | null };

export interface AskOptions {
  signal: AbortSignal;
  progress?: (done: number, message: string) => void;
}

/** A question the engine would not answer: the text says why (the tool's isError). */
export class SemanticRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SemanticRefusal";
  }
}

/** A type engine: answers the questions for the files it `handles`. */
export interface Engine {
  /** Named on every answer and diagnostic (`typescript`, `pyright`). */
  readonly id: string;
  /** For sentences: "TypeScript/JavaScript", "Python". */
  readonly name: string;
  /** The navigation questions it answers (none when absent): others are refused. */
  readonly navigation?: ReadonlySet<NavigationKind>;
  /** True when it reads a question's `overlay` (safe rename's checks need it). */
  readonly overlays?: boolean;
  /** True for a root-relative path whose questions this engine answers. */
  handles(path: string): boolean;
  /** Rejects with SemanticRefusal for something the model must fix or know. */
  ask(ws: Workspace, query: Query | NavigationQuery, options: AskOptions): Promise<Answer>;
  /** The server wrote these root-relative files (`created`: new names). */
  touch(paths: string[], created: boolean): void;
  /** Ends the engine's worker; pending questions fail. Idempotent. */
  stop(): void;
}
