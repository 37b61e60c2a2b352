/** The pure parts of editing: the file's form, matching, closest lines, diffs (docs/tools.md). */
import assert from "node:assert/strict";
import { decodeText, fromPlain, plainInput, toPlain } from "../../lib/edits/text_form.ts";
import { lineNumbers, occurrences, replaceText } from "../../lib/edits/replace.ts";
import { closestLines } from "../../lib/edits/similar.ts";
import { budgetDiff, unifiedDiff } from "../../lib/edits/diff.ts";

Deno.test("text form: a CRLF file is edited as LF and written back as CRLF", () => {
  const { form, plain } = toPlain("a\r\nb\r\n");
  assert.deepEqual(form, { bom: false, crlf: true, finalNewline: true });
  assert.equal(plain, "a\nb\n");
  assert.equal(fromPlain("a\nX\nb\n", form), "a\r\nX\r\nb\r\n");
  assert.equal(plainInput("a\r\nb", form), "a\nb");
});

Deno.test("text form: a mixed file is edited as it is", () => {
  const { form, plain } = toPlain("a\r\nb\nc");
  assert.equal(form.crlf, false);
  assert.equal(plain, "a\r\nb\nc");
  assert.equal(fromPlain(plain, form), "a\r\nb\nc");
});

Deno.test("text form: the BOM is taken off for matching and put back", () => {
  const { form, plain } = toPlain("\uFEFFx = 1\n");
  assert.equal(form.bom, true);
  assert.equal(plain, "x = 1\n");
  assert.equal(fromPlain("x = 2\n", form), "\uFEFFx = 2\n");
});

Deno.test("text form: NUL bytes and invalid UTF-8 are not text", () => {
  assert.equal(decodeText(new Uint8Array([0x61, 0, 0x62])), "binary");
  assert.equal(decodeText(new Uint8Array([0x61, 0xff, 0x62])), "not-utf8");
  assert.equal(decodeText(new TextEncoder().encode("é")), "é");
});

Deno.test("replace: a unique match is replaced once", () => {
  const r = replaceText("one two three", "two", "2", false);
  assert.deepEqual(r, { kind: "ok", text: "one 2 three", replacements: 1, offsets: [4] });
});

Deno.test("replace: several matches without replace_all give every line number", () => {
  const r = replaceText("x\nfoo\ny\nfoo\nfoo bar\n", "foo", "baz", false);
  assert.deepEqual(r, { kind: "ambiguous", lines: [2, 4, 5], count: 3 });
});

Deno.test("replace: replace_all counts every non-overlapping occurrence", () => {
  const r = replaceText("aaaa\nab\n", "aa", "b", true);
  assert.deepEqual(r, { kind: "ok", text: "bb\nab\n", replacements: 2, offsets: [0, 2] });
  assert.deepEqual(occurrences("aaa", "aa"), [0]);
});

Deno.test("replace: a miss shows the closest lines with their numbers", () => {
  const text = "function alpha() {\n  return 1;\n}\nfunction beta() {\n  return 2;\n}\n";
  const r = replaceText(text, "function betta() {", "x", false);
  assert.equal(r.kind, "missing");
  if (r.kind !== "missing") return;
  assert.match(r.closest, /\s4\tfunction beta\(\) \{/);
});

Deno.test("replace: a multi-line miss shows the closest window", () => {
  const text = "a\nb\nlet x = 1;\nlet y = 2;\nc\n";
  const closest = closestLines(text, "let x = 1;\nlet y = 3;");
  assert.ok(closest.includes("     3\tlet x = 1;\n     4\tlet y = 2;"), closest);
});

Deno.test("replace: nothing close is said plainly", () => {
  assert.equal(closestLines("aaaa\nbbbb\n", "zzzzzz"), "no line of the file is close to it");
});

Deno.test("replace: line numbers of ascending offsets", () => {
  assert.deepEqual(lineNumbers("a\nb\nc", [0, 2, 4]), [1, 2, 3]);
});

Deno.test("diff: one changed line has three lines of context each side", async () => {
  const before = Array.from({ length: 20 }, (_, i) => `l${i + 1}\n`).join("");
  const after = before.replace("l10\n", "L10\n");
  const diff = await unifiedDiff("src/a.ts", before, after);
  assert.equal(
    diff,
    "--- a/src/a.ts\n+++ b/src/a.ts\n@@ -7,7 +7,7 @@\n l7\n l8\n l9\n-l10\n+L10\n l11\n l12\n l13",
  );
});

Deno.test("diff: a missing final newline is marked", async () => {
  const diff = await unifiedDiff("f", "a\nb", "a\nc");
  assert.equal(
    diff,
    "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file",
  );
});

Deno.test("diff: a new file is diffed against /dev/null; equal texts give no diff", async () => {
  assert.equal(await unifiedDiff("n", null, "x\n"), "--- /dev/null\n+++ b/n\n@@ -0,0 +1,1 @@\n+x");
  assert.equal(await unifiedDiff("n", "same\n", "same\n"), "");
});

Deno.test("diff: far-apart changes are separate hunks with right line numbers", async () => {
  const before = Array.from({ length: 40 }, (_, i) => `l${i + 1}\n`).join("");
  const after = before.replace("l5\n", "five\n").replace("l35\n", "thirty-five\n");
  const diff = await unifiedDiff("f", before, after);
  assert.match(diff, /@@ -2,7 \+2,7 @@/);
  assert.match(diff, /@@ -32,7 \+32,7 @@/);
});

Deno.test("diff: a rewrite too large for a bounded diff is one hunk", async () => {
  const before = Array.from({ length: 5000 }, (_, i) => `a${i}\n`).join("");
  const after = Array.from({ length: 5000 }, (_, i) => `b${i}\n`).join("");
  const diff = await unifiedDiff("f", before, after);
  assert.match(diff, /^--- a\/f\n\+\+\+ b\/f\n@@ -1,5000 \+1,5000 @@\n-a0\n/);
  assert.equal(diff.split("\n").length, 3 + 10000);
});

Deno.test("diff: the budget cuts at a line and says how many lines were left out", () => {
  const diff = Array.from({ length: 100 }, (_, i) => `+line ${i}`).join("\n");
  const cut = budgetDiff(diff, 300);
  assert.ok(cut.length <= 300);
  assert.match(cut, /\n\[\.\.\. \d+ more diff lines; \+\d+ -\d+ lines in all\]$/);
  assert.equal(budgetDiff(diff, 0), diff);
});

Deno.test("diff: the budget counts the JSON form (tabs and quotes take two characters)", () => {
  const diff = Array.from({ length: 200 }, () => '+\t"x"\t"y"').join("\n");
  const cut = budgetDiff(diff, 1000);
  assert.ok(JSON.stringify(cut).length <= 1000, `${JSON.stringify(cut).length}`);
  assert.match(cut, /\[\.\.\. \d+ more diff lines; \+\d+ -\d+ lines in all\]$/);
});
