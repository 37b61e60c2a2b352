import assert from "node:assert/strict";
import { translatePattern } from "../../lib/search/pattern.ts";

const plain = { ignoreCase: false, fixedStrings: false, multiline: false };

function spec(pattern: string, options = plain) {
  const r = translatePattern(pattern, options);
  if ("error" in r) throw new Error(r.error);
  return r.spec;
}

function error(pattern: string, options = plain): string {
  const r = translatePattern(pattern, options);
  assert.ok("error" in r, `expected an error for ${pattern}`);
  return r.error;
}

Deno.test("pattern: compiled without flags, even with Unicode classes and -i", () => {
  assert.equal(spec("\\w+").flags, "");
  assert.equal(spec("\\p{L}+").flags, "");
  assert.equal(spec("foo", { ...plain, ignoreCase: true }).flags, "");
});

Deno.test("pattern: -i folds case like (?i)", () => {
  const re = new RegExp(spec("foo", { ...plain, ignoreCase: true }).source);
  assert.equal(re.test("FoO"), true);
  assert.equal(re.test("fo"), false);
});

Deno.test("pattern: an invalid regex names the problem and what to do", () => {
  const e = error("foo(");
  assert.match(e, /^Invalid regex "foo\(": unclosed group/);
});

Deno.test("pattern: a pattern starting with - is a pattern", () => {
  assert.equal(new RegExp(spec("-foo").source).test("a -foo"), true);
});

Deno.test("pattern: fixed_strings matches every metacharacter literally", () => {
  const s = spec("a.b*(c)[d]{2}|e\\f^$?+", { ...plain, fixedStrings: true });
  const re = new RegExp(s.source, s.flags);
  assert.equal(re.test("a.b*(c)[d]{2}|e\\f^$?+"), true);
  assert.equal(re.test("aXb*(c)[d]{2}|e\\f^$?+"), false);
});

Deno.test("pattern: fixed_strings does not read (?i) or POSIX classes", () => {
  const s = spec("(?i)[[:alpha:]]", { ...plain, fixedStrings: true });
  const re = new RegExp(s.source, s.flags);
  assert.equal(re.test("x(?i)[[:alpha:]]"), true);
  assert.equal(re.test("(?I)[[:alpha:]]"), false);
});

Deno.test("pattern: fixed_strings with -i folds case", () => {
  const re = new RegExp(
    spec("a.B", { ignoreCase: true, fixedStrings: true, multiline: false }).source,
  );
  assert.equal(re.test("A.b"), true);
  assert.equal(re.test("AxB"), false);
});

Deno.test("pattern: required literals feed the fast path", () => {
  assert.deepEqual(spec("[A-Z]+_RESUME").analysis.literals, ["_RESUME"]);
  assert.deepEqual(spec("ERR_SYS|PME_TURN_OFF").analysis.literals, ["ERR_SYS", "PME_TURN_OFF"]);
  assert.deepEqual(spec("(?P<kw>def)").analysis.literals, ["def"]);
  assert.deepEqual(spec("no_(?i)proxy").analysis.literals, ["no_"]);
  assert.equal(spec("foo", { ...plain, ignoreCase: true }).analysis.literals, null);
});

Deno.test("pattern: multiline uses the whole file only when the pattern can span lines or uses \\A/\\z", () => {
  const ml = { ...plain, multiline: true };
  assert.equal(spec("a.b", ml).analysis.wholeFile, true); // --multiline-dotall
  assert.equal(spec("a\\nb", ml).analysis.wholeFile, true);
  assert.equal(spec("(?-s)a.b", ml).analysis.wholeFile, false);
  assert.equal(spec("\\Afoo", ml).analysis.wholeFile, true);
  assert.equal(spec("^foo$", ml).analysis.wholeFile, false);
});
