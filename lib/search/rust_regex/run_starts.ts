/**
 * Linear time for patterns that start with an unbounded run of one class, such as
 * `[[:alpha:]]+[[:digit:]]+`, `\w+\d`, `.*foo` or `\s+$`, on the line subject.
 *
 * A backtracking engine tries such a pattern at every position of a long run of the class: each
 * try reads the rest of the run, so a 20,000-letter word costs 200 million steps. V8 falls back
 * to its linear engine only after 50,000 backtracks within one try, which each try stays under, so
 * a 2.5 MB file of long words took seconds where ripgrep's automaton takes milliseconds. When a
 * line has a match starting inside a run, it also has one starting where that run starts (the
 * run's first part is more of the same class, and what follows is unchanged), so the tries can
 * be limited to run starts: `(?<![A-Za-z])[A-Za-z]+[0-9]+` reads each run once. The leftmost match
 * is unchanged (it starts at a run start), and so are the matching lines. Later matches on the
 * same line may differ, so this is for the line subject only (one answer per line), never for the
 * whole-file subject, whose count is of matches.
 */

import type { RegexNode } from "./ast.ts";
import { single } from "./char_set.ts";

/** `ast` with each leading unbounded run of one class or character tried only at run starts. */
export function atRunStarts(ast: RegexNode): RegexNode {
  switch (ast.kind) {
    case "repeat": {
      if (ast.max !== null) return ast;
      const sub = ast.sub;
      const set = sub.kind === "class" ? sub.set : sub.kind === "literal" ? single(sub.cp) : null;
      if (set === null) return ast;
      return { kind: "concat", subs: [{ kind: "not_after", set }, ast] };
    }
    case "group":
      return { ...ast, sub: atRunStarts(ast.sub) };
    case "alternate":
      return { kind: "alternate", subs: ast.subs.map(atRunStarts) };
    case "concat": {
      if (ast.subs.length === 0) return ast;
      const [first, ...rest] = ast.subs;
      return { kind: "concat", subs: [atRunStarts(first), ...rest] };
    }
    default:
      return ast;
  }
}
