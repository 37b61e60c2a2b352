/**
 * The pieces of read before write by lines shown (docs/tools.md "Read before write") and of the
 * explained misses: the shown-line ranges, the cut forms a line may be shown in, and the causes a
 * model cannot see.
 */
import assert from "node:assert/strict";
import { lineCount, missingLines, ReadTracker } from "../../lib/edits/read_tracker.ts";
import { cutAround, parseContentLine, shownTextMatches } from "../../lib/search/content_lines.ts";
import { explainMiss } from "../../lib/edits/miss.ts";

const STATE = { size: 10, mtimeMs: 0, sha256: "v1", lines: 100 };

Deno.test("read tracker: shown ranges merge, and the lines missing from a span are named", () => {
  const t = new ReadTracker();
  t.record("/a", STATE, [{ start: 10, end: 20 }, { start: 21, end: 25 }, { start: 40, end: 40 }]);
  assert.deepEqual(t.missing("/a", { start: 18, end: 24 }), []);
  assert.deepEqual(t.missing("/a", { start: 24, end: 42 }), [
    { start: 26, end: 39 },
    { start: 41, end: 42 },
  ]);
  assert.deepEqual(t.missing("/b", { start: 1, end: 2 }), [{ start: 1, end: 2 }]);
});

Deno.test("read tracker: a newer version shown starts afresh; the same version adds up", () => {
  const t = new ReadTracker();
  t.record("/a", STATE, [{ start: 1, end: 50 }]);
  t.record("/a", STATE, [{ start: 51, end: 100 }]);
  assert.deepEqual(t.missing("/a", { start: 1, end: 100 }), []);
  t.record("/a", { ...STATE, sha256: "v2" }, [{ start: 5, end: 5 }]);
  assert.deepEqual(t.missing("/a", { start: 4, end: 6 }), [
    { start: 4, end: 4 },
    { start: 6, end: 6 },
  ]);
  assert.equal(t.get("/a")!.sha256, "v2");
});

Deno.test("read tracker: a move keeps what was shown under the new name", () => {
  const t = new ReadTracker();
  t.record("/a", STATE, "all");
  t.rename("/a", "/b");
  assert.equal(t.get("/a"), undefined);
  assert.deepEqual(t.missing("/b", { start: 1, end: 100 }), []);
});

Deno.test("read tracker: lines are counted as read_file counts them", () => {
  const enc = (s: string) => new TextEncoder().encode(s);
  assert.equal(lineCount(enc("")), 0);
  assert.equal(lineCount(enc("a")), 1);
  assert.equal(lineCount(enc("a\n")), 1);
  assert.equal(lineCount(enc("a\nb")), 2);
  assert.deepEqual(missingLines([], { start: 3, end: 4 }), [{ start: 3, end: 4 }]);
});

Deno.test("content lines: a long line is cut around a match past its first 2000 characters", () => {
  const line = `${"a".repeat(3000)}MATCH${"b".repeat(10)}`;
  const cut = cutAround(line, 3000);
  assert.equal(cut, `[... 2800 chars] ${"a".repeat(200)}MATCH${"b".repeat(10)}`);
  assert.ok(shownTextMatches(line, cut));
  const early = cutAround(`MATCH${"c".repeat(3000)}`, 0);
  assert.equal(early, `MATCH${"c".repeat(1995)}... [+1005 chars]`);
  assert.ok(shownTextMatches(`MATCH${"c".repeat(3000)}`, early));
  assert.ok(!shownTextMatches(`MATCH${"d".repeat(3000)}`, early));
  assert.ok(!shownTextMatches("other", "another"));
});

Deno.test("content lines: a grep line of a known path gives its number and text", () => {
  assert.deepEqual(parseContentLine("a-1-b.ts", "a-1-b.ts:12:x = 1"), { line: 12, text: "x = 1" });
  assert.deepEqual(parseContentLine("a.ts", "a.ts-3-  ctx"), { line: 3, text: "  ctx" });
  assert.equal(parseContentLine("a.ts", "--"), null);
  assert.equal(parseContentLine("a.ts", "a.ts:text without number"), null);
});

Deno.test("miss: read_file's line-number prefix is named, with the text to send", () => {
  assert.equal(
    explainMiss("def f():\n    return 1\n", "     1\tdef f():\n     2\t    return 1", "p.py"),
    `old_string starts its lines with read_file's line-number prefix ("     1\\t"); send only ` +
      `the text after each line's tab, here "def f():\\n    return 1"`,
  );
});

Deno.test("miss: line endings that alone explain a miss are named with the exact text", () => {
  assert.equal(
    explainMiss("a\r\nb\nc\r\n", "b\nc\n", "m.txt"),
    "old_string differs from m.txt only in line endings (the file mixes CRLF and LF line " +
      'endings, and read_file does not show the CR); send old_string exactly as "b\\nc\\r\\n"',
  );
  // CRLF sent to an LF file.
  assert.match(explainMiss("a\nb\n", "a\r\nb", "l.txt")!, /the file uses LF.*"a\\nb"$/);
  // A real miss is not explained away.
  assert.equal(explainMiss("a\r\nb\n", "zzz", "m.txt"), null);
  assert.equal(explainMiss("plain\n", "other", "m.txt"), null);
});
