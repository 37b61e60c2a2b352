/**
 * Every name a C/C++ text may define, in one pass: the identifiers that fileMayDefine
 * (definition_regions.ts) would take as possible definitions, whatever name it were asked
 * about. The trigram index keeps these per file (as hashes, lib/index/lists/name_hashes.ts), so that
 * find_symbol reads and parses only the files that may define the name it asks for, without
 * reading every file that mentions it.
 *
 * A name is definable in a text when one of its whole-word hits (a run of `[A-Za-z0-9_]`, as a
 * `\b` regex finds it) lies in an identifier that stands outside every function body, comment,
 * literal and preprocessor line (a `#define`'s own name excepted), inside a top-level item, and
 * is not surely a use by its neighbours (definition_sites.ts). The set errs only towards more
 * names, exactly as fileMayDefine errs towards parsing: a name outside it has no definition in
 * the text. Pure text functions.
 */
import { surelyNotDefinedAt } from "./definition_sites.ts";
import { macroName } from "./definition_regions.ts";
import { functionBodies } from "./skip_bodies.ts";
import { topLevelItems } from "./top_level_items.ts";

/** The names (as spelled) the text may define. */
export function definableNames(text: string): Set<string> {
  const names = new Set<string>();
  eachDefinableName(text, (start, end) => names.add(text.slice(start, end)));
  return names;
}

/**
 * Calls `visit` with [start, end) of each hit of a name the text may define, in text order (a
 * name as often as it stands so; nothing is copied, so the index hashes the names in place).
 */
export function eachDefinableName(text: string, visit: (start: number, end: number) => void) {
  const bodies = functionBodies(text) ?? [];
  const split = topLevelItems(text);
  // No split (a comment not closed): every identifier that passes its neighbours may define.
  const quiet = split?.quiet ?? [];
  const directives = split?.directives ?? [];
  const items = split?.items ?? null;
  const whole = items === null;
  const n = text.length;
  let b = 0;
  let q = 0;
  let d = 0;
  let i = 0;
  let k = 0;
  while (k < n) {
    // Function bodies, then comments and literals, are stepped over whole.
    if (b < bodies.length && k >= bodies[b][0]) {
      if (k < bodies[b][1]) k = bodies[b][1];
      else b++;
      continue;
    }
    if (q < quiet.length && k >= quiet[q][0]) {
      if (k < quiet[q][1]) k = quiet[q][1];
      else q++;
      continue;
    }
    if (!isIdentifierChar(text.charCodeAt(k))) {
      k++;
      continue;
    }
    // An identifier as definition_sites.ts extends a hit: word characters, `$` and non-ASCII.
    const at = k;
    let letters = false;
    while (k < n) {
      const c = text.charCodeAt(k);
      if (!isIdentifierChar(c)) break;
      if (isLetter(c)) letters = true;
      k++;
    }
    if (!letters) continue; // a number: no name starts with a digit
    while (d < directives.length && directives[d].end <= at) d++;
    const line = d < directives.length && at >= directives[d].start ? directives[d] : null;
    if (line !== null && (line.kind === "directive" || at !== macroName(text, line.start))) {
      continue;
    }
    if (!whole) {
      while (i < items.length && items[i].end <= at) i++;
      if (i === items.length) break;
      if (at < items[i].start) continue;
    }
    if (surelyNotDefinedAt(text, at, k)) continue;
    visitRuns(text, at, k, visit);
  }
}

/** Word characters, `$` and every non-ASCII code unit. */
function isIdentifierChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 ||
    c === 36 || c > 127;
}

function isLetter(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
}

function isWord(c: number): boolean {
  return isLetter(c) || (c >= 48 && c <= 57);
}

/**
 * Visits the runs of `[A-Za-z0-9_]` in text[start, end) that start with no digit: what a
 * `\bname\b` regex can match whole inside that identifier.
 */
function visitRuns(
  text: string,
  start: number,
  end: number,
  visit: (start: number, end: number) => void,
): void {
  let k = start;
  while (k < end) {
    if (!isWord(text.charCodeAt(k))) {
      k++;
      continue;
    }
    const run = k;
    while (k < end && isWord(text.charCodeAt(k))) k++;
    const c = text.charCodeAt(run);
    if (c < 48 || c > 57) visit(run, k);
  }
}
