/** What the symbol tools return for a file (docs/tools.md "Symbols"). Structured-cloneable. */

export const SYMBOL_KINDS = [
  "function",
  "method",
  "class",
  "struct",
  "union",
  "enum",
  "interface",
  "type",
  "namespace",
  "module",
  "constant",
  "variable",
  "macro",
  "field",
] as const;

export type SymbolKind = typeof SYMBOL_KINDS[number];

/** One definition: lines are 1-based; `line`/`column` are where its name is. */
export interface CodeSymbol {
  kind: SymbolKind;
  name: string;
  start_line: number;
  end_line: number;
  /** Line of the name (where ctags and an editor's "go to definition" land). */
  line: number;
  /** 1-based column of the name, in UTF-16 code units. */
  column: number;
  /** The enclosing class/namespace/struct/impl/receiver type, when there is one. */
  container?: string;
  /**
   * Every enclosing name, outermost first, when the container alone does not say them all (a
   * method of `Widget` in `namespace ui`: `["ui", "Widget"]`).
   */
  scope?: readonly string[];
  children?: CodeSymbol[];
}

/** Where `name` occurs as an identifier in code: 1-based line and column. */
export interface Occurrence {
  line: number;
  column: number;
  definition: boolean;
}

/** A file's parse: its symbols and whether the syntax tree had errors. */
export interface FileSymbols {
  symbols: CodeSymbol[];
  partial: boolean;
  /** The line of the first syntax error, when `partial`. */
  errorLine?: number;
  /** Set when the file was parsed in another language than its name says (a C++ `.h`). */
  language?: "cpp";
}
