/**
 * What the matcher needs to know about a pattern to search fast yet exactly, read from its
 * syntax tree (rust_regex/ast.ts): literals that every match must contain (a cheap prefilter,
 * String#indexOf), whether the whole file must be the subject (multiline mode with a pattern
 * that can match "\n" or uses \A or \z), whether the translated source has lookarounds that see
 * past a line end, and the source for whole-text candidate search.
 */

import type { RegexNode } from "./rust_regex/ast.ts";
import { contains, singleton } from "./rust_regex/char_set.ts";

export interface RegexAnalysis {
  /** Every match contains at least one of these (case-sensitive), or null when unknown. */
  literals: string[] | null;
  /** The translated source has lookarounds: whole-text search could differ from per-line. */
  lookaround: boolean;
  /** The whole file is the subject (multiline mode, and the pattern can span lines or uses \A/\z). */
  wholeFile: boolean;
  /** Source for a whole-text `gm` candidate scan: it never matches across a line end. */
  lineSource: string;
  /**
   * The longest match in UTF-16 units, when it is bounded and the pattern has no line or text
   * anchor (its lookarounds see one character): a line too long to hold can then be searched in
   * overlapping windows (long_line.ts). Null otherwise (and absent in older specs).
   */
  maxWidth?: number | null;
}

/**
 * The longest match of `ast` in UTF-16 units, or null when unbounded or anchored to a line or
 * text end (an anchor would match at a window's edge).
 */
export function maxWidth(ast: RegexNode): number | null {
  const width = widthOf(ast);
  return Number.isFinite(width) ? width : null;
}

function widthOf(ast: RegexNode): number {
  switch (ast.kind) {
    case "empty":
    case "not_after":
    case "not_before":
      return 0;
    case "look":
      return ast.look.startsWith("word") || ast.look === "not_word" ? 0 : Infinity;
    case "literal":
      return ast.cp > 0xffff ? 2 : 1;
    case "class": {
      const last = ast.set[ast.set.length - 1];
      return last !== undefined && last[1] > 0xffff ? 2 : 1;
    }
    case "group":
      return widthOf(ast.sub);
    case "concat":
      return ast.subs.reduce((sum, s) => sum + widthOf(s), 0);
    case "alternate":
      return ast.subs.reduce((most, s) => Math.max(most, widthOf(s)), 0);
    case "repeat": {
      const sub = widthOf(ast.sub);
      if (ast.max === 0) return 0;
      if (ast.max === null) return sub === 0 ? 0 : Infinity;
      return sub * ast.max;
    }
  }
}

type Node =
  | { k: "lit"; ch: string }
  | { k: "any" }
  | { k: "zero" }
  | { k: "group"; alts: Item[][] };

interface Item {
  node: Node;
  min: number;
  max: number;
}

const MAX_LITERALS = 8;

/** True when some match of `ast` may contain "\n". */
export function canMatchNewline(ast: RegexNode): boolean {
  return some(
    ast,
    (n) => (n.kind === "literal" && n.cp === 0x0a) || (n.kind === "class" && contains(n.set, 0x0a)),
  );
}

/** True when `ast` uses \A or \z (or ^ and $ under (?-m)). */
export function hasTextAnchor(ast: RegexNode): boolean {
  return some(ast, (n) => n.kind === "look" && (n.look === "start_text" || n.look === "end_text"));
}

/**
 * True when the translation of `ast` has lookarounds that can see past a line end: only line and
 * text anchors on the whole-file subject. The word-boundary lookarounds of the line subject
 * look at one word character, which a line end never is, so whole-text search stays exact.
 */
export function hasLookaround(ast: RegexNode, wholeFile: boolean): boolean {
  return wholeFile && some(ast, (n) => n.kind === "look" && n.look.endsWith("_line")) ||
    wholeFile && hasTextAnchor(ast);
}

function some(ast: RegexNode, test: (n: RegexNode) => boolean): boolean {
  const stack = [ast];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (test(n)) return true;
    if (n.kind === "concat" || n.kind === "alternate") stack.push(...n.subs);
    else if (n.kind === "group" || n.kind === "repeat") stack.push(n.sub);
  }
  return false;
}

/** Literal strings one of which every match of `ast` contains, or null. */
export function requiredLiterals(ast: RegexNode): string[] | null {
  return requiredOfAlternatives(alternativesOf(ast));
}

function alternativesOf(ast: RegexNode): Item[][] {
  return ast.kind === "alternate" ? ast.subs.map(sequenceOf) : [sequenceOf(ast)];
}

function sequenceOf(ast: RegexNode): Item[] {
  return ast.kind === "concat" ? ast.subs.map(itemOf) : ast.kind === "empty" ? [] : [itemOf(ast)];
}

function itemOf(ast: RegexNode): Item {
  switch (ast.kind) {
    case "repeat": {
      const inner = itemOf(ast.sub);
      if (inner.min === 1 && inner.max === 1) {
        return { node: inner.node, min: ast.min, max: ast.max ?? Infinity };
      }
      return { node: { k: "group", alts: [[inner]] }, min: ast.min, max: ast.max ?? Infinity };
    }
    case "literal":
      return { node: { k: "lit", ch: String.fromCodePoint(ast.cp) }, min: 1, max: 1 };
    case "class": {
      const cp = singleton(ast.set);
      const node: Node = cp === null ? { k: "any" } : { k: "lit", ch: String.fromCodePoint(cp) };
      return { node, min: 1, max: 1 };
    }
    case "look":
    case "not_after":
    case "not_before":
    case "empty":
      return { node: { k: "zero" }, min: 1, max: 1 };
    case "group":
      return { node: { k: "group", alts: alternativesOf(ast.sub) }, min: 1, max: 1 };
    case "concat":
    case "alternate":
      return { node: { k: "group", alts: alternativesOf(ast) }, min: 1, max: 1 };
  }
}

/** Literal alternatives that every match of one of `alts` contains, or null. */
function requiredOfAlternatives(alts: Item[][]): string[] | null {
  const all = new Set<string>();
  for (const alt of alts) {
    const req = requiredOfSequence(alt);
    if (req === null) return null;
    for (const s of req) all.add(s);
    if (all.size > MAX_LITERALS) return null;
  }
  return [...all];
}

function flatten(items: Item[]): Item[] {
  const out: Item[] = [];
  for (const item of items) {
    if (
      item.node.k === "group" && item.node.alts.length === 1 && item.min === 1 && item.max === 1
    ) {
      out.push(...flatten(item.node.alts[0]));
    } else out.push(item);
  }
  return out;
}

function requiredOfSequence(items: Item[]): string[] | null {
  const candidates: string[][] = [];
  let run = "";
  const endRun = (next: string) => {
    if (run !== "") candidates.push([run]);
    run = next;
  };
  for (const item of flatten(items)) {
    const node = item.node;
    if (node.k === "zero") continue;
    if (node.k === "lit") {
      if (item.min === 0) endRun("");
      else {
        run += node.ch.repeat(Math.min(item.min, 64));
        if (item.max !== item.min) endRun(node.ch);
      }
      continue;
    }
    endRun("");
    if (node.k === "group" && item.min >= 1) {
      const req = requiredOfAlternatives(node.alts);
      if (req !== null) candidates.push(req);
    }
  }
  endRun("");
  let best: string[] | null = null;
  let bestScore = -1;
  for (const set of candidates) {
    if (set.some((s) => s.includes("\uFFFD"))) continue;
    // One character is a poor prefilter: indexOf("_") stops on most lines of code, and the
    // regex scan was 3x faster on the kernel for -i PM_RESUME (bench: docs/BENCHMARKS.md).
    if (set.some((s) => s.length < 2)) continue;
    const score = Math.min(...set.map((s) => s.length)) * 16 - set.length;
    if (score > bestScore) {
      best = set;
      bestScore = score;
    }
  }
  return best;
}
