/**
 * Whether a C/C++ file may define a name, from its text alone (find_symbol parses only files
 * that may; the search workers give the first verdict while they have the text, the parser
 * workers the second). Pure text functions: nothing here parses or reads a file.
 * C and C++ definitions are never inside function bodies, and a name is defined only
 * where the grammar puts a declarator, a tag with a body or a macro name. A whole-word hit of
 * the name outside every function body may be a definition unless what surrounds it says it is
 * a use:
 *
 * - followed by `*` (`task_struct *p`, `size_t *n`): a type in a declaration;
 * - after `struct`/`union`/`enum`/`class` and followed by a name, `*`, `;`, `)` or `,`
 *   (`struct task_struct *p`, `struct task_struct;`): a tag used or declared without a body
 *   (`class A final {` excepted);
 * - followed by a lower-case name (`spinlock_t lock;`, prose in a comment): a type before its
 *   declarator. A name after a definition's own name is an attribute-like macro, and those are
 *   `__`-prefixed or upper-case (`int x __read_mostly;`, `int y ATTRIBUTE_UNUSED;`), so these
 *   still count;
 * - after or before `.` or `->` (`a->name`, `name.x`): a member access or a designator.
 *
 * Anything else (`{`, `(`, `;`, `=`, `[`, `:`, `<`, a name after a plain identifier, a
 * `#define` before it) may be a definition, and the file is parsed. The test errs only towards
 * parsing: a file it rules out cannot hold a definition of the name.
 */
import { isBlank, lastSignificant, nextSignificant } from "./lexing.ts";

const TAG_KEYWORDS: ReadonlySet<string> = new Set(["struct", "union", "enum", "class"]);

/** Words after which a name is an operand: `return kmalloc(...)`, `sizeof(x)`. */
const OPERAND_KEYWORDS: ReadonlySet<string> = new Set([
  "return",
  "sizeof",
  "case",
  "goto",
  "typeof",
  "__typeof__",
  "alignof",
  "_Alignof",
  "offsetof",
]);

/** Control keywords whose `(` opens an expression: `if (kmalloc(...))`. */
const CONTROL_KEYWORDS: ReadonlySet<string> = new Set(["if", "while", "switch", "for", "return"]);

/**
 * True when some hit of `pattern` may be a definition judging by its neighbours alone, so the
 * function bodies must be found to tell (`mayDefine`); false when every hit is surely a use
 * wherever it stands (`p = kmalloc(n)`, `return kmalloc(n)`, `struct task_struct *t`). Cheap:
 * the text is not lexed.
 */
export function mayDefineAnywhere(text: string, pattern: RegExp): boolean {
  const flags = pattern.flags.includes("g") ? pattern.flags : `${pattern.flags}g`;
  const global = new RegExp(pattern.source, flags);
  for (let m = global.exec(text); m !== null; m = global.exec(text)) {
    if (m[0] === "") global.lastIndex++;
    let start = m.index;
    while (start > 0 && isWordChar(text.charCodeAt(start - 1))) start--;
    let end = m.index + m[0].length;
    while (end < text.length && isWordChar(text.charCodeAt(end))) end++;
    if (end > start && !isUse(text, start, end) && !isOperand(text, start)) return true;
  }
  return false;
}

/**
 * True when the identifier at `start` stands where an expression's operand does: after `=`,
 * `!`, `|`, `?`, `+`, `-`, `/`, `%` or `^`, after `return`/`sizeof`/`case`, or as
 * the start of an `if (`/`while (` condition. A declarator's name never does.
 */
function isOperand(text: string, start: number): boolean {
  const c = lastSignificant(text, 0, start);
  // Not `&` (`int &f()`), `~` (`Foo::~Foo()`), `[` (`auto [a, b]`) or `*`: C++ declarators.
  if (
    c === 61 || c === 33 || c === 124 || c === 63 || c === 43 || c === 45 || c === 47 ||
    c === 37 || c === 94
  ) {
    // `-` of `->` is a member access, handled by isUse; `/` could end a comment (`*/`).
    return !(c === 47 && text.charCodeAt(lastBefore(text, start) - 1) === 42);
  }
  const word = previousWord(text, start);
  if (word !== null && OPERAND_KEYWORDS.has(word)) return true;
  if (c === 40) {
    const paren = lastBefore(text, start);
    const keyword = previousWord(text, paren);
    return keyword !== null && CONTROL_KEYWORDS.has(keyword);
  }
  return false;
}

/** The index of the last non-blank character before `at` (-1 at the start). */
function lastBefore(text: string, at: number): number {
  let i = at - 1;
  while (i >= 0 && isBlank(text.charCodeAt(i))) i--;
  return i;
}

/**
 * True when some hit of `pattern` (per line, no anchors) outside `bodies` ([start, end) spans,
 * sorted) may be a definition of the identifier it falls in.
 */
export function mayDefine(
  text: string,
  bodies: ReadonlyArray<readonly [number, number]>,
  pattern: RegExp,
): boolean {
  const flags = pattern.flags.includes("g") ? pattern.flags : `${pattern.flags}g`;
  const global = new RegExp(pattern.source, flags);
  let b = 0;
  for (let m = global.exec(text); m !== null; m = global.exec(text)) {
    const at = m.index;
    if (m[0] === "") global.lastIndex++;
    while (b < bodies.length && bodies[b][1] <= at) b++;
    if (b < bodies.length && at >= bodies[b][0]) {
      global.lastIndex = Math.max(global.lastIndex, bodies[b][1]);
      continue;
    }
    let start = at;
    while (start > 0 && isWordChar(text.charCodeAt(start - 1))) start--;
    let end = at + m[0].length;
    while (end < text.length && isWordChar(text.charCodeAt(end))) end++;
    if (end === start) continue;
    if (!isUse(text, start, end)) return true;
  }
  return false;
}

/**
 * The start of each identifier hit by `pattern` (per line, no anchors) that may be a definition
 * judging by its neighbours, in text order, each identifier once, none inside `bodies` (sorted
 * [start, end) spans of function bodies; or a text whose bodies are already cut out):
 * definition_regions.ts parses only the items around these. At most `limit` of them. A hit
 * outside every body has the same neighbours with or without the bodies (a body lies between
 * braces, and each test stops at the first significant character).
 */
export function possibleDefinitions(
  text: string,
  pattern: RegExp,
  options: { limit?: number; bodies?: ReadonlyArray<readonly [number, number]> } = {},
): number[] {
  const limit = options.limit ?? Infinity;
  const bodies = options.bodies ?? [];
  const flags = pattern.flags.includes("g") ? pattern.flags : `${pattern.flags}g`;
  const global = new RegExp(pattern.source, flags);
  const out: number[] = [];
  let b = 0;
  for (let m = global.exec(text); m !== null; m = global.exec(text)) {
    if (m[0] === "") global.lastIndex++;
    while (b < bodies.length && bodies[b][1] <= m.index) b++;
    if (b < bodies.length && m.index >= bodies[b][0]) {
      global.lastIndex = Math.max(global.lastIndex, bodies[b][1]);
      continue;
    }
    let start = m.index;
    while (start > 0 && isWordChar(text.charCodeAt(start - 1))) start--;
    let end = m.index + m[0].length;
    while (end < text.length && isWordChar(text.charCodeAt(end))) end++;
    if (end === start || out[out.length - 1] === start) continue;
    global.lastIndex = Math.max(global.lastIndex, end);
    if (!isUse(text, start, end) && !isOperand(text, start) && out.push(start) >= limit) break;
  }
  return out;
}

/**
 * True when the identifier at [start, end) surely is no definition by its neighbours: a use
 * (`isUse`) or an operand (`isOperand`). definable_names.ts applies it to every identifier.
 */
export function surelyNotDefinedAt(text: string, start: number, end: number): boolean {
  return isUse(text, start, end) || isOperand(text, start);
}

/** True when the identifier at [start, end) is surely not being defined there. */
function isUse(text: string, start: number, end: number): boolean {
  const word = previousWord(text, start);
  if (word === "define") return false; // `#define name ...`
  const next = nextSignificant(text, end, true);
  const after = next < 0 ? 0 : text.charCodeAt(next);
  // `a.name`, `a->name`: a member access (a field is defined in its type's body, without these).
  if (lastSignificant(text, 0, start) === 46 || arrowBefore(text, start)) return true;
  if (after === 42) return true; // `name *p`: a type
  if (after === 46 || (after === 45 && text.charCodeAt(next + 1) === 62)) return true; // `name.x`
  const following = isWordStart(after) ? wordAt(text, next) : null;
  if (word !== null && TAG_KEYWORDS.has(word)) {
    // `struct name {` defines it; `struct name *p`, `struct name;`, `struct name)` do not.
    if (following !== null) return following !== "final";
    return after === 59 || after === 41 || after === 44;
  }
  if (following !== null) return !mayFollowDefinedName(following);
  return false;
}

/** Words that can stand right after a defined name: attribute-like macros, C++ `final`. */
function mayFollowDefinedName(word: string): boolean {
  return word.startsWith("__") || word === "final" || word === "asm" ||
    (/^[A-Z][A-Z0-9_]*$/.test(word) && word.length > 1);
}

/** The word starting at `at`. */
function wordAt(text: string, at: number): string {
  let end = at;
  while (end < text.length && isWordChar(text.charCodeAt(end))) end++;
  return text.slice(at, end);
}

function arrowBefore(text: string, at: number): boolean {
  let i = at - 1;
  while (i >= 0 && isBlank(text.charCodeAt(i))) i--;
  return i >= 1 && text.charCodeAt(i) === 62 && text.charCodeAt(i - 1) === 45;
}

/** The word right before `at` (white space between), or null. */
function previousWord(text: string, at: number): string | null {
  let i = at - 1;
  while (i >= 0 && isBlank(text.charCodeAt(i))) i--;
  const end = i + 1;
  while (i >= 0 && isWordChar(text.charCodeAt(i))) i--;
  return end > i + 1 ? text.slice(i + 1, end) : null;
}

function isWordStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c > 127;
}

function isWordChar(c: number): boolean {
  return isWordStart(c) || (c >= 48 && c <= 57) || c === 36;
}
