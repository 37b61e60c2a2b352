import assert from "node:assert/strict";
import { seededRandom } from "../helpers/random.ts";
import { planQuery } from "../../lib/index/query/planner.ts";
import { format, type Query } from "../../lib/index/query/query.ts";

function plan(source: string, flags = ""): string {
  return format(planQuery(source, flags));
}

/** The trigrams the index records for a file's bytes (runs without LF or CR). */
function fileTrigrams(text: string): Set<number> {
  const bytes = new TextEncoder().encode(text);
  const out = new Set<number>();
  let t = 0;
  let run = 0;
  for (const b of bytes) {
    if (b === 10 || b === 13) {
      run = 0;
      continue;
    }
    t = ((t << 8) | b) & 0xffffff;
    if (++run >= 3) out.add(t);
  }
  return out;
}

function satisfies(q: Query, tris: Set<number>): boolean {
  switch (q.op) {
    case "all":
      return true;
    case "none":
      return false;
    case "tri":
      return tris.has(q.tri);
    case "and":
      return q.subs.every((s) => satisfies(s, tris));
    case "or":
      return q.subs.some((s) => satisfies(s, tris));
  }
}

Deno.test("planner: a literal needs all of its trigrams", () => {
  assert.equal(plan("PM_RESUME"), '"PM_" "M_R" "_RE" "RES" "ESU" "SUM" "UME"');
});

Deno.test("planner: an alternation is an OR of its branches", () => {
  assert.equal(plan("foo|bar"), '"foo" | "bar"');
  assert.equal(plan("(?:foo|bar)baz"), '("foo" "oob" | "bar" "arb") ("oba" | "rba") "baz"');
});

Deno.test("planner: a small class is expanded, a large or negated one is any character", () => {
  assert.equal(plan("ab[cd]"), '"abc" | "abd"');
  assert.equal(plan("[A-Z]+_RESUME"), '"_RE" "RES" "ESU" "SUM" "UME"');
  assert.equal(plan("ab[^x]cd"), "+");
  assert.equal(plan("ab.cd"), "+");
});

Deno.test("planner: -i asks for every case variant V8 matches", () => {
  assert.equal(plan("abc", "i"), '"ABC" | "ABc" | "AbC" | "Abc" | "aBC" | "aBc" | "abC" | "abc"');
  // With the u flag, "k" also matches the Kelvin sign and "s" the long s.
  const kelvin = planQuery("kkk", "iu");
  assert.ok(satisfies(kelvin, fileTrigrams("\u212Akk")));
  assert.ok(satisfies(planQuery("sss", "iu"), fileTrigrams("\u017Fss")));
  // A modifier group turns case folding on for its part only.
  assert.equal(plan("(?i:a)bcd"), '"Abc" "bcd" | "abc" "bcd"');
});

Deno.test("planner: anchors and word boundaries add nothing and take nothing away", () => {
  assert.equal(plan("^hello$"), '"hel" "ell" "llo"');
  assert.equal(plan("\\bfoo\\b"), '"foo"');
});

Deno.test("planner: optional parts and repetition keep only what every match holds", () => {
  assert.equal(plan("colou?r"), '"col" "olo" ("our" | "lor")');
  assert.equal(plan("(abc)*def"), '"def"');
  assert.equal(plan("a{2,5}bcd"), '"abc" "bcd"');
  assert.equal(plan("x(abc)+y"), '"abc" "xab" "bcy"');
});

Deno.test("planner: what it cannot vouch for widens to any", () => {
  assert.equal(plan("\\d+"), "+");
  assert.equal(plan("ab"), "+");
  assert.equal(plan("(?x)abc"), "+"); // not JavaScript syntax: the whole query widens
  assert.equal(plan("(a)\\1xyz"), '"xyz"'); // a backreference matches any string
  assert.equal(plan("abc(?=def)"), '"abc"'); // a lookahead adds nothing
  // Non-unicode "\p" is the letter p (any string here), then "{L}abc" is literal.
  assert.equal(plan("\\p{L}abc"), '"{L}" "L}a" "}ab" "abc"');
  assert.equal(plan("\\p{L}abc", "u"), '"abc"');
  assert.equal(plan("(?<=x)abc"), '"abc"');
});

Deno.test("planner: line ends, BOM and replacement characters never appear in a trigram", () => {
  assert.equal(plan("foo\\nbar"), '"foo" "bar"');
  assert.equal(plan("foo\\r\\nbar"), '"foo" "bar"');
  assert.equal(plan("ab\uFEFFcd"), "+");
  assert.equal(plan("ab\uFFFDcd"), "+");
  assert.equal(plan("\uD83D\uDE00ab"), "+"); // surrogates without u: code units, any
});

Deno.test("planner: non-ASCII characters are UTF-8 byte trigrams", () => {
  assert.ok(satisfies(planQuery("café", ""), fileTrigrams("un café")));
  assert.ok(!satisfies(planQuery("café", ""), fileTrigrams("un cafe")));
  assert.ok(satisfies(planQuery("\u{1F600}abc", "u"), fileTrigrams("x\u{1F600}abc")));
});

// Soundness, by property: whenever V8 finds a match in a line, the file satisfies the query.
const ALPHABET = ["a", "b", "c", "A", "B", "_", "é", "\u212A", "k", "K", " ", "ß", "x"];
const ATOMS = [
  "a",
  "b",
  "c",
  "k",
  "ab",
  "abc",
  "bca",
  "é",
  ".",
  "\\w",
  "\\d",
  "\\s",
  "[ab]",
  "[a-c]",
  "[^a]",
  "\\b",
  "^",
  "$",
  "K",
  "_",
  "\\x61",
  "\\u0062",
  "[kK]",
];

function randomPattern(rand: () => number, depth = 0): string {
  const n = 1 + Math.floor(rand() * 4);
  let out = "";
  for (let i = 0; i < n; i++) {
    const r = rand();
    let atom: string;
    if (r < 0.15 && depth < 2) {
      atom = `(${randomPattern(rand, depth + 1)}|${randomPattern(rand, depth + 1)})`;
    } else if (r < 0.2 && depth < 2) atom = `(?i:${randomPattern(rand, depth + 1)})`;
    else if (r < 0.25 && depth < 2) atom = `(?:${randomPattern(rand, depth + 1)})`;
    else atom = ATOMS[Math.floor(rand() * ATOMS.length)];
    const anchor = atom === "^" || atom === "$" || atom === "\\b";
    const q = rand();
    if (!anchor && q < 0.1) atom += "?";
    else if (!anchor && q < 0.15) atom += "*";
    else if (!anchor && q < 0.2) atom += "+";
    else if (!anchor && q < 0.25) atom += "{2}";
    else if (!anchor && q < 0.28) atom += "{1,3}";
    out += atom;
  }
  return out;
}

Deno.test("planner: every line V8 matches satisfies the query (random patterns and texts)", () => {
  const rand = seededRandom(1234);
  let matched = 0;
  for (let round = 0; round < 1500; round++) {
    const source = randomPattern(rand);
    const flags = ["", "i", "iu", "u"][Math.floor(rand() * 4)];
    let regex: RegExp;
    try {
      regex = new RegExp(source, flags);
    } catch {
      continue;
    }
    const q = planQuery(source, flags);
    for (let t = 0; t < 20; t++) {
      let line = "";
      const len = Math.floor(rand() * 12);
      for (let k = 0; k < len; k++) line += ALPHABET[Math.floor(rand() * ALPHABET.length)];
      if (!regex.test(line)) continue;
      matched++;
      assert.ok(
        satisfies(q, fileTrigrams(`zz\n${line}\nzz`)),
        `/${source}/${flags} matches ${JSON.stringify(line)} but the query ${
          format(q)
        } excludes it`,
      );
    }
  }
  assert.ok(matched > 1000, `only ${matched} matching lines: the property checked too little`);
});
