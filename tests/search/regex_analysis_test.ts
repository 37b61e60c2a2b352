import assert from "node:assert/strict";
import { analyzeRegex } from "../../lib/search/regex_analysis.ts";

Deno.test("regex_analysis: the longest literal run is required", () => {
  assert.deepEqual(analyzeRegex("[A-Z]+_RESUME", "").literals, ["_RESUME"]);
});

Deno.test("regex_analysis: an alternation requires one of its branches", () => {
  assert.deepEqual(analyzeRegex("ERR_SYS|PME_TURN_OFF", "").literals, ["ERR_SYS", "PME_TURN_OFF"]);
});

Deno.test("regex_analysis: optional parts are not required", () => {
  assert.deepEqual(analyzeRegex("foo(bar)?baz", "").literals, ["foo"]);
  assert.equal(analyzeRegex("(foo)?", "").literals, null);
});

Deno.test("regex_analysis: no literals under the i flag", () => {
  assert.equal(analyzeRegex("PM_RESUME", "i").literals, null);
});

Deno.test("regex_analysis: lookarounds are reported", () => {
  assert.equal(analyzeRegex("a(?=b)", "").lookaround, true);
  assert.equal(analyzeRegex("(?<!x)a", "").lookaround, true);
  assert.equal(analyzeRegex("(?:a)b", "").lookaround, false);
});

Deno.test("regex_analysis: newline-capable constructs are detected", () => {
  assert.equal(analyzeRegex("a\\sb", "").canMatchNewline, true);
  assert.equal(analyzeRegex("a.b", "s").canMatchNewline, true);
  assert.equal(analyzeRegex("a.b", "").canMatchNewline, false);
  assert.equal(analyzeRegex("[^x]", "").canMatchNewline, true);
  assert.equal(analyzeRegex("foo\\w+", "").canMatchNewline, false);
});

Deno.test("regex_analysis: the line source keeps \\s and negated classes off newlines", () => {
  const source = analyzeRegex("a\\s[^x]\\W\\D", "").lineSource;
  const re = new RegExp(source);
  assert.equal(re.test("a \t-z"), true);
  assert.equal(re.test("a\n\t-z"), false);
  assert.equal(re.test("a \n-z"), false);
});

Deno.test("regex_analysis: counted repetitions of one character are written out", () => {
  assert.equal(analyzeRegex("\\w{3}x{2,}y{1,3}", "").lineSource, "\\w\\w\\wxxx*y(?:y){0,2}");
  assert.equal(analyzeRegex("(ab){2}z{2}?", "").lineSource, "(ab){2}z{2}?");
});
