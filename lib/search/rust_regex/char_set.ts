/**
 * Sets of Unicode scalar values as sorted, disjoint, non-adjacent inclusive ranges: the
 * representation of every character class of the Rust regex dialect (docs/tools.md "Regex
 * dialect"). Set operations, negation over scalar values (surrogates excluded, as in Rust) and
 * simple case folding (Unicode CaseFolding C+S, as the crate's `(?i)` uses) are computed here, so
 * that translated classes need no `u`, `v` or `i` flag.
 */

/** Inclusive code point range [from, to]. */
export type CharRange = readonly [number, number];
/** Sorted, disjoint, non-adjacent ranges. */
export type CharSet = readonly CharRange[];

export const MAX_CODE_POINT = 0x10ffff;
const SURROGATES: CharRange = [0xd800, 0xdfff];

/** Sorts and merges arbitrary ranges into a canonical set (surrogates removed). */
export function normalize(ranges: Iterable<CharRange>): CharSet {
  const sorted = [...ranges].filter((r) => r[0] <= r[1]).sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [from, to] of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else out.push([from, to]);
  }
  return subtractRaw(out, [SURROGATES]);
}

function subtractRaw(a: CharSet, b: CharSet): CharSet {
  const out: [number, number][] = [];
  let j = 0;
  for (const [from, to] of a) {
    let start = from;
    while (j < b.length && b[j][1] < start) j++;
    let k = j;
    while (k < b.length && b[k][0] <= to) {
      if (b[k][0] > start) out.push([start, b[k][0] - 1]);
      start = Math.max(start, b[k][1] + 1);
      k++;
    }
    if (start <= to) out.push([start, to]);
  }
  return out;
}

export function single(cp: number): CharSet {
  return normalize([[cp, cp]]);
}

export function union(a: CharSet, b: CharSet): CharSet {
  return normalize([...a, ...b]);
}

export function subtract(a: CharSet, b: CharSet): CharSet {
  return subtractRaw(a, b);
}

export function intersect(a: CharSet, b: CharSet): CharSet {
  return subtractRaw(a, complement(b));
}

export function symmetricDifference(a: CharSet, b: CharSet): CharSet {
  return union(subtract(a, b), subtract(b, a));
}

/** Every scalar value not in `a`. */
export function complement(a: CharSet): CharSet {
  return subtractRaw([[0, MAX_CODE_POINT]], [...a, SURROGATES]);
}

export function contains(set: CharSet, cp: number): boolean {
  let lo = 0;
  let hi = set.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < set[mid][0]) hi = mid - 1;
    else if (cp > set[mid][1]) lo = mid + 1;
    else return true;
  }
  return false;
}

export function size(set: CharSet): number {
  let n = 0;
  for (const [from, to] of set) n += to - from + 1;
  return n;
}

/** The one code point of a one-element set, else null. */
export function singleton(set: CharSet): number | null {
  return set.length === 1 && set[0][0] === set[0][1] ? set[0][0] : null;
}

// --- Simple case folding -------------------------------------------------------------------

/** Code point -> the other members of its simple case folding orbit (k -> K, U+212A). */
let orbits: Map<number, number[]> | null = null;

/** Blocks outside the BMP that have case (Deseret .. Adlam). */
const ASTRAL_CASED: CharRange[] = [
  [0x10400, 0x104ff],
  [0x10570, 0x105bf],
  [0x10c80, 0x10cff],
  [0x118a0, 0x118ff],
  [0x16e40, 0x16e9f],
  [0x1e900, 0x1e94f],
];

function singleCodePoint(text: string): number | null {
  const cp = text.codePointAt(0)!;
  return text.length === (cp > 0xffff ? 2 : 1) ? cp : null;
}

/**
 * Builds the orbits once: candidates are grouped by lower(upper(c)), then each group is split by
 * the engine's own simple case folding (a `ui` regex compares by CaseFolding C+S, the crate's
 * table), so special cases like U+0130 and U+0131 stay apart from i.
 */
function caseOrbits(): Map<number, number[]> {
  if (orbits !== null) return orbits;
  const groups = new Map<number, number[]>();
  const visit = (cp: number) => {
    if (cp >= 0xd800 && cp <= 0xdfff) return;
    const ch = String.fromCodePoint(cp);
    const upper = singleCodePoint(ch.toUpperCase()) ?? cp;
    const key = singleCodePoint(String.fromCodePoint(upper).toLowerCase()) ?? upper;
    const lower = singleCodePoint(ch.toLowerCase()) ?? cp;
    if (key === cp && upper === cp && lower === cp) {
      if (!groups.has(cp)) return; // no case at all (members join their key below)
    }
    let group = groups.get(key);
    if (group === undefined) groups.set(key, group = [key]);
    if (!group.includes(cp)) group.push(cp);
  };
  for (let cp = 0; cp <= 0xffff; cp++) visit(cp);
  for (const [from, to] of ASTRAL_CASED) for (let cp = from; cp <= to; cp++) visit(cp);
  const result = new Map<number, number[]>();
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const pending = [...group];
    while (pending.length > 0) {
      const first = pending.shift()!;
      const re = new RegExp(`^\\u{${first.toString(16)}}$`, "ui");
      const orbit = [first];
      for (let k = pending.length - 1; k >= 0; k--) {
        if (re.test(String.fromCodePoint(pending[k]))) orbit.push(...pending.splice(k, 1));
      }
      if (orbit.length < 2) continue;
      for (const cp of orbit) result.set(cp, orbit.filter((o) => o !== cp));
    }
  }
  orbits = result;
  return result;
}

/** The two non-ASCII characters that fold to ASCII letters: U+212A (k) and U+017F (s). */
const ASCII_EXTRA = new Map<number, number>([[0x4b, 0x212a], [0x6b, 0x212a], [0x53, 0x17f], [
  0x73,
  0x17f,
]]);

/** Variants of an ASCII code point, without building the whole table. */
function asciiCaseVariants(cp: number): number[] {
  const isUpper = cp >= 0x41 && cp <= 0x5a;
  const isLower = cp >= 0x61 && cp <= 0x7a;
  if (!isUpper && !isLower) return [];
  const out = [isUpper ? cp + 0x20 : cp - 0x20];
  const extra = ASCII_EXTRA.get(cp);
  if (extra !== undefined) out.push(extra);
  return out;
}

/** The other code points `cp` matches case-insensitively (empty when it has no case). */
export function caseVariants(cp: number): readonly number[] {
  if (cp < 0x80) return asciiCaseVariants(cp);
  return caseOrbits().get(cp) ?? [];
}

/** `set` closed under simple case folding. */
export function caseFold(set: CharSet): CharSet {
  const added: CharRange[] = [];
  if (set.length === 0 || set[set.length - 1][1] < 0x80) {
    // ASCII only: the common case, answered without building the table.
    for (const [from, to] of set) {
      for (let cp = from; cp <= to; cp++) {
        for (const v of asciiCaseVariants(cp)) added.push([v, v]);
      }
    }
    return added.length === 0 ? set : normalize([...set, ...added]);
  }
  const table = caseOrbits();
  // Walk whichever is smaller: the set's members or the table of cased code points.
  if (size(set) < table.size) {
    for (const [from, to] of set) {
      for (let cp = from; cp <= to; cp++) {
        for (const v of table.get(cp) ?? []) added.push([v, v]);
      }
    }
  } else {
    for (const [cp, variants] of table) {
      if (contains(set, cp)) { for (const v of variants) added.push([v, v]); }
    }
  }
  return added.length === 0 ? set : normalize([...set, ...added]);
}
