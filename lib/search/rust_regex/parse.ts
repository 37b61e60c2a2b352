/**
 * Parser for ripgrep's regex dialect, the Rust `regex` crate's documented syntax
 * (docs/tools.md "Regex dialect"): pattern -> resolved syntax tree (ast.ts), or a
 * RegexSyntaxError whose message names the construct, as the crate would reject it or as this
 * project does not support it. Nothing the crate accepts is read with another meaning.
 *
 *     import { parseRustRegex } from "./parse.ts";
 *     const ast = parseRustRegex("no_(?i)proxy", { caseInsensitive: false, dotAll: false });
 *
 * Options mirror ripgrep's: `(?m)` is on from the start (ripgrep's default, `^`/`$` at line
 * ends), `caseInsensitive` is `-i` (`(?i)` from the start), `dotAll` is `--multiline-dotall`.
 * Nesting of groups and classes is bounded by the crate's own nest limit (250), so the recursion
 * never runs deep; the pattern length is bounded too.
 */

import { type LookKind, type RegexNode, RegexSyntaxError } from "./ast.ts";
import {
  caseFold,
  caseVariants,
  type CharSet,
  complement,
  intersect,
  MAX_CODE_POINT,
  normalize,
  single,
  subtract,
  symmetricDifference,
  union,
} from "./char_set.ts";
import { propertySet, resolveProperty } from "./unicode.ts";

export interface ParseOptions {
  /** rg -i: `(?i)` from the start. */
  caseInsensitive: boolean;
  /** rg --multiline-dotall: `(?s)` from the start. */
  dotAll: boolean;
}

/** The crate's default nest limit. */
export const NEST_LIMIT = 250;
/** Longest pattern accepted, in UTF-16 code units. */
export const MAX_PATTERN_CHARS = 16_384;
/** Largest count in `{n,m}`. */
export const MAX_REPEAT = 1000;

interface Flags {
  i: boolean;
  m: boolean;
  s: boolean;
  U: boolean;
  u: boolean;
  x: boolean;
  R: boolean;
}

const FLAG_CHARS = "imsUuxR";

const POSIX = new Map<string, CharSet>([
  ["alnum", normalize([[0x30, 0x39], [0x41, 0x5a], [0x61, 0x7a]])],
  ["alpha", normalize([[0x41, 0x5a], [0x61, 0x7a]])],
  ["ascii", normalize([[0, 0x7f]])],
  ["blank", normalize([[9, 9], [0x20, 0x20]])],
  ["cntrl", normalize([[0, 0x1f], [0x7f, 0x7f]])],
  ["digit", normalize([[0x30, 0x39]])],
  ["graph", normalize([[0x21, 0x7e]])],
  ["lower", normalize([[0x61, 0x7a]])],
  ["print", normalize([[0x20, 0x7e]])],
  ["punct", normalize([[0x21, 0x2f], [0x3a, 0x40], [0x5b, 0x60], [0x7b, 0x7e]])],
  ["space", normalize([[9, 0xd], [0x20, 0x20]])],
  ["upper", normalize([[0x41, 0x5a]])],
  ["word", normalize([[0x30, 0x39], [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a]])],
  ["xdigit", normalize([[0x30, 0x39], [0x41, 0x46], [0x61, 0x66]])],
]);

/** `\d \s \w`: ASCII, as `rg --no-unicode` and docs/tools.md's dialect read them. */
const PERL = new Map<string, CharSet>([
  ["d", POSIX.get("digit")!],
  ["s", POSIX.get("space")!],
  ["w", POSIX.get("word")!],
]);

const SIMPLE_ESCAPES = new Map<string, number>([
  ["a", 7],
  ["f", 0xc],
  ["t", 9],
  ["n", 0xa],
  ["r", 0xd],
  ["v", 0xb],
]);

const ESCAPE_HINTS = new Map<string, string>([
  ["Z", "; use \\z (or $) for the end"],
  ["G", ""],
  ["K", ""],
  ["Q", "; escape each metacharacter, or set fixed_strings"],
  ["E", "; escape each metacharacter, or set fixed_strings"],
  ["e", "; use \\x1B"],
  ["c", "; use \\xHH for a control character"],
  ["h", "; use [[:xdigit:]] or [ \\t]"],
  ["k", "; backreferences are not supported"],
  ["g", "; backreferences are not supported"],
  ["R", "; use \\r?\\n"],
  ["X", ""],
  ["N", "; use [^\\n]"],
]);

const GROUP_NAME = /^[\p{Alphabetic}_][\p{Alphabetic}\p{Nd}\p{Nl}\p{No}_.\[\]]*$/u;

const WHITESPACE = /\s/u;

type ClassItem = { cp: number; set?: undefined } | { set: CharSet; cp?: undefined };

/** Parses `pattern`; throws RegexSyntaxError. */
export function parseRustRegex(pattern: string, options: ParseOptions): RegexNode {
  if (pattern.length > MAX_PATTERN_CHARS) {
    throw new RegexSyntaxError(
      `the pattern is ${pattern.length} characters long, more than the ${MAX_PATTERN_CHARS} allowed`,
      0,
    );
  }
  return new Parser(pattern, options).parse();
}

class Parser {
  readonly #src: string;
  #pos = 0;
  #flags: Flags;
  #captures = 0;
  readonly #names = new Set<string>();
  /** How many repetitions are stacked on a node (a** is two). */
  readonly #repeatDepth = new Map<RegexNode, number>();

  constructor(src: string, options: ParseOptions) {
    this.#src = src;
    this.#flags = {
      i: options.caseInsensitive,
      m: true,
      s: options.dotAll,
      U: false,
      u: true,
      x: false,
      R: false,
    };
  }

  parse(): RegexNode {
    const node = this.#parseAlternation(0);
    if (this.#pos < this.#src.length) {
      // Only an unopened ")" stops the top level early.
      throw this.#error('unopened group: this ")" closes no "("; escape it as \\)', this.#pos);
    }
    return node;
  }

  #error(message: string, at: number): RegexSyntaxError {
    return new RegexSyntaxError(message, at);
  }

  #peek(offset = 0): string | undefined {
    return this.#src[this.#pos + offset];
  }

  #eof(): boolean {
    return this.#pos >= this.#src.length;
  }

  /** In (?x) mode: skips whitespace and # comments. */
  #skipSpace(): void {
    if (!this.#flags.x) return;
    while (!this.#eof()) {
      const c = this.#src[this.#pos];
      if (c === "#") {
        const nl = this.#src.indexOf("\n", this.#pos);
        this.#pos = nl < 0 ? this.#src.length : nl + 1;
      } else if (WHITESPACE.test(c)) this.#pos++;
      else break;
    }
  }

  /** The next character that is not skipped space, without moving. */
  #peekSpace(offset: number): string | undefined {
    const save = this.#pos;
    this.#pos += offset;
    this.#skipSpace();
    const c = this.#peek();
    this.#pos = save;
    return c;
  }

  #parseAlternation(depth: number): RegexNode {
    const branches: RegexNode[] = [];
    let items: RegexNode[] = [];
    /** The last thing parsed was a flag group such as (?i): nothing to repeat. */
    let afterFlags = false;
    for (;;) {
      this.#skipSpace();
      if (this.#eof()) break;
      const c = this.#src[this.#pos];
      if (c === ")") break;
      if (c === "|") {
        this.#pos++;
        branches.push(concat(items));
        items = [];
        afterFlags = false;
        continue;
      }
      if (c === "*" || c === "+" || c === "?" || c === "{") {
        const at = this.#pos;
        const last = items.pop();
        if (last === undefined || afterFlags) {
          throw this.#error(
            `repetition operator "${c}" has nothing to repeat; escape it as \\${c}`,
            at,
          );
        }
        const repeated = this.#parseRepetition(last);
        const chain = (this.#repeatDepth.get(last) ?? 0) + 1;
        if (chain > NEST_LIMIT) {
          throw this.#error(
            `the pattern nests repetitions deeper than ${NEST_LIMIT} levels (the regex crate's limit); simplify it`,
            at,
          );
        }
        this.#repeatDepth.set(repeated, chain);
        items.push(repeated);
        continue;
      }
      const atom = this.#parseAtom(depth);
      afterFlags = atom === null;
      if (atom !== null) items.push(atom);
    }
    branches.push(concat(items));
    return branches.length === 1 ? branches[0] : { kind: "alternate", subs: branches };
  }

  #parseRepetition(sub: RegexNode): RegexNode {
    const c = this.#src[this.#pos];
    let min: number;
    let max: number | null;
    if (c === "{") {
      const open = this.#pos;
      this.#pos++;
      this.#skipBraceSpace();
      min = this.#parseDecimal(open);
      this.#skipBraceSpace();
      max = min;
      if (this.#peek() === ",") {
        this.#pos++;
        this.#skipBraceSpace();
        max = /[0-9]/.test(this.#peek() ?? "") ? this.#parseDecimal(open) : null;
        this.#skipBraceSpace();
      }
      if (this.#peek() !== "}") {
        throw this.#error(
          this.#eof()
            ? `unclosed counted repetition "${this.#src.slice(open)}"`
            : `invalid counted repetition at "${
              this.#src.slice(open, this.#pos + 1)
            }": expected {n}, {n,} or {n,m} (escape a literal brace as \\{)`,
          open,
        );
      }
      this.#pos++;
      if (max !== null && min > max) {
        throw this.#error(
          `invalid repetition count range "${
            this.#src.slice(open, this.#pos)
          }": the start must be <= the end`,
          open,
        );
      }
    } else {
      this.#pos++;
      min = c === "+" ? 1 : 0;
      max = c === "?" ? 1 : null;
    }
    let greedy = true;
    if (this.#peek() === "?") {
      this.#pos++;
      greedy = false;
    }
    if (this.#flags.U) greedy = !greedy;
    return { kind: "repeat", min, max, greedy, sub };
  }

  /** Spaces inside {n,m} are allowed by the crate. */
  #skipBraceSpace(): void {
    while (this.#peek() === " " || (this.#flags.x && WHITESPACE.test(this.#peek() ?? ""))) {
      this.#pos++;
    }
  }

  #parseDecimal(open: number): number {
    const m = /^[0-9]+/.exec(this.#src.slice(this.#pos, this.#pos + 12));
    if (m === null) {
      throw this.#error(
        this.#eof()
          ? `unclosed counted repetition "${this.#src.slice(open)}"`
          : `repetition quantifier expects a decimal number at "${
            this.#src.slice(open, this.#pos + 1)
          }" (escape a literal brace as \\{)`,
        open,
      );
    }
    this.#pos += m[0].length;
    const n = Number(m[0]);
    if (n > MAX_REPEAT) {
      throw this.#error(
        `counted repetition ${n} is above ${MAX_REPEAT}, the largest supported here`,
        open,
      );
    }
    return n;
  }

  /** One atom, or null for a flag group such as (?i) that only sets flags. */
  #parseAtom(depth: number): RegexNode | null {
    const c = this.#src[this.#pos];
    switch (c) {
      case "(":
        return this.#parseGroup(depth);
      case "[": {
        const set = this.#parseClass(depth);
        return { kind: "class", set };
      }
      case "\\":
        return this.#parseEscape();
      case ".":
        this.#pos++;
        return { kind: "class", set: this.#dotSet() };
      case "^":
        this.#pos++;
        return this.#look(this.#flags.m ? "start_line" : "start_text");
      case "$":
        this.#pos++;
        return this.#look(this.#flags.m ? "end_line" : "end_text");
    }
    const cp = this.#src.codePointAt(this.#pos)!;
    this.#pos += cp > 0xffff ? 2 : 1;
    return this.#literal(cp);
  }

  #look(look: LookKind): RegexNode {
    return { kind: "look", look, crlf: this.#flags.R };
  }

  #dotSet(): CharSet {
    if (this.#flags.s) return complement([]);
    return complement(this.#flags.R ? normalize([[0xa, 0xa], [0xd, 0xd]]) : single(0xa));
  }

  #literal(cp: number): RegexNode {
    if (!this.#flags.i) return { kind: "literal", cp };
    const variants = this.#flags.u ? caseVariants(cp) : asciiVariants(cp);
    if (variants.length === 0) return { kind: "literal", cp };
    return { kind: "class", set: normalize([cp, ...variants].map((v) => [v, v])) };
  }

  #fold(set: CharSet): CharSet {
    if (!this.#flags.i) return set;
    if (this.#flags.u) return caseFold(set);
    const added: [number, number][] = [];
    for (const [from, to] of set) {
      for (let cp = from; cp <= Math.min(to, 0x7f); cp++) {
        for (const v of asciiVariants(cp)) added.push([v, v]);
      }
    }
    return added.length === 0 ? set : normalize([...set, ...added]);
  }

  #parseGroup(depth: number): RegexNode | null {
    const open = this.#pos;
    if (depth + 1 > NEST_LIMIT) {
      throw this.#error(
        `the pattern nests groups or classes deeper than ${NEST_LIMIT} levels (the regex crate's limit); simplify it`,
        open,
      );
    }
    this.#pos++;
    let capture: { index: number; name: string | null } | null = null;
    const saved = { ...this.#flags };
    if (this.#peek() === "?") {
      const rest = this.#src.slice(this.#pos, this.#pos + 4);
      if (/^\?(<[=!]|[=!])/.test(rest)) {
        const head = rest.startsWith("?<") ? rest.slice(0, 3) : rest.slice(0, 2);
        throw this.#error(
          `look-around "(${head}" is not supported (ripgrep's regex syntax has no look-ahead or look-behind); rewrite the pattern without it`,
          open,
        );
      }
      if (rest.startsWith("?P<") || rest.startsWith("?<")) {
        this.#pos += rest.startsWith("?P<") ? 3 : 2;
        capture = { index: ++this.#captures, name: this.#parseGroupName(open) };
      } else if (rest.startsWith("?P=") || rest.startsWith("?P>")) {
        throw this.#error(
          `"(${
            rest.slice(0, 3)
          }" (a backreference or recursion) is not supported by ripgrep's regex syntax`,
          open,
        );
      } else if (rest.startsWith("?#")) {
        throw this.#error(
          `comment groups "(?#...)" are not supported; use (?x) mode, where # starts a comment`,
          open,
        );
      } else if (rest.startsWith("?>")) {
        throw this.#error(
          `atomic groups "(?>...)" are not supported by ripgrep's regex syntax`,
          open,
        );
      } else {
        this.#pos++;
        const scoped = this.#parseFlags(open);
        if (!scoped) return null; // (?flags): in force until the end of the enclosing group
      }
    } else {
      capture = { index: ++this.#captures, name: null };
    }
    const sub = this.#parseAlternation(depth + 1);
    if (this.#peek() !== ")") {
      throw this.#error(
        `unclosed group: the "(" at position ${
          open + 1
        } has no ")"; escape a literal parenthesis as \\(`,
        open,
      );
    }
    this.#pos++;
    this.#flags = saved;
    return { kind: "group", capture, sub };
  }

  #parseGroupName(open: number): string {
    const end = this.#src.indexOf(">", this.#pos);
    if (end < 0) {
      throw this.#error(`unclosed capture group name in "${this.#src.slice(open)}"`, open);
    }
    const name = this.#src.slice(this.#pos, end);
    if (name === "") {
      throw this.#error(`empty capture group name in "${this.#src.slice(open, end + 1)}"`, open);
    }
    if (!GROUP_NAME.test(name)) {
      throw this.#error(
        `invalid capture group name "${name}": it must start with a letter or _ and hold only letters, digits, _, ., [ and ]`,
        open,
      );
    }
    if (this.#names.has(name)) throw this.#error(`duplicate capture group name "${name}"`, open);
    this.#names.add(name);
    this.#pos = end + 1;
    return name;
  }

  /** After "(?": flags then ")" (returns false) or ":" (returns true). */
  #parseFlags(open: number): boolean {
    const seen = new Set<string>();
    let negate = false;
    let negateAt = -1;
    let any = false;
    for (;;) {
      if (this.#eof()) {
        throw this.#error(
          `unclosed group: "${this.#src.slice(open)}" expects flags then ")" or ":"`,
          open,
        );
      }
      const c = this.#src[this.#pos];
      if (c === ")" || c === ":") {
        if (negate && negateAt === this.#pos - 1) {
          throw this.#error(
            `dangling flag negation "-" in "${this.#src.slice(open, this.#pos + 1)}"`,
            open,
          );
        }
        if (c === ")" && !any && !negate) {
          throw this.#error(`empty flag group "(?)"`, open);
        }
        this.#pos++;
        return c === ":";
      }
      if (c === "-") {
        if (negate) {
          throw this.#error(
            `flag negation "-" repeated in "${this.#src.slice(open, this.#pos + 1)}"`,
            open,
          );
        }
        negate = true;
        negateAt = this.#pos;
        this.#pos++;
        continue;
      }
      if (!FLAG_CHARS.includes(c)) {
        const cp = String.fromCodePoint(this.#src.codePointAt(this.#pos)!);
        throw this.#error(
          `unrecognized flag "${cp}" in "${
            this.#src.slice(open, this.#pos + cp.length)
          }"; the flags are i, m, s, U, u, x and R`,
          open,
        );
      }
      if (seen.has(c)) {
        throw this.#error(
          `duplicate flag "${c}" in "${this.#src.slice(open, this.#pos + 1)}"`,
          open,
        );
      }
      seen.add(c);
      any = true;
      this.#flags[c as keyof Flags] = !negate;
      this.#pos++;
    }
  }

  #parseEscape(): RegexNode {
    const start = this.#pos;
    const c = this.#src[this.#pos + 1];
    if (c === undefined) {
      throw this.#error(`incomplete escape sequence: the pattern ends with "\\"`, start);
    }
    switch (c) {
      case "A":
        this.#pos += 2;
        return this.#look("start_text");
      case "z":
        this.#pos += 2;
        return this.#look("end_text");
      case "B":
        this.#pos += 2;
        return this.#look("not_word");
      case "<":
        this.#pos += 2;
        return this.#look("word_start");
      case ">":
        this.#pos += 2;
        return this.#look("word_end");
      case "b": {
        this.#pos += 2;
        if (this.#peek() === "{") {
          const m = /^\{([A-Za-z-]+)\}/.exec(this.#src.slice(this.#pos, this.#pos + 20));
          if (m !== null) {
            const kinds: Record<string, LookKind> = {
              "start": "word_start",
              "end": "word_end",
              "start-half": "word_start_half",
              "end-half": "word_end_half",
            };
            if (!Object.hasOwn(kinds, m[1])) {
              throw this.#error(
                `unrecognized word boundary "\\b{${
                  m[1]
                }}"; use \\b{start}, \\b{end}, \\b{start-half} or \\b{end-half}`,
                start,
              );
            }
            this.#pos += m[0].length;
            return this.#look(kinds[m[1]]);
          }
        }
        return this.#look("word");
      }
    }
    const item = this.#parseEscapeItem(false);
    if (item.set !== undefined) return { kind: "class", set: item.set };
    return this.#literal(item.cp);
  }

  /**
   * An escape that stands for a character or a set (not an assertion), at `\`. Inside a class,
   * assertions are errors.
   */
  #parseEscapeItem(inClass: boolean): ClassItem {
    const start = this.#pos;
    const c = this.#src[this.#pos + 1];
    if (c === undefined) {
      throw this.#error(`incomplete escape sequence: the pattern ends with "\\"`, start);
    }
    this.#pos += 2;
    if (/[0-9]/.test(c)) {
      throw this.#error(
        c === "0"
          ? `escape "\\0" is not supported (octal escapes are off in ripgrep); write \\x00 for NUL`
          : `backreference "\\${c}" is not supported by ripgrep's regex syntax`,
        start,
      );
    }
    const simple = SIMPLE_ESCAPES.get(c);
    if (simple !== undefined) return { cp: simple };
    const perl = PERL.get(c.toLowerCase());
    if (perl !== undefined && /[dswDSW]/.test(c)) {
      const set = this.#fold(perl);
      return { set: c === c.toUpperCase() ? complement(set) : set };
    }
    if (c === "p" || c === "P") return { set: this.#parseUnicodeClass(start, c === "P") };
    if (c === "x" || c === "u" || c === "U") return { cp: this.#parseHex(start, c) };
    if ("AzbB<>".includes(c)) {
      if (inClass) {
        throw this.#error(`assertion "\\${c}" is not allowed inside a character class`, start);
      }
    }
    const code = c.charCodeAt(0);
    if (code < 0x80 && !/[0-9A-Za-z<>]/.test(c)) return { cp: code };
    const shown = String.fromCodePoint(this.#src.codePointAt(start + 1)!);
    throw this.#error(
      `unrecognized escape sequence "\\${shown}"${ESCAPE_HINTS.get(shown) ?? ""}`,
      start,
    );
  }

  #parseHex(start: number, kind: string): number {
    const digits = kind === "x" ? 2 : kind === "u" ? 4 : 8;
    let text: string;
    if (this.#peek() === "{") {
      const end = this.#src.indexOf("}", this.#pos);
      if (end < 0) {
        throw this.#error(`unclosed hexadecimal escape "${this.#src.slice(start)}"`, start);
      }
      text = this.#src.slice(this.#pos + 1, end);
      this.#pos = end + 1;
      if (!/^[0-9A-Fa-f]{1,8}$/.test(text)) {
        throw this.#error(
          `invalid hexadecimal escape "${
            this.#src.slice(start, this.#pos)
          }": expected 1 to 8 hex digits in braces`,
          start,
        );
      }
    } else {
      text = this.#src.slice(this.#pos, this.#pos + digits);
      if (!new RegExp(`^[0-9A-Fa-f]{${digits}}$`).test(text)) {
        throw this.#error(
          `invalid hexadecimal escape "${
            this.#src.slice(start, this.#pos + digits)
          }": \\${kind} takes exactly ${digits} hex digits or {...}`,
          start,
        );
      }
      this.#pos += digits;
    }
    const cp = parseInt(text, 16);
    if (cp > MAX_CODE_POINT || (cp >= 0xd800 && cp <= 0xdfff)) {
      throw this.#error(
        `hexadecimal escape "${this.#src.slice(start, this.#pos)}" is not a Unicode scalar value`,
        start,
      );
    }
    if (!this.#flags.u && cp >= 0x80) {
      throw this.#error(
        `escape "${
          this.#src.slice(start, this.#pos)
        }" under (?-u) means a raw byte, which is not supported here; drop (?-u)`,
        start,
      );
    }
    return cp;
  }

  #parseUnicodeClass(start: number, negated: boolean): CharSet {
    if (!this.#flags.u) {
      throw this.#error(
        `Unicode class "${this.#src.slice(start, start + 3)}" is not allowed under (?-u)`,
        start,
      );
    }
    let query: string;
    if (this.#peek() === "{") {
      const end = this.#src.indexOf("}", this.#pos);
      if (end < 0) throw this.#error(`unclosed Unicode class "${this.#src.slice(start)}"`, start);
      query = this.#src.slice(this.#pos + 1, end);
      this.#pos = end + 1;
    } else {
      if (this.#eof()) {
        throw this.#error(`incomplete Unicode class "${this.#src.slice(start)}"`, start);
      }
      const cp = this.#src.codePointAt(this.#pos)!;
      query = String.fromCodePoint(cp);
      this.#pos += query.length;
    }
    const resolved = resolveProperty(query);
    if ("error" in resolved) throw this.#error(resolved.error, start);
    const neg = /^[^=:]*!=/.test(query) ? !negated : negated;
    const set = this.#fold(propertySet(resolved.js));
    return neg ? complement(set) : set;
  }

  /** At "[": the whole bracketed class, folded then negated as the crate does. */
  #parseClass(depth: number): CharSet {
    const open = this.#pos;
    if (depth + 1 > NEST_LIMIT) {
      throw this.#error(
        `the pattern nests groups or classes deeper than ${NEST_LIMIT} levels (the regex crate's limit); simplify it`,
        open,
      );
    }
    this.#pos++;
    this.#skipSpace();
    let negated = false;
    if (this.#peek() === "^") {
      negated = true;
      this.#pos++;
      this.#skipSpace();
    }
    let items: CharSet[] = [];
    if (this.#peek() === "]") {
      items.push(single(0x5d));
      this.#pos++;
    }
    while (this.#skipSpace(), this.#peek() === "-") {
      items.push(single(0x2d));
      this.#pos++;
    }
    let acc: CharSet | null = null;
    let op = "";
    const close = (): CharSet => {
      const value = this.#fold(items.reduce((a, b) => union(a, b), [] as CharSet));
      if (acc === null) return value;
      if (op === "&&") return intersect(acc, value);
      if (op === "--") return subtract(acc, value);
      return symmetricDifference(acc, value);
    };
    for (;;) {
      this.#skipSpace();
      if (this.#eof()) {
        throw this.#error(
          `unclosed character class: the "[" at position ${
            open + 1
          } has no "]"; escape a literal bracket as \\[`,
          open,
        );
      }
      const c = this.#src[this.#pos];
      if (c === "]") {
        this.#pos++;
        const set = this.#fold(close());
        return negated ? complement(set) : set;
      }
      const two = this.#src.slice(this.#pos, this.#pos + 2);
      if (two === "&&" || two === "--" || two === "~~") {
        acc = close();
        op = two;
        items = [];
        this.#pos += 2;
        continue;
      }
      if (c === "[") {
        items.push(this.#parseNestedOrPosix(depth + 1));
        continue;
      }
      items.push(this.#parseClassRange());
    }
  }

  #parseNestedOrPosix(depth: number): CharSet {
    const m = /^\[:(\^?)([A-Za-z]+):\]/.exec(this.#src.slice(this.#pos, this.#pos + 24));
    if (m !== null) {
      const set = POSIX.get(m[2]);
      if (set === undefined) {
        throw this.#error(
          `unknown POSIX class "[:${m[1]}${m[2]}:]"; the classes are ${
            [...POSIX.keys()].join(", ")
          } (to mean the characters themselves, escape the colons: [\\:${m[2]}\\:])`,
          this.#pos,
        );
      }
      this.#pos += m[0].length;
      const folded = this.#fold(set);
      return m[1] === "^" ? complement(folded) : folded;
    }
    return this.#parseClass(depth);
  }

  #parseClassItem(): ClassItem {
    if (this.#peek() === "\\") return this.#parseEscapeItem(true);
    const cp = this.#src.codePointAt(this.#pos)!;
    this.#pos += cp > 0xffff ? 2 : 1;
    return { cp };
  }

  #parseClassRange(): CharSet {
    const start = this.#pos;
    const first = this.#parseClassItem();
    this.#skipSpace();
    if (this.#peek() !== "-") return itemSet(first);
    const after = this.#peekSpace(1);
    if (after === "]" || after === "-" || after === undefined) return itemSet(first);
    this.#pos++;
    this.#skipSpace();
    const second = this.#parseClassItem();
    if (first.cp === undefined || second.cp === undefined) {
      throw this.#error(
        `invalid range "${
          this.#src.slice(start, this.#pos)
        }": both ends must be single characters (escape a literal - as \\-)`,
        start,
      );
    }
    if (first.cp > second.cp) {
      throw this.#error(
        `invalid range "${this.#src.slice(start, this.#pos)}": the start must be <= the end`,
        start,
      );
    }
    return normalize([[first.cp, second.cp]]);
  }
}

function itemSet(item: ClassItem): CharSet {
  return item.set ?? single(item.cp);
}

function asciiVariants(cp: number): number[] {
  if (cp >= 0x41 && cp <= 0x5a) return [cp + 0x20];
  if (cp >= 0x61 && cp <= 0x7a) return [cp - 0x20];
  return [];
}

function concat(items: RegexNode[]): RegexNode {
  if (items.length === 0) return { kind: "empty" };
  if (items.length === 1) return items[0];
  return { kind: "concat", subs: items };
}
