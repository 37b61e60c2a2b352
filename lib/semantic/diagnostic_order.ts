/** The order of the semantic answers: by path, line and column (diagnostics then by code). */

interface Placed {
  path: string;
  line: number;
  column: number;
}

export function byPlace(a: Placed, b: Placed): number {
  if (a.path !== b.path) return a.path < b.path ? -1 : 1;
  return a.line - b.line || a.column - b.column;
}

/**
 * Codes compare as the engines print them, numbers inside them by value (`TS2304` before
 * `TS18046`, as the numeric codes sorted), then by the text (`reportX` names).
 */
export function byDiagnostic(a: Placed & { code: string }, b: Placed & { code: string }): number {
  return byPlace(a, b) || CODES.compare(a.code, b.code);
}

const CODES = new Intl.Collator("en", { numeric: true, sensitivity: "variant" });
