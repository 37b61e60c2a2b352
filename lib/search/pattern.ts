/**
 * The grep pattern dialect: a JavaScript regex compiled without the `u` flag (ASCII `\w \d \b`,
 * like `rg --no-unicode`; identity escapes such as `\-` keep working), with `u` only when the
 * pattern uses `\p{`, `\P{` or `\u{`. A leading `(?i)` becomes the `i` flag. POSIX classes such as
 * `[[:alpha:]]` are refused with a suggested range. `fixed_strings` matches literally.
 */

/** A compiled-able pattern, structured-cloneable so workers can rebuild it. */
export interface PatternSpec {
  /** The regex source as given (after `(?i)` removal, or escaped for fixed strings). */
  source: string;
  /** `i` and/or `u`; matchers add `g`, `m`, `s` as they need. */
  flags: string;
  /** The pattern as the model wrote it, for messages. */
  pattern: string;
  /** rg -U --multiline-dotall: the whole file is the subject. */
  multiline: boolean;
}

export interface PatternOptions {
  ignoreCase: boolean;
  fixedStrings: boolean;
  multiline: boolean;
}

const POSIX_RANGES: Record<string, string> = {
  alpha: "[a-zA-Z]",
  digit: "[0-9] or \\d",
  alnum: "[a-zA-Z0-9]",
  upper: "[A-Z]",
  lower: "[a-z]",
  space: "\\s",
  blank: "[ \\t]",
  word: "\\w",
  xdigit: "[0-9a-fA-F]",
  punct: "[!-/:-@[-`{-~]",
  cntrl: "[\\x00-\\x1f\\x7f]",
  print: "[\\x20-\\x7e]",
  graph: "[\\x21-\\x7e]",
  ascii: "[\\x00-\\x7f]",
};

/** Escapes every regex metacharacter so the text matches literally. */
export function escapeRegex(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|\/-]/g, "\\$&");
}

/** The spec, or a sentence telling the model what is wrong with the pattern. */
export function translatePattern(
  pattern: string,
  options: PatternOptions,
): { spec: PatternSpec } | { error: string } {
  let source = pattern;
  let ignoreCase = options.ignoreCase;
  let unicode = false;
  if (options.fixedStrings) {
    source = escapeRegex(pattern);
  } else {
    if (source.startsWith("(?i)")) {
      ignoreCase = true;
      source = source.slice(4);
    }
    const posix = /\[:(\^?)([a-z]+):\]/.exec(source);
    if (posix && /\[[^\]]*\[:\^?[a-z]+:\]/.test(source)) {
      const range = POSIX_RANGES[posix[2]] ?? "an explicit range such as [a-zA-Z]";
      return {
        error: `Invalid regex "${pattern}": POSIX class "[:${posix[1]}${
          posix[2]
        }:]" is not supported in JavaScript regexes; use ${range} instead`,
      };
    }
    unicode = /\\[pP]\{|\\u\{/.test(source);
  }
  const flags = (ignoreCase ? "i" : "") + (unicode ? "u" : "");
  try {
    new RegExp(source, flags + (options.multiline ? "gms" : "g"));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      error: `Invalid regex "${pattern}": ${message}; fix the pattern or set fixed_strings`,
    };
  }
  return { spec: { source, flags, pattern, multiline: options.multiline } };
}
