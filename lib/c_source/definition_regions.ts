/**
 * The parts of a C/C++ text that find_symbol parses for a name: the top-level items
 * (top_level_items.ts) that hold a hit of the name that may be a definition
 * (definition_sites.ts), everything else left out. A definition is a whole top-level item, or
 * lies inside one (a field, an enumerator, a nested type), so the items around the possible
 * definitions give the same definitions as the whole text, at the cost of a few items instead of
 * a whole header. The parser worker checks the parse: when it has a syntax error the item split
 * may be wrong, and the whole text is parsed instead. Pure text functions.
 */
import { mayDefine, mayDefineAnywhere, possibleDefinitions } from "./definition_sites.ts";
import { functionBodies } from "./skip_bodies.ts";
import { topLevelItems } from "./top_level_items.ts";

/**
 * Whether a whole C/C++ file (its text as read) may define the name `pattern` finds: false only
 * when every hit is surely a use, inside a function body, in a comment or a literal, or in a
 * preprocessor line other than the name's `#define`. The search worker's verdict, given while it
 * has the text, so that only files that may define the name reach a parser worker.
 */
export function fileMayDefine(text: string, pattern: RegExp): boolean {
  if (!mayDefineAnywhere(text, pattern)) return false;
  const bodies = functionBodies(text) ?? [];
  if (bodies.length > 0 && !mayDefine(text, bodies, pattern)) return false;
  // The hits outside the bodies, found in the text itself (no copy with the bodies cut).
  const hits = possibleDefinitions(text, pattern, { limit: MANY_HITS, bodies });
  // So many hits (a prefix of common names) that one surely is a definition: not lexed.
  if (hits.length >= MANY_HITS) return true;
  // The items of the whole text are those of the text with its bodies cut (a body lies inside
  // its item, between balanced braces).
  const regions = regionsAround(text, hits);
  return regions === null || regions.length > 0;
}

/** Possible definitions past which a file is taken to define the name without a closer look. */
const MANY_HITS = 64;

/**
 * [start, end) of each item around a possible definition of the name `pattern` finds, in text
 * order (none: the name is defined nowhere, every hit being in a comment or a literal, in a
 * preprocessor line other than its `#define`, or surely a use), or null when the text cannot be split into items. The
 * text's function bodies should be cut out (skip_bodies.ts): a hit inside one is taken as
 * possible.
 */
export function definitionRegions(
  text: string,
  pattern: RegExp,
): Array<[number, number]> | null {
  return regionsAround(text, possibleDefinitions(text, pattern));
}

/** The items around these hits (definitionRegions). */
function regionsAround(text: string, hits: readonly number[]): Array<[number, number]> | null {
  if (hits.length === 0) return [];
  const split = topLevelItems(text);
  if (split === null) return null;
  const { items, quiet, directives } = split;
  const regions: Array<[number, number]> = [];
  let i = 0;
  let q = 0;
  let d = 0;
  for (const at of hits) {
    while (q < quiet.length && quiet[q][1] <= at) q++;
    if (q < quiet.length && at >= quiet[q][0]) continue; // in a comment or a literal
    while (d < directives.length && directives[d].end <= at) d++;
    const line = d < directives.length && at >= directives[d].start ? directives[d] : null;
    // `#include`, `#ifdef`; a `#define` defines its own name only (its body is text to the
    // grammar).
    if (line !== null && (line.kind === "directive" || at !== macroName(text, line.start))) {
      continue;
    }
    // Braces that do not balance: the items cannot be told, the whole text is parsed.
    if (items === null) return null;
    while (i < items.length && items[i].end <= at) i++;
    if (i === items.length) break;
    const item = items[i];
    if (at < item.start) continue; // between items: blanks only
    if (regions.length > 0 && regions[regions.length - 1][0] === item.start) continue;
    regions.push([item.start, item.end]);
  }
  return regions;
}

/** Where the name of the `#define` at `at` starts. */
export function macroName(text: string, at: number): number {
  let i = at + 1;
  while (isSpace(text.charCodeAt(i))) i++;
  i += "define".length;
  while (isSpace(text.charCodeAt(i)) || isContinuation(text, i)) {
    i += isContinuation(text, i) ? 2 : 1;
  }
  return i;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9;
}

function isContinuation(text: string, at: number): boolean {
  return text.charCodeAt(at) === 92 && text.charCodeAt(at + 1) === 10;
}

/**
 * The text with only these regions kept: everything else becomes its line breaks, and the
 * characters before a region on its first line become blanks (tabs kept), so every line and
 * column of a region stays where it was.
 */
export function regionText(text: string, regions: ReadonlyArray<readonly [number, number]>) {
  let out = "";
  let at = 0;
  for (const [start, end] of regions) {
    const gap = text.slice(at, start);
    const lastBreak = gap.lastIndexOf("\n");
    let breaks = 0;
    for (let i = gap.indexOf("\n"); i >= 0; i = gap.indexOf("\n", i + 1)) breaks++;
    out += "\n".repeat(breaks) + gap.slice(lastBreak + 1).replace(/[^\t]/g, " ");
    out += text.slice(start, end);
    at = end;
  }
  return out;
}
