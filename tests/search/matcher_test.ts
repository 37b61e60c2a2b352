import assert from "node:assert/strict";
import { createMatcher, WINDOW_CHARS } from "../../lib/search/matcher.ts";
import { contentLines } from "../../lib/search/content_lines.ts";
import { countInChunks, decodeForSearch } from "../../lib/search/decode.ts";
import { translatePattern } from "../../lib/search/pattern.ts";

function matcher(pattern: string, options: { i?: boolean; multiline?: boolean } = {}) {
  const r = translatePattern(pattern, {
    ignoreCase: options.i ?? false,
    fixedStrings: false,
    multiline: options.multiline ?? false,
  });
  if ("error" in r) throw new Error(r.error);
  return createMatcher(r.spec);
}

function lines(pattern: string, text: string, options: { i?: boolean; multiline?: boolean } = {}) {
  return matcher(pattern, options).scanText(text, { wantLines: true });
}

Deno.test("matcher: counts matching lines, not matches", () => {
  assert.deepEqual(lines("o", "foo foo\nbar\nfoo\n"), { count: 2, lines: [0, 2] });
});

Deno.test("matcher: a CR before LF is dropped, so $ matches before it", () => {
  assert.deepEqual(lines("foo$", "foo\r\nbar\r\n"), { count: 1, lines: [0] });
});

Deno.test("matcher: a match never spans lines", () => {
  assert.equal(lines("a\\sb", "a\nb\n").count, 0);
  assert.equal(lines("a[^x]b", "a\nb\n").count, 0);
  assert.equal(lines("a\\Wb", "a\nb\n").count, 0);
});

Deno.test("matcher: ^ and $ anchor at each line", () => {
  assert.deepEqual(lines("^b", "ab\nb\n"), { count: 1, lines: [1] });
});

Deno.test("matcher: a last line without LF is searched", () => {
  assert.deepEqual(lines("z", "a\nz"), { count: 1, lines: [1] });
});

Deno.test("matcher: an empty pattern matches every line but not after the final LF", () => {
  assert.equal(lines("", "a\nb\n").count, 2);
  assert.equal(lines("", "").count, 0);
});

Deno.test("matcher: the literal, whole-text and per-line strategies agree", () => {
  const text = "alpha_RESUME x\nbeta\n  PM_RESUME(1)\r\nfoo PM_RESUMEx\nlast PM_RESUME";
  // literal prefilter
  assert.equal(lines("PM_RESUME", text).count, 3);
  // whole-text scan (no required literal under i)
  assert.equal(lines("pm_resume", text, { i: true }).count, 3);
  // word-boundary assertions, some written as lookarounds
  assert.equal(lines("PM_RESUME\\b", text).count, 2);
  assert.equal(lines("\\b{start}PM_RESUME\\b{end}", text).count, 2);
  assert.equal(lines("(?:^|\\s)PM_RESUME\\b", text).count, 2);
});

Deno.test("matcher: a word-end assertion does not see the next line", () => {
  assert.deepEqual(lines("a\\b{end-half}", "a\nb\n"), { count: 1, lines: [0] });
  assert.deepEqual(lines("a\\b{end}", "xa\nb\n"), { count: 1, lines: [0] });
});

Deno.test("matcher: alternation of literals finds each line once", () => {
  assert.deepEqual(lines("foo|bar", "foo bar\nbaz\nbar\n"), { count: 2, lines: [0, 2] });
});

Deno.test("matcher: multiline counts matches when the pattern can match a newline", () => {
  assert.equal(lines("o\\nf|o\\nx", "foo foo\nfoo\nxx\n", { multiline: true }).count, 2);
  assert.equal(lines("start.*?end", "start\nmid\nend\nstart\nend\n", { multiline: true }).count, 2);
});

Deno.test("matcher: multiline counts lines when the pattern cannot match a newline", () => {
  assert.equal(lines("o", "foo foo\nfoo\nxx\n", { multiline: true }).count, 2);
});

Deno.test("matcher: multiline does not count an empty match where the last match ended, as ripgrep", () => {
  // ^\s*$ matches lines 2-3 as one match, then an empty one at line 4 where that match ended:
  // rg -c -U says 3 (lines 2-3, 6, 8) and shows lines 2, 3, 4, 6 and 8.
  const text = "a\n\n\n\nb\n  \nc\n\n";
  assert.deepEqual(lines("(?m)^\\s*$", text, { multiline: true }), {
    count: 3,
    lines: [1, 2, 3, 5, 7],
  });
  // Empty matches that do not touch the last match count (rg -c -U '\s*' on "ab\ncd": 4).
  assert.equal(lines("\\s*", "ab\ncd", { multiline: true }).count, 4);
});

Deno.test("matcher: multiline counts of patterns that can match empty equal rg -c -U --multiline-dotall", async () => {
  const dir = await Deno.makeTempDir({ prefix: "shipcode-empty-matches-" });
  try {
    const texts = ["ab\ncd", "ab\ncd\n", "ab", "a", "ab\n", "\n\n", "a\n\n\n\nb\n  \nc\n\n"];
    // Not `$` alone: docs/tools.md says how it differs on a last line without LF.
    const patterns = ["\\s*", "(?s).?", "a?\\n?", "(?m)^", "(?m)^\\s*$", "b$", "\\z", "x*"];
    for (const [k, text] of texts.entries()) {
      Deno.writeTextFileSync(`${dir}/${k}.txt`, text);
      for (const pattern of patterns) {
        const rg = new Deno.Command("rg", {
          args: ["-c", "-U", "--multiline-dotall", "-e", pattern, `${k}.txt`],
          cwd: dir,
          stdout: "piped",
          stderr: "piped",
        }).outputSync();
        const want = Number(new TextDecoder().decode(rg.stdout).trim() || "0");
        const got = lines(pattern, text, { multiline: true }).count;
        assert.equal(got, want, `${JSON.stringify(pattern)} on ${JSON.stringify(text)}`);
      }
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("matcher: multiline shows every line a match spans", () => {
  assert.deepEqual(lines("b\\nc", "a\nb\nc\nd\n", { multiline: true }).lines, [1, 2]);
});

Deno.test("decode: a NUL byte anywhere makes the file binary", () => {
  const bytes = new TextEncoder().encode("text\n".repeat(20000) + "\0");
  assert.equal(decodeForSearch(bytes), null);
});

Deno.test("decode: a UTF-8 BOM is dropped and multi-byte text kept", () => {
  const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode("é\n")]);
  assert.equal(decodeForSearch(bytes), "é\n");
});

Deno.test("content_lines: matches use :, context uses -, -- separates groups", () => {
  const text = Array.from({ length: 12 }, (_, i) => `line${i + 1}`).join("\n") + "\n";
  const out = contentLines("f", text, [2, 4, 9], { before: 1, after: 1, lineNumbers: true });
  assert.deepEqual(out, [
    "f-2-line2",
    "f:3:line3",
    "f-4-line4",
    "f:5:line5",
    "f-6-line6",
    "--",
    "f-9-line9",
    "f:10:line10",
    "f-11-line11",
  ]);
});

Deno.test("content_lines: without line numbers lines are path:text", () => {
  assert.deepEqual(contentLines("f", "a\nb\n", [1], { before: 1, after: 0, lineNumbers: false }), [
    "f-a",
    "f:b",
  ]);
});

Deno.test("content_lines: lines over 2000 characters are cut with the rest counted", () => {
  const out = contentLines("f", "x".repeat(2500) + "\n", [0], {
    before: 0,
    after: 0,
    lineNumbers: true,
  });
  assert.equal(out[0], `f:1:${"x".repeat(2000)}... [+500 chars]`);
});

Deno.test("decode: chunked counting equals whole-text counting across chunk edges", () => {
  const m = matcher("ab|^z$");
  const text = "\uFEFFab\n" + "xxab\nz\n".repeat(50) + "y".repeat(40) + "ab\n" + "tail ab";
  const bytes = new TextEncoder().encode(text);
  const whole = m.scanText(decodeForSearch(bytes)!, { wantLines: false }).count;
  for (const size of [1, 7, 16, 64, 1000]) assert.equal(countInChunks(bytes, m, size), whole);
});

Deno.test("decode: chunked counting skips a file with a late NUL", () => {
  const bytes = new TextEncoder().encode("ab\n".repeat(100) + "\0");
  assert.equal(countInChunks(bytes, matcher("ab"), 16), 0);
});

Deno.test("matcher: the windowed whole-text scan finds exactly the lines a per-line scan finds", () => {
  // Lines of every length around the window size, so that matches fall on window edges and
  // some lines are longer than a window.
  const lines: string[] = [];
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let k = 0; k < 3000; k++) {
    const len = next() < 0.02 ? Math.floor(WINDOW_CHARS * (0.5 + next())) : Math.floor(next() * 80);
    let line = "";
    while (line.length < len) {
      line += next() < 0.1 ? " " : String.fromCharCode(97 + (next() * 6) | 0);
    }
    if (next() < 0.05) line = line.slice(0, len >> 1) + "abc_de" + line.slice(len >> 1);
    lines.push(line);
  }
  const text = lines.join("\n") + "\n";
  assert.ok(text.length > 4 * WINDOW_CHARS);
  // No required literal: these take the whole-text regex scan.
  for (const pattern of ["[a-c]+_[d-e]", "^[ab]{2}", "[ef]$", "\\b[a-c]{3}\\b", "e\\s+f", "^$"]) {
    assert.equal(matcher(pattern).analysis.literals, null, pattern);
    const re = new RegExp(matcherSpecSource(pattern));
    const expected = lines.flatMap((l, i) => re.test(l) ? [i] : []);
    assert.deepEqual(lines_(pattern, text), expected, pattern);
  }
});

Deno.test("matcher: a line just after a window's end is searched from its first character", () => {
  const long = "q".repeat(WINDOW_CHARS + 10);
  const text = `${long}\nxy_m\n${long}\n${long}\nxx_z`;
  assert.equal(matcher("^x[xy]_[a-z]").analysis.literals, null);
  assert.deepEqual(lines("^x[xy]_[a-z]", text), { count: 2, lines: [1, 4] });
  assert.deepEqual(lines("q[a-z]$", text), { count: 3, lines: [0, 2, 3] });
});

function matcherSpecSource(pattern: string): string {
  const r = translatePattern(pattern, { ignoreCase: false, fixedStrings: false, multiline: false });
  if ("error" in r) throw new Error(r.error);
  return r.spec.source;
}

function lines_(pattern: string, text: string): number[] {
  return lines(pattern, text).lines ?? [];
}
