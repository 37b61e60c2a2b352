/**
 * Function bodies cut out of C/C++ source, for the definition search: a body (between the `{`
 * after a parameter list's `)` and its matching `}`) keeps only its line breaks, so every line
 * keeps its number (columns move only on the lines a body starts or ends) while the parser has far
 * less to read (bodies hold no definitions these tools report in C/C++). A lexer skips comments,
 * string and character literals and preprocessor lines; when braces do not balance (an #ifdef
 * splitting a function head, say) there are no bodies to cut, and the parse reads everything.
 *
 * The lexer jumps from token to token with one regular expression (comment openers, quotes,
 * braces, a `#` opening a line), so it reads a kernel source file at regex speed; what stands
 * between two tokens only matters for its last non-blank character (a `)` before a `{` opens a
 * body).
 */
import { endOfDirective, endOfLiteral, lastSignificant } from "./lexing.ts";

/** `//`, `/*`, a quote, a brace, or a `#` (a preprocessor line when it opens its line). */
const TOKENS = /\/[/*]|["'{}#]/g;

/** [start, end) of each function body's inside (after its `{`, up to its `}`), or null. */
export function functionBodies(text: string): Array<[number, number]> | null {
  const bodies: Array<[number, number]> = [];
  const tokens = new RegExp(TOKENS.source, TOKENS.flags);
  let depth = 0;
  let bodyStart = -1;
  let bodyDepth = 0;
  /** The last significant character before `from` (0: none yet). */
  let carried = 0;
  let from = 0;
  for (let m = tokens.exec(text); m !== null; m = tokens.exec(text)) {
    const at = m.index;
    const token = m[0];
    const last = lastSignificant(text, from, at);
    if (last !== 0) carried = last;
    let end: number;
    if (token === "//") {
      end = text.indexOf("\n", at);
      if (end < 0) end = text.length;
    } else if (token === "/*") {
      end = text.indexOf("*/", at + 2);
      if (end < 0) return null;
      end += 2;
    } else if (token === '"' || token === "'") {
      end = endOfLiteral(text, at);
      carried = token.charCodeAt(0);
    } else if (token === "{") {
      if (bodyStart < 0 && carried === 41) {
        bodyStart = at;
        bodyDepth = depth;
      }
      depth++;
      carried = 123;
      end = at + 1;
    } else if (token === "}") {
      depth--;
      if (depth < 0) return null;
      if (bodyStart >= 0 && depth === bodyDepth) {
        bodies.push([bodyStart + 1, at]);
        bodyStart = -1;
      }
      carried = 125;
      end = at + 1;
    } else if (opensLine(text, at)) end = endOfDirective(text, at);
    else {
      carried = 35;
      end = at + 1;
    }
    from = end;
    tokens.lastIndex = end;
  }
  return depth === 0 ? bodies : null;
}

/** The text with its function bodies emptied, or the text itself when in doubt. */
export function skipFunctionBodies(text: string): string {
  const bodies = functionBodies(text);
  return bodies === null || bodies.length === 0 ? text : withoutBodies(text, bodies);
}

/** The text with these bodies emptied (each keeps its line breaks). */
export function withoutBodies(text: string, bodies: ReadonlyArray<readonly [number, number]>) {
  let out = "";
  let at = 0;
  for (const [from, to] of bodies) {
    out += text.slice(at, from) + "\n".repeat(countLines(text, from, to));
    at = to;
  }
  return out + text.slice(at);
}

/** True when only blanks stand between the line's start and `at`. */
function opensLine(text: string, at: number): boolean {
  for (let i = at - 1; i >= 0; i--) {
    const c = text.charCodeAt(i);
    if (c === 10) return true;
    if (c !== 32 && c !== 9 && c !== 13 && c !== 12 && c !== 11) return false;
  }
  return true;
}

function countLines(text: string, from: number, to: number): number {
  let count = 0;
  for (let i = text.indexOf("\n", from); i >= 0 && i < to; i = text.indexOf("\n", i + 1)) count++;
  return count;
}
