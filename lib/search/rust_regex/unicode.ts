/**
 * Unicode classes `\pL`, `\p{Greek}`, `\p{gc=Lu}`, `\p{sc!=Latin}`: the crate's loose name
 * matching (case, spaces, "_" and "-" ignored, an "is" prefix allowed) resolved to an ECMAScript
 * property, whose members the engine enumerates once (about 40 ms) into a set of ranges. A bare
 * script name means Script (not Script_Extensions), as in the crate and ripgrep: U+00B7 MIDDLE
 * DOT is Common and U+0331 is Inherited, never Greek. Properties the crate knows but
 * JavaScript does not (Age, Grapheme_Cluster_Break, Word_Break, Sentence_Break, ...) are refused.
 */

import { type CharSet, complement, normalize, union } from "./char_set.ts";
import { BINARY_PROPERTIES, GENERAL_CATEGORIES, SCRIPTS } from "./unicode_names.ts";

const cache = new Map<string, CharSet>();

function loose(name: string): string {
  return name.toLowerCase().replace(/[\s_-]/g, "");
}

function lookup(table: Readonly<Record<string, string>>, name: string): string | undefined {
  const key = loose(name);
  if (Object.hasOwn(table, key)) return table[key];
  if (key.startsWith("is") && Object.hasOwn(table, key.slice(2))) return table[key.slice(2)];
  return undefined;
}

const UNSUPPORTED_KEYS = new Set([
  "age",
  "graphemeclusterbreak",
  "gcb",
  "wordbreak",
  "wb",
  "sentencebreak",
  "sb",
]);

/** The ECMAScript `\p{...}` body for a crate property query, or an error sentence. */
export function resolveProperty(query: string): { js: string } | { error: string } {
  const parts = /^(.*?)(!=|=|:)(.*)$/s.exec(query);
  if (parts === null) {
    const special = loose(query);
    if (special === "any" || special === "isany") return { js: "Any" };
    const gc = lookup(GENERAL_CATEGORIES, query);
    if (gc !== undefined) return { js: `General_Category=${gc}` };
    const sc = lookup(SCRIPTS, query);
    if (sc !== undefined) return { js: `Script=${sc}` };
    const binary = lookup(BINARY_PROPERTIES, query);
    if (binary !== undefined) return { js: binary };
    return { error: `Unicode property "${query}" not found` };
  }
  const name = loose(parts[1]);
  const value = parts[3];
  let table: Readonly<Record<string, string>> | null = null;
  let prop = "";
  if (name === "generalcategory" || name === "gc") {
    table = GENERAL_CATEGORIES;
    prop = "General_Category";
  } else if (name === "script" || name === "sc") {
    table = SCRIPTS;
    prop = "Script";
  } else if (name === "scriptextensions" || name === "scx") {
    table = SCRIPTS;
    prop = "Script_Extensions";
  } else if (UNSUPPORTED_KEYS.has(name)) {
    return {
      error: `Unicode property "${
        parts[1]
      }" is not supported here (JavaScript has no tables for it); use \\p{Script=...}, \\p{gc=...} or a binary property`,
    };
  } else return { error: `Unicode property "${parts[1]}" not found` };
  const canonical = lookup(table, value);
  if (canonical === undefined) {
    return { error: `Unicode property value "${value}" not found for "${parts[1]}"` };
  }
  return { js: `${prop}=${canonical}` };
}

/** Members of an ECMAScript property body such as "Script_Extensions=Greek". */
export function propertySet(js: string): CharSet {
  const hit = cache.get(js);
  if (hit !== undefined) return hit;
  const re = new RegExp(`^\\p{${js}}$`, "u");
  const ranges: [number, number][] = [];
  let start = -1;
  for (let cp = 0; cp <= 0x110000; cp++) {
    const inside = cp <= 0x10ffff && (cp < 0xd800 || cp > 0xdfff) &&
      re.test(String.fromCodePoint(cp));
    if (inside && start < 0) start = cp;
    else if (!inside && start >= 0 && !(cp >= 0xd800 && cp <= 0xdfff)) {
      ranges.push([start, cp - 1]);
      start = -1;
    }
  }
  const set = normalize(ranges);
  if (cache.size > 64) cache.clear();
  cache.set(js, set);
  return set;
}

/** `\p{query}` (or `\P{query}` when `negated`) as a set, or an error sentence. */
export function unicodeClass(
  query: string,
  negated: boolean,
): { set: CharSet } | { error: string } {
  const resolved = resolveProperty(query);
  if ("error" in resolved) return resolved;
  const neg = /^[^=:]*!=/.test(query) ? !negated : negated;
  const set = propertySet(resolved.js);
  return { set: neg ? complement(set) : set };
}

let words: CharSet | null = null;

/**
 * The crate's Unicode word characters (`\w` in its default Unicode mode, which `rg -w` uses):
 * Alphabetic, Mark, Decimal_Number, Connector_Punctuation and Join_Control.
 */
export function unicodeWordSet(): CharSet {
  words ??= [
    "Alphabetic",
    "General_Category=Mark",
    "General_Category=Decimal_Number",
    "General_Category=Connector_Punctuation",
    "Join_Control",
  ].map(propertySet).reduce(union);
  return words;
}
