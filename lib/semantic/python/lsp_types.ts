/**
 * The shapes of the Language Server Protocol messages the pyright engine reads (positions are
 * 0-based lines and UTF-16 characters, as LSP counts them). Only the fields the engine uses.
 */

export interface LspPosition {
  line: number;
  character: number;
}

export interface LspRange {
  start: LspPosition;
  end: LspPosition;
}

export interface LspLocation {
  uri: string;
  range: LspRange;
}

export interface LspLocationLink {
  targetUri: string;
  targetSelectionRange: LspRange;
}

export interface DocumentSymbol {
  name: string;
  kind: number;
  selectionRange: LspRange;
  children?: DocumentSymbol[];
}
