/**
 * Positions in a file's text as the semantic tools take and give them: 1-based lines counted as
 * read_file counts them (a line ends at LF; a CR before it belongs to the ending), 1-based
 * columns in UTF-16 code units (as LSP), or a name on a line with its occurrence. Pure functions
 * of any language's text: the engines' workers and the tools share them.
 */

/** Offsets where each line starts (line 1 starts at 0). */
export function lineStarts(text: string): number[] {
  const starts = [0];
  let at = text.indexOf("\n");
  while (at >= 0) {
    starts.push(at + 1);
    at = text.indexOf("\n", at + 1);
  }
  return starts;
}

/** The text of 1-based `line` without its line ending. */
export function lineText(text: string, starts: readonly number[], line: number): string {
  const from = starts[line - 1];
  if (from === undefined) return "";
  let to = line < starts.length ? starts[line] - 1 : text.length;
  if (to > from && text.charCodeAt(to - 1) === 13) to--;
  return text.slice(from, to);
}

/** 1-based line and column of `offset`. */
export function lineColumn(
  starts: readonly number[],
  offset: number,
): { line: number; column: number } {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - starts[lo] + 1 };
}

const WORD = /[\p{ID_Start}$_#][\p{ID_Continue}$\u200c\u200d]*/gu;

/** The identifier-like words of a line with their 0-based columns. */
export function wordsOf(line: string): Array<{ word: string; at: number }> {
  const out: Array<{ word: string; at: number }> = [];
  for (const m of line.matchAll(WORD)) {
    let word = m[0];
    let at = m.index!;
    // A `#` belongs to a private name only at its start; `a#b` is not one word.
    if (word.startsWith("#") && at > 0 && /[\p{ID_Continue}$]/u.test(line[at - 1])) {
      word = word.slice(1);
      at++;
    }
    out.push({ word, at });
  }
  return out;
}

/** A position as the tools take it. */
export interface PositionInput {
  line: number;
  column?: number;
  name?: string;
  occurrence?: number;
}

/** Where a position points, or the sentence that says why it points nowhere. */
export type Located = { ok: true; offset: number; line: number; column: number } | {
  ok: false;
  message: string;
};

function quoteLine(text: string): string {
  const shown = text.length > 200 ? `${text.slice(0, 200)}…` : text;
  return JSON.stringify(shown);
}

/**
 * The offset `position` names in `text` (`path` words the messages). A name counts the words of
 * that line spelled exactly so; a name not there names the nearest line that has it.
 */
export function locate(
  text: string,
  starts: readonly number[],
  path: string,
  position: PositionInput,
): Located {
  const { line } = position;
  const lines = text.endsWith("\n") ? starts.length - 1 : starts.length;
  if (line < 1 || line > Math.max(lines, 1)) {
    return {
      ok: false,
      message: `Line ${line} is past the end of "${path}", which has ${lines} lines`,
    };
  }
  const here = lineText(text, starts, line);
  if (position.name === undefined) {
    const column = position.column ?? 1;
    if (column < 1 || column > here.length + 1) {
      return {
        ok: false,
        message: `Column ${column} is past the end of line ${line} of "${path}" (${here.length} ` +
          `characters: ${quoteLine(here)}); give the name instead of the column`,
      };
    }
    return { ok: true, offset: starts[line - 1] + column - 1, line, column };
  }
  const name = position.name;
  const occurrence = position.occurrence ?? 1;
  const hits = wordsOf(here).filter((w) => w.word === name);
  if (occurrence <= hits.length) {
    const at = hits[occurrence - 1].at;
    return { ok: true, offset: starts[line - 1] + at, line, column: at + 1 };
  }
  if (hits.length > 0) {
    return {
      ok: false,
      message: `Line ${line} of "${path}" has ${hits.length} occurrence${
        hits.length === 1 ? "" : "s"
      } of "${name}", not ${occurrence}: ${quoteLine(here)}`,
    };
  }
  const nearest = nearestLine(text, starts, lines, line, name);
  return {
    ok: false,
    message: `"${name}" is not on line ${line} of "${path}" (${quoteLine(here)}); ` +
      (nearest === null
        ? `the file does not contain it as a word`
        : `nearest occurrence: line ${nearest.line}, column ${nearest.column}: ${
          quoteLine(nearest.text)
        }`),
  };
}

function nearestLine(
  text: string,
  starts: readonly number[],
  lines: number,
  line: number,
  name: string,
): { line: number; column: number; text: string } | null {
  for (let distance = 1; distance < lines; distance++) {
    for (const n of [line - distance, line + distance]) {
      if (n < 1 || n > lines) continue;
      const t = lineText(text, starts, n);
      if (!t.includes(name)) continue;
      const hit = wordsOf(t).find((w) => w.word === name);
      if (hit !== undefined) return { line: n, column: hit.at + 1, text: t };
    }
  }
  return null;
}

/** The identifier a position names, or the sentence that says why there is none. */
export type Identified = { ok: true; word: string; line: number; column: number } | {
  ok: false;
  message: string;
};

/**
 * The identifier at `position` in `text` (the one function every tool uses to read a position
 * as a name): the name itself when given (checked to be a word on that line, as `locate` does),
 * or the word that covers the column.
 */
export function identifierAt(text: string, path: string, position: PositionInput): Identified {
  const starts = lineStarts(text);
  const located = locate(text, starts, path, position);
  if (!located.ok) return located;
  if (position.name !== undefined) {
    return { ok: true, word: position.name, line: located.line, column: located.column };
  }
  const here = lineText(text, starts, located.line);
  for (const { word, at } of wordsOf(here)) {
    if (located.column - 1 >= at && located.column - 1 < at + word.length) {
      return { ok: true, word, line: located.line, column: at + 1 };
    }
  }
  return {
    ok: false,
    message: `No identifier at line ${located.line} column ${located.column} of "${path}" ` +
      `(${quoteLine(here)}); give the name instead`,
  };
}
