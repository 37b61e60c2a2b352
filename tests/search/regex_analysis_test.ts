import assert from "node:assert/strict";
import {
  canMatchNewline,
  hasTextAnchor,
  requiredLiterals,
} from "../../lib/search/regex_analysis.ts";
import { parseRustRegex } from "../../lib/search/rust_regex/parse.ts";

function ast(pattern: string, caseInsensitive = false) {
  return parseRustRegex(pattern, { caseInsensitive, dotAll: false });
}

Deno.test("regex_analysis: the longest literal run is required", () => {
  assert.deepEqual(requiredLiterals(ast("[A-Z]+_RESUME")), ["_RESUME"]);
});

Deno.test("regex_analysis: an alternation requires one of its branches", () => {
  assert.deepEqual(requiredLiterals(ast("ERR_SYS|PME_TURN_OFF")), ["ERR_SYS", "PME_TURN_OFF"]);
});

Deno.test("regex_analysis: optional parts are not required", () => {
  assert.deepEqual(requiredLiterals(ast("foo(bar)?baz")), ["foo"]);
  assert.equal(requiredLiterals(ast("(foo)?")), null);
});

Deno.test("regex_analysis: case-folded letters are not literals, caseless characters are", () => {
  assert.equal(requiredLiterals(ast("PM_RESUME", true)), null);
  assert.equal(requiredLiterals(ast("resume", true)), null);
  assert.deepEqual(requiredLiterals(ast("(?i)x_123_y")), ["_123_"]);
});

Deno.test("regex_analysis: a one-character literal is not worth a prefilter", () => {
  assert.equal(requiredLiterals(ast("a.b")), null);
  assert.equal(requiredLiterals(ast("[a-z]+_[a-z]+")), null);
  assert.deepEqual(requiredLiterals(ast("a.bc")), ["bc"]);
});

Deno.test("regex_analysis: counted repetitions of a literal are required", () => {
  assert.deepEqual(requiredLiterals(ast("ab{3}c")), ["abbbc"]);
  assert.deepEqual(requiredLiterals(ast("x{2,}yz")), ["xyz"]);
});

Deno.test("regex_analysis: newline-capable constructs are detected", () => {
  assert.equal(canMatchNewline(ast("a\\sb")), true);
  assert.equal(canMatchNewline(ast("(?s)a.b")), true);
  assert.equal(canMatchNewline(ast("a.b")), false);
  assert.equal(canMatchNewline(ast("[^x]")), true);
  assert.equal(canMatchNewline(ast("foo\\w+")), false);
});

Deno.test("regex_analysis: text anchors are detected, line anchors are not", () => {
  assert.equal(hasTextAnchor(ast("\\Afoo")), true);
  assert.equal(hasTextAnchor(ast("foo\\z")), true);
  assert.equal(hasTextAnchor(ast("(?-m)^foo")), true);
  assert.equal(hasTextAnchor(ast("^foo$")), false);
});
