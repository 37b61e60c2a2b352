/**
 * TypeScript the pinned grammar cannot parse though TypeScript accepts it, rewritten before a
 * second parse so that one such line cannot take the definitions after it down with it:
 *
 * - a generic call or construct signature on its own line after a member with no separator
 *   (`(h: H): Hono<E>` then `<P extends string>(path: P): Hono<E>`, as hono's types are written):
 *   the grammar reads the `<` as a comparison that continues the line before, and the rest of the
 *   file turns into one ERROR node. A `;` takes the place of the blank before the `<`;
 * - variance annotations on type parameters (`interface Z<out O, in I>`): blanked;
 * - `override` after `abstract` (`abstract override p: string`): blanked;
 * - a member named `in` on its own line after a member with no separator (`a: Foo` then
 *   `in?: boolean`, as vue's runtime-dom writes its props): the grammar reads `in` as the
 *   operator continuing the line before. A `;` takes the place of the blank before `in`;
 * - an array of an import type (`scriptAst?: import('@babel/types').Statement[]`), which the
 *   grammar reads as a call: the `import('...').` before the type's name is blanked, so the
 *   type reads `Statement[]`.
 *
 * Every rewrite keeps the text's length and its line breaks, so every position stays where it
 * was. The rewrites are guesses made on lines, blind to comments and strings: the caller parses
 * the rewritten text only when the first parse had errors, and keeps that tree only when it has
 * fewer of them.
 */

/** A type parameter list's first parameter (`const`, `in` and `out` allowed before its name). */
const FIRST_PARAMETER =
  /^[ \t]*(?:(?:const|in|out)[ \t]+)*[A-Za-z_$][\w$]*[ \t]*(?:extends\b|[,>=])/;
/** A line that starts a signature's type parameter list (the list may go on on the next line). */
const SIGNATURE_START = /^([ \t]+)(?:new[ \t]+)?<(.*)$/;
/** A previous line that ends a type (a name, `>`, `)`, `]`, `}`, a literal type or `?`). */
const ENDS_A_TYPE = /[\w$>)\]}'"`?]$/;
const VARIANCE =
  /([<,][ \t]*)((?:in[ \t]+out|in|out)[ \t]+)(?=[A-Za-z_$][\w$]*[ \t]*(?:extends\b|[,>=]))/g;
const ABSTRACT_OVERRIDE = /\babstract([ \t]+)override\b/g;
/** A member named `in` that starts a line: `in?: T`, `in: T`, `in?(): T`. */
const IN_MEMBER = /^([ \t]+)in[ \t]*(?:\?[ \t]*[:(]|:)/;
/** `import('x').` before a type name that an array suffix follows, in a type position. */
const IMPORT_ARRAY =
  /([:=|<,][ \t]*)(import\([ \t]*(['"])[^'"\n]*\3[ \t]*\)\.)(?=(?:[A-Za-z_$][\w$]*\.)*[A-Za-z_$][\w$]*(?:<[^\n]*>)?\[\])/g;

/** The rewritten text, or null when no rule applies. */
export function repairTypeScript(text: string): string | null {
  const lines = text.split("\n");
  let changed = false;
  let previous = "";
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i];
    const signature = SIGNATURE_START.exec(line);
    if (
      signature !== null && ENDS_A_TYPE.test(previous) &&
      (FIRST_PARAMETER.test(signature[2]) ||
        (signature[2].trim() === "" && FIRST_PARAMETER.test(lines[i + 1] ?? "")))
    ) {
      const blank = signature[1].length - 1;
      line = `${line.slice(0, blank)};${line.slice(blank + 1)}`;
    }
    line = line.replace(
      VARIANCE,
      (_, before: string, words: string) => before + " ".repeat(words.length),
    );
    line = line.replace(ABSTRACT_OVERRIDE, (_, gap: string) => `abstract${gap}        `);
    const member = IN_MEMBER.exec(line);
    if (member !== null && ENDS_A_TYPE.test(previous)) {
      const blank = member[1].length - 1;
      line = `${line.slice(0, blank)};${line.slice(blank + 1)}`;
    }
    line = line.replace(
      IMPORT_ARRAY,
      (_, before: string, call: string) => before + " ".repeat(call.length),
    );
    if (line !== lines[i]) {
      lines[i] = line;
      changed = true;
    }
    const trimmed = line.replace(/\/\/.*$/, "").trimEnd();
    if (trimmed !== "") previous = trimmed;
  }
  return changed ? lines.join("\n") : null;
}
