/**
 * Function bodies cut out of C/C++ source, for the definition search: a body (between the `{`
 * after a parameter list's `)` and its matching `}`) keeps only its line breaks, so every line
 * keeps its number (columns move only on the lines a body starts or ends) while the parser has far
 * less to read (bodies hold no definitions these tools report in C/C++). A lexer skips comments, string and character
 * literals and preprocessor lines; when braces do not balance (an #ifdef splitting a function
 * head, say) the text is returned unchanged, and the parse reads everything.
 */

const OPEN = 123; // {
const CLOSE = 125; // }
const NL = 10;

/** The text with its function bodies emptied, or the text itself when in doubt. */
export function skipFunctionBodies(text: string): string {
  const n = text.length;
  const bodies: Array<[number, number]> = [];
  let depth = 0;
  let lastSignificant = 0;
  let lineStart = true;
  let bodyStart = -1;
  let bodyDepth = 0;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === NL) {
      lineStart = true;
      i++;
      continue;
    }
    if (c === 32 || c === 9 || c === 13 || c === 12 || c === 11) {
      i++;
      continue;
    }
    if (lineStart && c === 35) {
      // `#...` to the end of the logical line (backslash continuations included).
      while (i < n) {
        const d = text.charCodeAt(i);
        if (
          d === NL && text.charCodeAt(i - 1) !== 92 &&
          !(text.charCodeAt(i - 1) === 13 && text.charCodeAt(i - 2) === 92)
        ) break;
        i++;
      }
      continue;
    }
    lineStart = false;
    if (c === 47 && text.charCodeAt(i + 1) === 47) {
      const end = text.indexOf("\n", i);
      i = end < 0 ? n : end;
      continue;
    }
    if (c === 47 && text.charCodeAt(i + 1) === 42) {
      const end = text.indexOf("*/", i + 2);
      if (end < 0) return text;
      i = end + 2;
      continue;
    }
    if (c === 34 || c === 39) {
      let j = i + 1;
      while (j < n) {
        const d = text.charCodeAt(j);
        if (d === 92) j += 2;
        else if (d === c || d === NL) break;
        else j++;
      }
      i = j + 1;
      lastSignificant = c;
      continue;
    }
    if (c === OPEN) {
      if (bodyStart < 0 && lastSignificant === 41) {
        bodyStart = i;
        bodyDepth = depth;
      }
      depth++;
    } else if (c === CLOSE) {
      depth--;
      if (depth < 0) return text;
      if (bodyStart >= 0 && depth === bodyDepth) {
        bodies.push([bodyStart + 1, i]);
        bodyStart = -1;
      }
    }
    lastSignificant = c;
    i++;
  }
  if (depth !== 0 || bodies.length === 0) return text;
  let out = "";
  let at = 0;
  for (const [from, to] of bodies) {
    out += text.slice(at, from) + "\n".repeat(countLines(text, from, to));
    at = to;
  }
  return out + text.slice(at);
}

function countLines(text: string, from: number, to: number): number {
  let count = 0;
  for (let i = text.indexOf("\n", from); i >= 0 && i < to; i = text.indexOf("\n", i + 1)) count++;
  return count;
}
