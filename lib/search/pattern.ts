/**
 * The grep pattern: ripgrep's regex dialect (the Rust `regex` crate's syntax, docs/tools.md
 * "Regex dialect") parsed by rust_regex/parse.ts and translated by rust_regex/to_js.ts into a
 * JavaScript regex compiled without flags (ASCII `\w \d \s \b`, like `rg --no-unicode`; Unicode
 * classes and case folding written out as ranges). `-i` is `(?i)` from the start, `multiline` is
 * `rg -U --multiline-dotall`, `fixed_strings` matches the text literally, `-w` is `rg -w`. A pattern the crate
 * rejects, or a construct not supported here, is an error sentence naming it.
 */

import { type RegexNode, RegexSyntaxError } from "./rust_regex/ast.ts";
import { parseRustRegex } from "./rust_regex/parse.ts";
import { toJsSource } from "./rust_regex/to_js.ts";
import { atRunStarts } from "./rust_regex/run_starts.ts";
import { unicodeWordSet } from "./rust_regex/unicode.ts";
import { caseVariants, normalize } from "./rust_regex/char_set.ts";
import {
  canMatchNewline,
  hasLookaround,
  hasTextAnchor,
  maxWidth,
  type RegexAnalysis,
  requiredLiterals,
} from "./regex_analysis.ts";

/** A compiled-able pattern, structured-cloneable so workers can rebuild it. */
export interface PatternSpec {
  /** The JavaScript regex source: one line is the subject, or the whole file when `analysis.wholeFile`. */
  source: string;
  /** Flags for `source` (empty: the translation needs none); matchers add `g` as they need. */
  flags: string;
  /** The pattern as the model wrote it, for messages. */
  pattern: string;
  /** rg -U --multiline-dotall was asked for. */
  multiline: boolean;
  /** Prefilter literals and the scan strategy (regex_analysis.ts). */
  analysis: RegexAnalysis;
}

export interface PatternOptions {
  ignoreCase: boolean;
  fixedStrings: boolean;
  multiline: boolean;
  /** rg -w: only matches with no word character right before and right after them. */
  wholeWords?: boolean;
}

/**
 * `ast` as `rg -w` reads it: `\b{start-half}(?:ast)\b{end-half}` (ripgrep 14's own rewrite,
 * and the same lines as ripgrep 13's `(?:^|\W)(ast)(?:$|\W)`): no word character right before
 * or after the match, so a pattern that starts or ends with a non-word character, such as `-v`,
 * still matches after a space. Word characters are Unicode's, as in rg's default mode (`é` and
 * CJK letters are word characters), whatever `\w` means inside the pattern.
 */
function wholeWordTree(ast: RegexNode): RegexNode {
  const set = unicodeWordSet();
  return {
    kind: "concat",
    subs: [
      { kind: "not_after", set },
      { kind: "group", capture: null, sub: ast },
      { kind: "not_before", set },
    ],
  };
}

/** The literal text as a syntax tree (case-folded letters under -i). */
function literalTree(text: string, ignoreCase: boolean): RegexNode {
  const subs: RegexNode[] = [];
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    const variants = ignoreCase ? caseVariants(cp) : [];
    subs.push(
      variants.length === 0
        ? { kind: "literal", cp }
        : { kind: "class", set: normalize([cp, ...variants].map((v) => [v, v])) },
    );
  }
  return { kind: "concat", subs };
}

/** The spec, or a sentence telling the model what is wrong with the pattern. */
export function translatePattern(
  pattern: string,
  options: PatternOptions,
): { spec: PatternSpec } | { error: string } {
  try {
    const parsed = options.fixedStrings
      ? literalTree(pattern, options.ignoreCase)
      : parseRustRegex(pattern, { caseInsensitive: options.ignoreCase, dotAll: options.multiline });
    const ast = options.wholeWords ? wholeWordTree(parsed) : parsed;
    const wholeFile = options.multiline && (canMatchNewline(ast) || hasTextAnchor(ast));
    // One answer per line: a leading run is tried only where it starts (run_starts.ts).
    const source = wholeFile ? toJsSource(ast, "file") : toJsSource(atRunStarts(ast), "line");
    new RegExp(source, "g");
    const analysis: RegexAnalysis = {
      literals: requiredLiterals(ast),
      lookaround: hasLookaround(ast, wholeFile),
      wholeFile,
      lineSource: source,
      maxWidth: wholeFile ? null : maxWidth(ast),
    };
    return { spec: { source, flags: "", pattern, multiline: options.multiline, analysis } };
  } catch (error) {
    if (!(error instanceof RegexSyntaxError) && !(error instanceof SyntaxError)) throw error;
    const where = error instanceof RegexSyntaxError && error.position > 0
      ? ` (at character ${error.position + 1})`
      : "";
    const [problem, fix] = splitHint(error.message);
    const hint = fix ??
      (options.fixedStrings ? "" : "; fix the pattern or set fixed_strings: true");
    return { error: `Invalid regex "${pattern}": ${problem}${where}${hint}` };
  }
}

/** "problem; what to do" -> [problem, "; what to do"]. */
function splitHint(message: string): [string, string | undefined] {
  const at = message.indexOf("; ");
  return at < 0 ? [message, undefined] : [message.slice(0, at), message.slice(at)];
}
