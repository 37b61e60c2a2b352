/**
 * The syntax tree of a pattern in ripgrep's dialect (the Rust `regex` crate's syntax), as
 * `parse.ts` produces it and `to_js.ts` and `analysis.ts` consume it (docs/tools.md "Regex
 * dialect"). It is resolved like the crate's HIR: flags are already applied, so a consumer never
 * tracks `(?i)`, `(?s)`, `(?m)`, `(?U)` or `(?R)` itself:
 * - a case-insensitive letter is a `class` of its case variants (`(?i)k` = {k, K, U+212A});
 *   a `literal` always matches exactly its code point;
 * - `.`, `\d`, `[[:alpha:]]`, `\pL`, `[a-z&&[^aeiou]]`, negations: a `class` holding the final
 *   set of Unicode scalar values (sorted ranges, char_set.ts); `\d \s \w` are ASCII, as
 *   `rg --no-unicode` reads them; `.` excludes "\n" unless `(?s)` (and "\r" too under `(?R)`);
 * - `^`/`$` become `start_line`/`end_line` under `(?m)` (ripgrep's default) and
 *   `start_text`/`end_text` without it; `\A`, `\z` are always `start_text`/`end_text`;
 * - `repeat.greedy` is after `(?U)` swapped it; `max` null = unbounded;
 * - groups are kept (capture index and name, for messages and planners) though nothing in this
 *   project uses captures.
 * The trigram planner (issue 10) can take literals and small classes from here directly.
 */

import type { CharSet } from "./char_set.ts";

export type LookKind =
  | "start_line"
  | "end_line"
  | "start_text"
  | "end_text"
  | "word"
  | "not_word"
  | "word_start"
  | "word_end"
  | "word_start_half"
  | "word_end_half";

export type RegexNode =
  | { kind: "empty" }
  | { kind: "literal"; cp: number }
  | { kind: "class"; set: CharSet }
  | { kind: "look"; look: LookKind; crlf: boolean }
  /** Zero-width: the character before is not in `set` (or there is none); see run_starts.ts. */
  | { kind: "not_after"; set: CharSet }
  /** Zero-width: the character after is not in `set` (or there is none); grep's `-w`. */
  | { kind: "not_before"; set: CharSet }
  | { kind: "repeat"; min: number; max: number | null; greedy: boolean; sub: RegexNode }
  | { kind: "group"; capture: { index: number; name: string | null } | null; sub: RegexNode }
  | { kind: "concat"; subs: RegexNode[] }
  | { kind: "alternate"; subs: RegexNode[] };

/** A pattern the crate rejects, or a construct this project does not support. */
export class RegexSyntaxError extends Error {
  /** Character offset in the pattern where the problem starts. */
  readonly position: number;
  constructor(message: string, position: number) {
    super(message);
    this.name = "RegexSyntaxError";
    this.position = position;
  }
}
