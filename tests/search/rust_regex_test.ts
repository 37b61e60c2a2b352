/**
 * The dialect table: ripgrep patterns (the Rust regex crate's syntax) and the lines they must and
 * must not match once translated, plus the patterns that must be refused and what the error says
 * (docs/tools.md "Regex dialect"). Parity with rg itself: tests/search/rg_parity_test.ts.
 */
import assert from "node:assert/strict";
import { translatePattern } from "../../lib/search/pattern.ts";
import { parseRustRegex } from "../../lib/search/rust_regex/parse.ts";
import { RegexSyntaxError } from "../../lib/search/rust_regex/ast.ts";

interface Row {
  pattern: string;
  yes: string[];
  no: string[];
  i?: boolean;
}

const ROWS: Row[] = [
  // Anchors: per line, \A and \z are the line's ends
  { pattern: '\\A"""', yes: ['"""doc'], no: ['A"""', ' """'] },
  { pattern: "end\\z", yes: ["the end"], no: ["endz", "end "] },
  { pattern: "(?m)^def", yes: ["def f():"], no: ["  def f():"] },
  { pattern: "^$", yes: [""], no: [" "] },
  // Groups
  { pattern: "(?P<kw>def)", yes: ["def"], no: ["de f"] },
  { pattern: "(?<kw>def|class)", yes: ["class X"], no: ["clas"] },
  { pattern: "(?:ab)+c", yes: ["ababc"], no: ["ac"] },
  { pattern: "a|", yes: ["zzz"], no: [] },
  { pattern: "()", yes: [""], no: [] },
  // Inline flags anywhere, scoped to their group
  { pattern: "no_(?i)proxy", yes: ["no_PROXY", "no_Proxy"], no: ["NO_proxy"] },
  { pattern: "a(?i:b)c", yes: ["aBc"], no: ["aBC", "ABc"] },
  { pattern: "(?i)a(?-i)b", yes: ["Ab"], no: ["AB"] },
  { pattern: "(?i)k", yes: ["K", "k", "\u212a"], no: ["x"] },
  { pattern: "x(?i)[a-c]", yes: ["xB"], no: ["XB", "xD"] },
  { pattern: "(?i)[^a]", yes: ["b"], no: ["A", "a"] },
  { pattern: "caf(?i)É", yes: ["café", "cafÉ"], no: ["cafe"] },
  { pattern: "FOO", yes: ["foo"], no: ["bar"], i: true },
  { pattern: "(?-i)FOO", yes: ["FOO"], no: ["foo"], i: true },
  { pattern: "(?s)a.b", yes: ["a-b"], no: ["ab"] },
  { pattern: "(?x) d e f # comment\n ( x | y )", yes: ["defx", "defy"], no: ["d e f x"] },
  { pattern: "(?x)a\\ b[ c]\\#", yes: ["a bc#"], no: ["abc#", "a b #"] },
  { pattern: "(?U)a+", yes: ["a"], no: ["b"] },
  { pattern: "(?R)a$", yes: ["a"], no: ["b"] },
  { pattern: "(?u)\\w", yes: ["x"], no: ["-"] },
  // Repetitions
  { pattern: "^a{2}$", yes: ["aa"], no: ["a", "aaa"] },
  { pattern: "^a{2,}$", yes: ["aa", "aaaa"], no: ["a"] },
  { pattern: "^a{2,3}$", yes: ["aaa"], no: ["aaaa"] },
  { pattern: "^a{1, 3}$", yes: ["aaa"], no: ["aaaa"] },
  { pattern: "^a{2}?$", yes: ["aa"], no: ["a"] },
  { pattern: "^x{2}{3}$", yes: ["xxxxxx"], no: ["xxxxx"] },
  { pattern: "^a*?b+?c??$", yes: ["aabbc", "b"], no: ["ac"] },
  { pattern: "a**", yes: [""], no: [] },
  { pattern: "^*a", yes: ["a"], no: ["b"] },
  // Escapes
  { pattern: 'a\\-b\\.c\\/\\"', yes: ['a-b.c/"'], no: ['a-bxc/"'] },
  { pattern: "\\x41\\x{42}\\u0043\\u{44}\\U00000045\\U{46}", yes: ["ABCDEF"], no: ["ABCDE"] },
  { pattern: "\\x{1F600}", yes: ["smile \u{1F600}"], no: ["\u{1F601}"] },
  { pattern: "\\x{10FFFF}", yes: ["\u{10FFFF}"], no: ["x"] },
  { pattern: "\\t\\a\\f\\v\\r", yes: ["\t\x07\f\v\r"], no: ["t"] },
  {
    pattern: "a\\*\\+\\?\\(\\)\\|\\[\\]\\{\\}\\^\\$\\#\\&\\~",
    yes: ["a*+?()|[]{}^$#&~"],
    no: ["a"],
  },
  { pattern: "}]", yes: ["a}]"], no: ["]}"] },
  // Perl classes: ASCII, like rg --no-unicode
  { pattern: "^\\d+$", yes: ["0123456789"], no: ["\u0663", "1a"] },
  { pattern: "^\\w+$", yes: ["a_Z9"], no: ["\u00e9", "a-b"] },
  { pattern: "a\\sb", yes: ["a b", "a\tb", "a\vb"], no: ["a\u00a0b", "a\ufeffb"] },
  { pattern: "^\\D\\W\\S$", yes: ["x-y"], no: ["1-y"] },
  // Dot: every character but LF (CR and U+2028 too)
  { pattern: "^a.b$", yes: ["a\rb", "a\u2028b", "a\u00e9b"], no: ["ab"] },
  { pattern: "(?R)^a.b$", yes: ["a-b"], no: ["a\rb"] },
  // Word boundaries
  { pattern: "\\bfoo\\b", yes: ["a foo b"], no: ["foobar"] },
  { pattern: "\\Boo\\B", yes: ["fool"], no: ["oo"] },
  { pattern: "\\b{start}foo", yes: ["foo", "-foo"], no: ["afoo"] },
  { pattern: "foo\\b{end}", yes: ["foo-"], no: ["food"] },
  { pattern: "\\<foo\\>", yes: ["(foo)"], no: ["foot"] },
  { pattern: "\\b{start-half}foo", yes: ["-foo"], no: ["xfoo"] },
  { pattern: "-\\b{end-half}", yes: ["a- b"], no: ["a-b"] },
  { pattern: "\\b{2}a", yes: ["a"], no: ["ba"] },
  // Classes
  { pattern: "^[]a]+$", yes: ["]a]"], no: ["b"] },
  { pattern: "^[^]a]$", yes: ["b"], no: ["]"] },
  { pattern: "^[-a]+$", yes: ["-a"], no: ["b"] },
  { pattern: "^[a-]+$", yes: ["a-"], no: ["b"] },
  { pattern: "^[a-c-e]+$", yes: ["b-e"], no: ["d"] },
  { pattern: "[x[^xyz]]", yes: ["x", "a"], no: ["y", "z"] },
  { pattern: "^[a-z&&[^aeiou]]+$", yes: ["bcd"], no: ["bad"] },
  { pattern: "^[0-9--4]+$", yes: ["0123"], no: ["45"] },
  { pattern: "^[a-g~~b-h]+$", yes: ["ah"], no: ["b"] },
  { pattern: "^[a-y&&xyz]+$", yes: ["xy"], no: ["z"] },
  { pattern: "[a&&b]", yes: [], no: ["a", "b", "ab"] },
  { pattern: "^[\\w--\\d]+$", yes: ["ab_"], no: ["a1"] },
  { pattern: "^[^\\d\\s]+$", yes: ["ab"], no: ["a b"] },
  { pattern: "^[\\[\\]]+$", yes: ["[]"], no: ["x"] },
  { pattern: "^[\\x41-\\x43]+$", yes: ["ABC"], no: ["D"] },
  { pattern: "[&~]", yes: ["&", "~"], no: ["x"] },
  // POSIX classes inside a class; [:alpha:] alone is a plain class, as in the crate
  { pattern: "^[[:alpha:]]+$", yes: ["abcXYZ"], no: ["a1"] },
  { pattern: "^[[:^alpha:]]+$", yes: ["123"], no: ["a"] },
  { pattern: "^[[:alpha:][:digit:]_]+$", yes: ["a1_"], no: ["a-"] },
  { pattern: "^[[:xdigit:]]+$", yes: ["09afAF"], no: ["g"] },
  { pattern: "^[[:punct:]]+$", yes: ["!/:@[`{~"], no: ["a"] },
  { pattern: "^[[:space:]]+$", yes: [" \t\r\v\f"], no: ["x"] },
  { pattern: "^[:alpha:]+$", yes: [":alph"], no: ["b"] },
  { pattern: "(?i)^[[:upper:]]+$", yes: ["aB"], no: ["1"] },
  // Unicode classes
  { pattern: "^\\pL+$", yes: ["h\u00e9llo", "\u03b1\u03b2"], no: ["a1"] },
  { pattern: "^\\PL+$", yes: ["123"], no: ["a"] },
  { pattern: "^\\p{Greek}+$", yes: ["\u03b1\u03b2\u03b3"], no: ["abc"] },
  { pattern: "^\\p{greek}+$", yes: ["\u03a9"], no: ["a"] },
  { pattern: "^\\p{Is_Greek}+$", yes: ["\u03a9"], no: ["a"] },
  { pattern: "^\\p{sc=Latin}+$", yes: ["abc"], no: ["\u03a9"] },
  { pattern: "^\\p{scx!=Latin}+$", yes: ["\u03a9"], no: ["a"] },
  { pattern: "^\\P{Lu}+$", yes: ["abc"], no: ["aBc"] },
  { pattern: "^\\p{Uppercase_Letter}+$", yes: ["AB\u00c9"], no: ["a"] },
  { pattern: "^\\p{Nd}+$", yes: ["1\u0663"], no: ["x"] },
  { pattern: "^\\p{Emoji_Presentation}$", yes: ["\u{1F600}"], no: ["a"] },
  { pattern: "^\\pL$", yes: ["\u{10400}"], no: ["\u{1F600}"] },
  { pattern: "(?i)^\\p{Lu}+$", yes: ["ab"], no: ["1"] },
  { pattern: "^[\\pL--\\p{Greek}]+$", yes: ["abc"], no: ["\u03b1"] },
  { pattern: "^[\\p{Greek}&&\\p{Lu}]+$", yes: ["\u03a9"], no: ["\u03c9"] },
];

for (const row of ROWS) {
  const label = JSON.stringify(row.pattern) + (row.i ? " with -i" : "");
  Deno.test(`rust_regex: ${label} matches as in the crate`, () => {
    const r = translatePattern(row.pattern, {
      ignoreCase: row.i ?? false,
      fixedStrings: false,
      multiline: false,
    });
    if ("error" in r) throw new Error(r.error);
    assert.equal(r.spec.flags, "");
    const re = new RegExp(r.spec.source, r.spec.flags);
    for (const line of row.yes) {
      assert.equal(re.test(line), true, `${label} should match ${JSON.stringify(line)}`);
    }
    for (const line of row.no) {
      assert.equal(re.test(line), false, `${label} should not match ${JSON.stringify(line)}`);
    }
  });
}

/** Patterns the crate rejects or this project refuses, and what the error must say. */
const ERRORS: [string, RegExp][] = [
  ["\\1", /backreference "\\1" is not supported/],
  ["(a)\\1", /backreference/],
  ["(?P=name)", /backreference or recursion/],
  ["a(?=b)", /look-around "\(\?=" is not supported/],
  ["(?<!a)b", /look-around "\(\?<!" is not supported/],
  ["(?<=a)b", /look-around/],
  ["(?>a)", /atomic groups/],
  ["(?#c)", /comment groups/],
  ["(", /unclosed group/],
  ["(?:", /unclosed group/],
  ["a)", /unopened group/],
  ["[a", /unclosed character class/],
  ["[]", /unclosed character class/],
  ["\\", /incomplete escape sequence/],
  ["*a", /repetition operator "\*" has nothing to repeat/],
  ["a|*", /nothing to repeat/],
  ["(?i)*", /nothing to repeat/],
  ["{foo", /nothing to repeat/],
  ["a{", /unclosed counted repetition/],
  ["a{,3}", /expects a decimal number/],
  ["a{x}", /expects a decimal number/],
  ["a{1,2", /unclosed counted repetition|invalid counted repetition/],
  ["a{5,2}", /the start must be <= the end/],
  ["a{1001}", /above 1000/],
  ["[z-a]", /invalid range "z-a"/],
  ["[a-\\d]", /invalid range/],
  ["[\\b]", /assertion "\\b" is not allowed inside a character class/],
  ["[[:constructor:]]", /unknown POSIX class "\[:constructor:\]"/],
  ["[[:toString:]]", /unknown POSIX class "\[:toString:\]"/],
  ["[[:ALPHA:]]", /unknown POSIX class/],
  ["\\p{Foo}", /Unicode property "Foo" not found/],
  ["\\p{toString}", /Unicode property "toString" not found/],
  ["\\p{sc=Foo}", /value "Foo" not found/],
  ["\\p{age=3.0}", /"age" is not supported/],
  ["\\p{Greek", /unclosed Unicode class/],
  ["(?-u:\\pL)", /not allowed under \(\?-u\)/],
  ["(?-u)\\xFF", /raw byte/],
  ["\\x{110000}", /not a Unicode scalar value/],
  ["\\x{D800}", /not a Unicode scalar value/],
  ["\\xZZ", /invalid hexadecimal escape/],
  ["\\u{}", /invalid hexadecimal escape/],
  ["\\Z", /unrecognized escape sequence "\\Z"; use \\z/],
  ["\\e", /unrecognized escape sequence "\\e"/],
  ["\\Q", /unrecognized escape sequence/],
  ["\\0", /octal/],
  ["\\b{foo}", /unrecognized word boundary "\\b\{foo\}"/],
  ["(?z)", /unrecognized flag "z"/],
  ["(?ii)", /duplicate flag "i"/],
  ["(?i-m-s)", /negation "-" repeated/],
  ["(?i-)", /dangling flag negation/],
  ["(?)", /empty flag group/],
  ["(?P<>a)", /empty capture group name/],
  ["(?P<1a>a)", /invalid capture group name "1a"/],
  ["(?P<a>x)(?P<a>y)", /duplicate capture group name "a"/],
  ["(?P<a", /unclosed capture group name/],
  ["a\\nb", /can match a line break/],
  ["[\\n]", /can match a line break/],
];

for (const [pattern, message] of ERRORS) {
  Deno.test(`rust_regex: ${JSON.stringify(pattern)} is an error naming the problem`, () => {
    const r = translatePattern(pattern, {
      ignoreCase: false,
      fixedStrings: false,
      multiline: false,
    });
    assert.ok("error" in r, `expected an error for ${pattern}`);
    assert.match(r.error, message);
    assert.ok(r.error.startsWith(`Invalid regex "${pattern}": `), r.error);
    assert.doesNotMatch(r.error, /\n/);
  });
}

Deno.test("rust_regex: 30,000 nested groups are one sentence, not a stack overflow", () => {
  const pattern = "(".repeat(30_000) + "a" + ")".repeat(30_000);
  const r = translatePattern(pattern.slice(0, 16_000) + pattern.slice(-384), {
    ignoreCase: false,
    fixedStrings: false,
    multiline: false,
  });
  assert.ok("error" in r);
  assert.match(r.error, /nests groups or classes deeper than 250 levels/);
  assert.throws(() =>
    parseRustRegex("[".repeat(300) + "a" + "]".repeat(300), {
      caseInsensitive: false,
      dotAll: false,
    }), /deeper than 250/);
  assert.throws(() =>
    parseRustRegex("a" + "*".repeat(5000), {
      caseInsensitive: false,
      dotAll: false,
    }), /repetitions deeper than 250/);
});

Deno.test("rust_regex: an over-long pattern is refused with its length", () => {
  const r = translatePattern("(".repeat(30_000) + "a" + ")".repeat(30_000), {
    ignoreCase: false,
    fixedStrings: false,
    multiline: false,
  });
  assert.ok("error" in r);
  assert.match(r.error, /60001 characters long, more than the 16384 allowed/);
});

Deno.test("rust_regex: errors carry the position of the construct", () => {
  try {
    parseRustRegex("abc(?=x)", { caseInsensitive: false, dotAll: false });
    assert.fail("no error");
  } catch (error) {
    assert.ok(error instanceof RegexSyntaxError);
    assert.equal(error.position, 3);
  }
});

Deno.test("rust_regex: 250 nested groups are still fine", () => {
  const r = translatePattern("(".repeat(250) + "a" + ")".repeat(250), {
    ignoreCase: false,
    fixedStrings: false,
    multiline: false,
  });
  assert.ok("spec" in r);
});

Deno.test("rust_regex: multiline: ^ and $ are line anchors, \\A and \\z the file's ends", () => {
  const ml = { ignoreCase: false, fixedStrings: false, multiline: true };
  const src = (p: string) => {
    const r = translatePattern(p, ml);
    if ("error" in r) throw new Error(r.error);
    return new RegExp(r.spec.source, r.spec.flags + "g");
  };
  const text = "x\nfoo\nbar\rbaz\n";
  // (\n? makes the pattern able to span lines, so the whole file is the subject)
  assert.equal(text.match(src("^(foo|bar|baz)\\n?"))?.length, 2); // not after a lone CR
  assert.equal(text.match(src("\\n?(foo|bar|baz)$"))?.length, 2); // not before a lone CR
  assert.equal(src("\\Afoo").test(text), false);
  assert.equal(src("\\Ax\\n").test(text), true);
  assert.equal(src("baz\\n\\z").test(text), true);
  assert.equal(src("(?-m)^foo").test(text), false);
  assert.equal(src("foo.bar").test(text), true); // --multiline-dotall
  assert.equal(src("(?-s)foo.bar").test(text), false);
});

Deno.test("rust_regex: ASCII case folding agrees with the full table", () => {
  // The ASCII fast path must give what the Unicode table gives (k ~ U+212A, s ~ U+017F).
  for (const pattern of ["(?i)[a-z]", "(?i)k", "(?i)S", "(?i)[^a-z]"]) {
    const fast = translatePattern(pattern, {
      ignoreCase: false,
      fixedStrings: false,
      multiline: false,
    });
    const full = translatePattern(pattern.replace("(?i)", "(?i)(?:\\x{E9}|") + ")", {
      ignoreCase: false,
      fixedStrings: false,
      multiline: false,
    });
    if ("error" in fast || "error" in full) throw new Error("unexpected error");
    const a = new RegExp(`^(?:${fast.spec.source})$`);
    const b = new RegExp(`^(?:${full.spec.source})$`);
    for (let cp = 0; cp < 0x3000; cp++) {
      const ch = String.fromCharCode(cp);
      if (cp === 0xe9 || cp === 0xc9) continue;
      assert.equal(a.test(ch), b.test(ch), `${pattern} on U+${cp.toString(16)}`);
    }
  }
});
