/**
 * Where a name occurs as an identifier in code: every textual occurrence of the name that is a
 * whole word is checked against the syntax tree (the smallest node spanning it must be an
 * identifier with exactly that range), so comments, strings and longer identifiers never count.
 */
import type { Node } from "web-tree-sitter";
import type { CodeSymbol } from "./types.ts";

/** True for characters that can continue an identifier: ASCII word, `$`, or non-ASCII. */
export function isIdentChar(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) ||
    code === 95 || code === 36 || code > 127;
}

/** Start offsets (UTF-16) of `name` in `text` as a whole word (no identifier character around). */
export function wordOffsets(text: string, name: string): number[] {
  const out: number[] = [];
  if (name === "") return out;
  for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) {
    const end = at + name.length;
    if (at > 0 && isIdentChar(text.charCodeAt(at - 1)) && isIdentChar(name.charCodeAt(0))) {
      continue;
    }
    if (
      end < text.length && isIdentChar(text.charCodeAt(end)) &&
      isIdentChar(name.charCodeAt(name.length - 1))
    ) {
      continue;
    }
    out.push(at);
  }
  return out;
}

/**
 * True when `offset` in a C macro body is code: not inside a string or character literal or a
 * comment of that body.
 */
export function isCodeInMacro(body: string, offset: number): boolean {
  let i = 0;
  while (i < offset) {
    const c = body[i];
    if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < body.length && body[j] !== c) j += body[j] === "\\" ? 2 : 1;
      if (offset <= j) return false;
      i = j + 1;
    } else if (c === "/" && body[i + 1] === "*") {
      const j = body.indexOf("*/", i + 2);
      if (j < 0 || offset < j + 2) return false;
      i = j + 2;
    } else if (c === "/" && body[i + 1] === "/") {
      const j = body.indexOf("\n", i + 2);
      if (j < 0 || offset < j) return false;
      i = j + 1;
    } else i++;
  }
  return true;
}

export interface Found {
  /** 0-based row and UTF-16 column of each occurrence. */
  row: number;
  column: number;
}

/**
 * Occurrences of `name` as an identifier (or in a macro body's code). `blanked`: sorted [start,
 * end) spans of `text` the parser saw as spaces (attribute-like macro calls, c_heads.ts), whose
 * words are code.
 */
export function findOccurrences(
  root: Node,
  text: string,
  name: string,
  kinds: {
    identifiers: ReadonlySet<string>;
    opaque: ReadonlySet<string>;
    /** Node types that are names unless their text is one of `keywords`. */
    nameLike?: ReadonlySet<string>;
    keywords?: ReadonlySet<string>;
  },
  blanked: ReadonlyArray<readonly [number, number]> = [],
): Found[] {
  const out: Found[] = [];
  let span = 0;
  for (const at of wordOffsets(text, name)) {
    const end = at + name.length;
    while (span < blanked.length && blanked[span][1] <= at) span++;
    if (span < blanked.length && blanked[span][0] <= at) {
      out.push(positionOf(text, at));
      continue;
    }
    const node = root.descendantForIndex(at, end);
    if (node === null) continue;
    if (node.startIndex === at && node.endIndex === end && isName(node, name, kinds)) {
      out.push({ row: node.startPosition.row, column: node.startPosition.column });
    } else if (kinds.opaque.has(node.type) && isCodeInMacro(node.text, at - node.startIndex)) {
      const pos = positionOf(text, at);
      out.push(pos);
    }
  }
  return out;
}

function isName(
  node: Node,
  text: string,
  kinds: {
    identifiers: ReadonlySet<string>;
    nameLike?: ReadonlySet<string>;
    keywords?: ReadonlySet<string>;
  },
): boolean {
  if (kinds.identifiers.has(node.type)) return true;
  // `NULL` is the anonymous token inside a `null` node of the same range.
  const named = node.isNamed ? node : node.parent;
  if (named === null || named.startIndex !== node.startIndex || named.endIndex !== node.endIndex) {
    return false;
  }
  return kinds.nameLike?.has(named.type) === true && kinds.keywords?.has(text) !== true;
}

/** 0-based row and column of a UTF-16 offset. */
function positionOf(text: string, offset: number): Found {
  let row = 0;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i >= 0 && i < offset; i = text.indexOf("\n", i + 1)) {
    row++;
    lineStart = i + 1;
  }
  return { row, column: offset - lineStart };
}

/** "line:column" of every definition named `name` in the symbol tree. */
export function definitionSites(symbols: readonly CodeSymbol[], name: string): Set<string> {
  const out = new Set<string>();
  const visit = (list: readonly CodeSymbol[]) => {
    for (const s of list) {
      if (s.name === name) out.add(`${s.line}:${s.column}`);
      if (s.children !== undefined) visit(s.children);
    }
  };
  visit(symbols);
  return out;
}
