import assert from "node:assert/strict";
import { candidatePattern } from "../../lib/symbols/candidates.ts";

function matches(name: string, line: string, match: "exact" | "prefix" | "substring" = "exact") {
  const spec = candidatePattern(name, match, false);
  return new RegExp(spec.source, spec.flags).test(line);
}

Deno.test("candidates: a name with < or > is taken literally (not as ripgrep's \\< and \\>)", () => {
  assert.equal(matches("operator<", "bool operator<(const T&)"), true);
  assert.equal(matches("operator<", "operator = x"), false);
  assert.equal(matches("Vec<T>", "let v: Vec<T> = x"), true);
  assert.equal(matches("Vec<T>", "let v: Vec T = x"), false);
});

Deno.test("candidates: punctuation in a name is literal, word edges are word boundaries", () => {
  assert.equal(matches("$el", "this.$el = 1"), true);
  assert.equal(matches("a.b", "axb"), false);
  assert.equal(matches("foo", "foobar"), false);
  assert.equal(matches("foo", "foobar", "prefix"), true);
});
