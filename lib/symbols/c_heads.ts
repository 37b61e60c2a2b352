/**
 * Attribute-like macros in C/C++ function heads, blanked before parsing: `static __always_inline
 * __alloc_size(1) void *kmalloc(size_t size, gfp_t flags)` and `void f(void) __acquires(lock)`
 * are macro calls the grammar cannot know, and they turn the whole head into an ERROR node. A
 * call of a `__`-prefixed macro outside any brace, preprocessor line, comment or literal is
 * blanked (spaces; line breaks kept, so every position stays) when it stands where a declarator
 * cannot: right after a `)` (a trailing attribute), or at the start of a declaration or after a
 * storage class or another attribute, and before a name or `*` (a leading one; not when its
 * parentheses hold parameter declarations, `(void)` or `(struct x *p)`). A declarator's
 * name follows a type or a `*`, so `void *__kmalloc(size_t size)` is never touched. A bare
 * `__word` between a `*` and a name (`void * __weak f(void)`) is blanked too.
 * The spans are returned so that a name's occurrences inside them still count (find_references).
 */
import { endOfDirective, endOfLiteral } from "../c_source/lexing.ts";

const NL = 10;

/** The text with those macro calls blanked, and the blanked [start, end) spans. */
export function blankAttributeMacros(
  text: string,
): { text: string; spans: Array<[number, number]> } {
  const spans: Array<[number, number]> = [];
  const n = text.length;
  let depth = 0;
  let lineStart = true;
  /** The last significant character before the current token (0 at the start; 97 a word). */
  let previous = 0;
  let previousWord = "";
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
      i = endOfDirective(text, i);
      previous = 59; // what follows a directive starts a declaration
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
      if (end < 0) break;
      i = end + 2;
      continue;
    }
    if (c === 34 || c === 39) {
      i = endOfLiteral(text, i);
      previous = c;
      continue;
    }
    if (c === 123) depth++;
    else if (c === 125) depth = Math.max(0, depth - 1);
    if (isWordStart(c)) {
      let j = i + 1;
      while (j < n && isWordChar(text.charCodeAt(j))) j++;
      if (depth === 0 && c === 95 && text.charCodeAt(i + 1) === 95 && previous === 42) {
        // `kprobe_opcode_t * __weak kprobe_lookup_name(`: a bare attribute between the `*` and
        // the name (the name is the next word).
        const next = nextSignificant(text, j);
        if (isWordStart(next) && !isKeyword(text.slice(i, j))) {
          spans.push([i, j]);
          i = j;
          continue;
        }
      }
      if (depth === 0 && c === 95 && text.charCodeAt(i + 1) === 95) {
        const call = macroCall(text, j);
        if (call !== null && !isKeyword(text.slice(i, j))) {
          const next = nextSignificant(text, call);
          const leads = previous === 0 || previous === 59 || previous === 125 ||
            (previous === 97 && (previousWord.startsWith("__") || STORAGE.has(previousWord)));
          const lead = leads && (isWordStart(next) || next === 42) &&
            !declaresParameters(text.slice(j, call).trim());
          if (previous === 41 || lead) {
            spans.push([i, call]);
            i = call;
            continue;
          }
        }
      }
      previous = 97;
      previousWord = text.slice(i, j);
      i = j;
      continue;
    }
    previous = c;
    i++;
  }
  if (spans.length === 0) return { text, spans };
  let out = "";
  let at = 0;
  for (const [from, to] of spans) {
    out += text.slice(at, from) + text.slice(from, to).replace(/[^\n]/g, " ");
    at = to;
  }
  return { text: out + text.slice(at), spans };
}

/** Words after which a declaration's leading attributes stand. */
const STORAGE: ReadonlySet<string> = new Set(["static", "extern", "inline"]);

/** `(struct bpf_prog *prog)`, `(void)`: a parameter list, not an attribute's arguments. */
function declaresParameters(args: string): boolean {
  return /^\(\s*void\s*\)$/.test(args) || /[A-Za-z_]\w*(?:\s+|\s*\*+\s*)[A-Za-z_]/.test(args);
}

/** Names the grammar itself reads: never blanked. */
function isKeyword(word: string): boolean {
  return word === "__attribute__" || word === "__attribute" || word === "__declspec" ||
    word === "__asm__" || word === "__asm" || word === "__typeof__" || word === "__typeof" ||
    word === "__alignof__" || word === "__extension__" || word === "__builtin_offsetof";
}

/** The end of `(...)` (balanced, on at most a few lines) right after `at`, or null. */
function macroCall(text: string, at: number): number | null {
  let i = at;
  while (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9) i++;
  if (text.charCodeAt(i) !== 40) return null;
  let depth = 0;
  const limit = Math.min(text.length, i + 512);
  for (; i < limit; i++) {
    const c = text.charCodeAt(i);
    if (c === 40) depth++;
    else if (c === 41 && --depth === 0) return i + 1;
    else if (c === 123 || c === 125 || c === 59 || c === 35) return null;
    else if (c === 34 || c === 39) i = endOfLiteral(text, i) - 1;
  }
  return null;
}

/** The first character after `at` that is not white space or a comment, or -1. */
function nextSignificant(text: string, at: number): number {
  let i = at;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 13 || c === NL || c === 12 || c === 11) i++;
    else if (c === 47 && text.charCodeAt(i + 1) === 42) {
      const end = text.indexOf("*/", i + 2);
      if (end < 0) return -1;
      i = end + 2;
    } else return c;
  }
  return -1;
}

function isWordStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

function isWordChar(c: number): boolean {
  return isWordStart(c) || (c >= 48 && c <= 57);
}
