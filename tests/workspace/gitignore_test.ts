import assert from "node:assert/strict";
import { IgnoreFile } from "../../lib/workspace/gitignore.ts";

function ignored(patterns: string, path: string, isDir = false): boolean {
  return new IgnoreFile(patterns).match(path, isDir) === 1;
}

Deno.test("IgnoreFile: a pattern without a slash matches the name at any depth", () => {
  assert.ok(ignored("*.log", "a.log"));
  assert.ok(ignored("*.log", "deep/er/a.log"));
  assert.ok(!ignored("*.log", "a.log.txt"));
});

Deno.test("IgnoreFile: a leading or middle slash anchors the pattern to the file's folder", () => {
  assert.ok(ignored("/build", "build", true));
  assert.ok(!ignored("/build", "src/build", true));
  assert.ok(ignored("doc/frotz", "doc/frotz"));
  assert.ok(!ignored("doc/frotz", "a/doc/frotz"));
});

Deno.test("IgnoreFile: a trailing slash matches folders only", () => {
  assert.ok(ignored("out/", "out", true));
  assert.ok(!ignored("out/", "out", false));
});

Deno.test("IgnoreFile: the last matching line wins and ! re-includes", () => {
  assert.ok(!ignored("*.log\n!keep.log", "keep.log"));
  assert.equal(new IgnoreFile("*.log\n!keep.log").match("keep.log", false), -1);
  assert.ok(ignored("!keep.log\n*.log", "keep.log"));
});

Deno.test("IgnoreFile: ** matches across folders in leading, middle and trailing position", () => {
  assert.ok(ignored("**/foo", "a/b/foo"));
  assert.ok(ignored("**/foo", "foo"));
  assert.ok(ignored("a/**/b", "a/b"));
  assert.ok(ignored("a/**/b", "a/x/y/b"));
  assert.ok(ignored("abc/**", "abc/x/y"));
  assert.ok(!ignored("abc/**", "abc", true));
});

Deno.test("IgnoreFile: * and ? never cross a slash", () => {
  assert.ok(!ignored("a/*.c", "a/b/x.c"));
  assert.ok(ignored("a/?.c", "a/x.c"));
  assert.ok(!ignored("a?b", "a/b"));
});

Deno.test("IgnoreFile: character classes, ranges and negation", () => {
  assert.ok(ignored("*.[oa]", "x.o"));
  assert.ok(ignored("file[0-9]", "file7"));
  assert.ok(!ignored("file[!0-9]", "file7"));
  assert.ok(ignored("file[!0-9]", "filex"));
});

Deno.test("IgnoreFile: comments, blank lines, escapes and trailing spaces", () => {
  assert.ok(!ignored("# comment", "# comment"));
  assert.ok(ignored("\\#hash", "#hash"));
  assert.ok(ignored("\\!bang", "!bang"));
  assert.ok(ignored("trail   ", "trail"));
  assert.ok(ignored("sp\\ ", "sp "));
  assert.ok(ignored("a\\*b", "a*b"));
  assert.ok(!ignored("a\\*b", "axb"));
  assert.ok(ignored("crlf\r\n", "crlf"));
});

Deno.test("IgnoreFile: /* ignores every top-level entry", () => {
  assert.ok(ignored("/*", "Makefile"));
  assert.ok(ignored("/*", "kernel", true));
});

Deno.test("IgnoreFile: regex metacharacters in names are literal", () => {
  assert.ok(ignored("a+b(c).txt", "a+b(c).txt"));
  assert.ok(!ignored("a.txt", "abtxt"));
});

Deno.test("gitignore: matching is linear-time: a backtracking rule against a 100-character name", () => {
  const file = new IgnoreFile("*a*a*a*a*a*a*a*a*a*a*a*c\n**/**/**/**/**/**/**/**/*a*a*a*a*c\n");
  const started = performance.now();
  assert.equal(file.match("a".repeat(100), false), 0);
  assert.equal(file.match(`${"a".repeat(50)}/`.repeat(8) + "a".repeat(50), false), 0);
  assert.ok(performance.now() - started < 500);
});

Deno.test("gitignore: a file over its bounds is refused with a RangeError, a closed one ignores all", () => {
  assert.throws(() => new IgnoreFile("a\nb\nc\n", { maxRules: 2 }), /more than 2 rules/);
  assert.throws(() => new IgnoreFile("*a*\n*b*\n", { maxStates: 5 }), /longer than 5 steps/);
  assert.equal(IgnoreFile.closed().match("anything/at/all", false), 1);
});

Deno.test("gitignore: *.ext rules, their negations and folder-only rules keep the last-rule-wins order", () => {
  const file = new IgnoreFile("*.log\n!keep.log\n*.tmp/\nbuild\n");
  assert.equal(file.match("a/b.log", false), 1);
  assert.equal(file.match("keep.log", false), -1);
  assert.equal(file.match("x.tmp", false), 0);
  assert.equal(file.match("x.tmp", true), 1);
  assert.equal(file.match("src/build", true), 1);
});
