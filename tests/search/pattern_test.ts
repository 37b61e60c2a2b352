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

Deno.test("pattern: compiled without the u flag by default", () => {
  assert.equal(spec("\\w+").flags, "");
});

Deno.test("pattern: \\p{ and \\u{ turn the u flag on", () => {
  assert.equal(spec("\\p{L}+").flags, "u");
  assert.equal(spec("\\u{1F600}").flags, "u");
});

Deno.test("pattern: rg-style identity escapes such as \\- stay valid", () => {
  assert.equal(spec("a\\-b").source, "a\\-b");
});

Deno.test("pattern: a leading (?i) becomes the i flag", () => {
  const s = spec("(?i)foo");
  assert.equal(s.source, "foo");
  assert.equal(s.flags, "i");
});

Deno.test("pattern: -i sets the i flag", () => {
  assert.equal(spec("foo", { ...plain, ignoreCase: true }).flags, "i");
});

Deno.test("pattern: a POSIX class is refused with a suggested range", () => {
  const e = error("[[:alpha:]]+");
  assert.match(e, /\[:alpha:\]/);
  assert.match(e, /\[a-zA-Z\]/);
});

Deno.test("pattern: an invalid regex quotes the parser message", () => {
  const e = error("foo(");
  assert.match(e, /^Invalid regex "foo\(": /);
  assert.match(e, /Unterminated group/);
});

Deno.test("pattern: a pattern starting with - is a pattern", () => {
  assert.equal(spec("-foo").source, "-foo");
});

Deno.test("pattern: fixed_strings escapes every metacharacter", () => {
  const s = spec("a.b*(c)[d]{2}|e\\f^$?+", { ...plain, fixedStrings: true });
  const re = new RegExp(s.source, s.flags);
  assert.equal(re.test("a.b*(c)[d]{2}|e\\f^$?+"), true);
  assert.equal(re.test("aXb*(c)[d]{2}|e\\f^$?+"), false);
});

Deno.test("pattern: fixed_strings does not read (?i) or POSIX classes", () => {
  assert.equal(spec("(?i)[[:alpha:]]", { ...plain, fixedStrings: true }).flags, "");
});
