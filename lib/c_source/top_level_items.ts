/**
 * The top-level items of C/C++ source: each declaration or definition at file level, and each
 * preprocessor line between them, as a [start, end) span. find_symbol parses only the items
 * around a name's possible definitions (definition_regions.ts), so an item must be whole: it
 * starts at its first token after the previous item's end and ends at a `;` outside every brace
 * and parenthesis, or at the `}` closing a function body at file level (unless punctuation
 * follows it, as in `auto f = []() {};`). A `}` closing anything else (a struct, an initializer,
 * a namespace) does not end an item: what follows belongs to it up to the next end, so an
 * uncertain item only grows. A preprocessor line is an item of its own when it stands between
 * items; one inside an item (an `#ifdef` splitting a function head) belongs to that item.
 *
 * Comments and string literals are skipped; braces or parentheses that do not balance (a head
 * split across `#if` branches) give no items (only the comments, literals and preprocessor
 * lines), an unterminated comment nothing at all.
 * A pure text function, like skip_bodies.ts's lexer (one regular expression from token to token).
 */
import { endOfDirective, isBlank, lastSignificant, nextSignificant } from "./lexing.ts";

export type ItemKind = "code" | "define" | "directive";

export interface TopLevelItem {
  start: number;
  end: number;
  /** `define`: a `#define` line (a macro definition); `directive`: any other preprocessor line. */
  kind: ItemKind;
}

/**
 * The items (null when braces or parentheses do not balance), and where nothing is defined
 * whatever the items: the comments and literals, and every preprocessor line (at any depth;
 * `define` lines name the macro they define), as [start, end) spans in source order.
 */
export interface TopLevelSplit {
  items: TopLevelItem[] | null;
  quiet: Array<[number, number]>;
  directives: TopLevelItem[];
}

/** `//`, `/*`, a quote, a brace, a parenthesis, `;`, or a `#`. */
const TOKENS = /\/[/*]|["'{}();#]/g;

const CLOSE_PAREN = 41;

/** The items in source order, or null when a comment is not closed. */
export function topLevelItems(text: string): TopLevelSplit | null {
  const items: TopLevelItem[] = [];
  const quiet: Array<[number, number]> = [];
  const directives: TopLevelItem[] = [];
  /** Braces or parentheses closed that were never opened: the items cannot be told. */
  let unbalanced = false;
  const tokens = new RegExp(TOKENS.source, TOKENS.flags);
  let depth = 0;
  let parens = 0;
  /** Depth-0 braces opened after a `)`: function bodies, whose `}` may end the item. */
  const bodyAt: boolean[] = [];
  let itemStart = -1;
  /** The last significant character before the current token (0: none yet). */
  let last = 0;
  let from = 0;
  const open = (at: number) => {
    if (itemStart < 0) itemStart = at;
  };
  const close = (end: number) => {
    items.push({ start: itemStart, end, kind: "code" });
    itemStart = -1;
  };
  for (let m = tokens.exec(text); m !== null; m = tokens.exec(text)) {
    const at = m.index;
    const token = m[0];
    if (from < at) {
      const first = firstSignificant(text, from, at);
      if (first >= 0) {
        open(first);
        last = lastSignificant(text, from, at);
      }
    }
    let end = at + 1;
    if (token === "//") {
      end = text.indexOf("\n", at);
      if (end < 0) end = text.length;
      quiet.push([at, end]);
    } else if (token === "/*") {
      end = text.indexOf("*/", at + 2);
      if (end < 0) return null;
      end += 2;
      quiet.push([at, end]);
    } else if ((token === '"' || token === "'") && closedLiteral(text, at) > 0) {
      open(at);
      end = closedLiteral(text, at);
      quiet.push([at, end]);
      last = token.charCodeAt(0);
    } else if (token === '"' || token === "'") {
      // A quote that closes nothing on its line (`1'000`, assembler text): one character.
      open(at);
      last = token.charCodeAt(0);
    } else if (token === "#") {
      if (opensLine(text, at)) {
        end = endOfDirective(text, at);
        // With its line break: the grammar ends a preprocessor line there.
        const line: TopLevelItem = {
          start: at,
          end: Math.min(text.length, end + 1),
          kind: isDefine(text, at) ? "define" : "directive",
        };
        directives.push(line);
        if (itemStart < 0 && depth === 0 && parens === 0) items.push(line);
      } else {
        open(at);
        last = 35;
      }
    } else {
      open(at);
      if (token === "{") {
        if (depth === 0) bodyAt.push(last === CLOSE_PAREN && parens === 0);
        depth++;
      } else if (token === "}") {
        depth--;
        if (depth < 0) {
          unbalanced = true;
          depth = 0;
        }
        if (depth === 0 && bodyAt.pop() === true && parens === 0 && endsAfterBody(text, end)) {
          close(end);
        }
      } else if (token === "(") parens++;
      else if (token === ")") {
        parens--;
        if (parens < 0) {
          unbalanced = true;
          parens = 0;
        }
      } else if (depth === 0 && parens === 0) close(end); // `;`
      last = token.charCodeAt(0);
    }
    from = end;
    tokens.lastIndex = end;
  }
  if (unbalanced || depth !== 0 || parens !== 0) return { items: null, quiet, directives };
  if (from < text.length && firstSignificant(text, from, text.length) >= 0) open(from);
  if (itemStart >= 0) items.push({ start: itemStart, end: text.length, kind: "code" });
  return { items, quiet, directives };
}

/**
 * After a function body's `}`: the item ends unless punctuation continues it (`;` `,` `)` and
 * the like, as after a lambda's body); a name, a `#`, a brace or the end of the text follow a
 * finished definition.
 */
function endsAfterBody(text: string, at: number): boolean {
  const next = nextSignificant(text, at);
  if (next < 0) return true;
  const c = text.charCodeAt(next);
  return isWordStart(c) || c === 35 || c === 123 || c === 125 || c === 34;
}

/** `#define` (spaces allowed after the `#`). */
function isDefine(text: string, at: number): boolean {
  let i = at + 1;
  while (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9) i++;
  return text.startsWith("define", i) && !isWordChar(text.charCodeAt(i + 6));
}

/** True when only blanks stand between the line's start and `at`. */
function opensLine(text: string, at: number): boolean {
  for (let i = at - 1; i >= 0; i--) {
    const c = text.charCodeAt(i);
    if (c === 10) return true;
    if (!isBlank(c)) return false;
  }
  return true;
}

/** The first character in [from, to) that is not white space (a line continuation too), or -1. */
function firstSignificant(text: string, from: number, to: number): number {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (isBlank(c)) continue;
    if (c === 92 && (text.charCodeAt(i + 1) === 10 || text.charCodeAt(i + 1) === 13)) continue;
    return i;
  }
  return -1;
}

/** After a string or character literal that closes on its line, or -1. */
function closedLiteral(text: string, at: number): number {
  const quote = text.charCodeAt(at);
  let j = at + 1;
  while (j < text.length) {
    const d = text.charCodeAt(j);
    if (d === 92) j += 2;
    else if (d === quote) return j + 1;
    else if (d === 10) return -1;
    else j++;
  }
  return -1;
}

function isWordStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c > 127;
}

function isWordChar(c: number): boolean {
  return isWordStart(c) || (c >= 48 && c <= 57);
}
