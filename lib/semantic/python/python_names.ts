/** Python identifiers as the language defines them (a rename's `new_name`). */

const KEYWORDS = new Set([
  "False",
  "None",
  "True",
  "and",
  "as",
  "assert",
  "async",
  "await",
  "break",
  "class",
  "continue",
  "def",
  "del",
  "elif",
  "else",
  "except",
  "finally",
  "for",
  "from",
  "global",
  "if",
  "import",
  "in",
  "is",
  "lambda",
  "nonlocal",
  "not",
  "or",
  "pass",
  "raise",
  "return",
  "try",
  "while",
  "with",
  "yield",
]);

/** A start character then continuation characters (PEP 3131's classes, approximately). */
const IDENTIFIER = /^[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*$/u;

/** True for a name Python accepts as an identifier that is not a keyword. */
export function isPythonIdentifier(name: string): boolean {
  return IDENTIFIER.test(name) && !KEYWORDS.has(name);
}
