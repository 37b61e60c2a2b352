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

export function byDiagnostic(a: Placed & { code: number }, b: Placed & { code: number }): number {
  return byPlace(a, b) || a.code - b.code;
}
