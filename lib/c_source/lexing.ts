/**
 * The small steps the C/C++ lexers of this folder share (skip_bodies.ts, top_level_items.ts,
 * definition_sites.ts, and lib/symbols/c_heads.ts): white space, comments, literals and
 * preprocessor lines, by character code.
 */

/** Space, tab, line feed, carriage return, form feed or vertical tab. */
export function isBlank(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 12 || c === 11;
}

/** The last character in [from, to) that is not white space, or 0. */
export function lastSignificant(text: string, from: number, to: number): number {
  for (let i = to - 1; i >= from; i--) {
    const c = text.charCodeAt(i);
    if (!isBlank(c)) return c;
  }
  return 0;
}

/**
 * The first character at or after `at` that is not blank or in a comment, or -1; with
 * `continuations`, a backslash before a line feed (a macro's line continuation) is skipped too.
 */
export function nextSignificant(text: string, at: number, continuations = false): number {
  let i = at;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (isBlank(c)) i++;
    else if (c === 47 && text.charCodeAt(i + 1) === 42) {
      const close = text.indexOf("*/", i + 2);
      if (close < 0) return -1;
      i = close + 2;
    } else if (c === 47 && text.charCodeAt(i + 1) === 47) {
      const nl = text.indexOf("\n", i);
      if (nl < 0) return -1;
      i = nl + 1;
    } else if (continuations && c === 92 && text.charCodeAt(i + 1) === 10) i += 2;
    else return i;
  }
  return -1;
}

/** After a string or character literal (it ends at its quote or at the line's end). */
export function endOfLiteral(text: string, at: number): number {
  const quote = text.charCodeAt(at);
  let j = at + 1;
  while (j < text.length) {
    const d = text.charCodeAt(j);
    if (d === 92) j += 2;
    else if (d === quote || d === 10) break;
    else j++;
  }
  return j + 1;
}

/** The end of a preprocessor line, backslash continuations included (at its line break). */
export function endOfDirective(text: string, at: number): number {
  let i = at;
  for (;;) {
    const nl = text.indexOf("\n", i);
    if (nl < 0) return text.length;
    const before = text.charCodeAt(nl - 1);
    const continued = before === 92 || (before === 13 && text.charCodeAt(nl - 2) === 92);
    if (!continued) return nl;
    i = nl + 1;
  }
}
