import assert from "node:assert/strict";
import { compileGlob, globFilter } from "../../lib/search/glob_match.ts";

function keeps(glob: string, path: string): boolean {
  return globFilter([glob])(path);
}

Deno.test("glob_match: a glob without / matches the basename at any depth", () => {
  assert.equal(keeps("*.ts", "a.ts"), true);
  assert.equal(keeps("*.ts", "src/deep/a.ts"), true);
  assert.equal(keeps("*.ts", "src/a.tsx"), false);
});

Deno.test("glob_match: a glob with / matches the whole relative path", () => {
  assert.equal(keeps("src/*.ts", "src/a.ts"), true);
  assert.equal(keeps("src/*.ts", "lib/src/a.ts"), false);
  assert.equal(keeps("src/*.ts", "src/sub/a.ts"), false);
});

Deno.test("glob_match: ** spans folders as a whole segment", () => {
  assert.equal(keeps("src/**/*.ts", "src/a.ts"), true);
  assert.equal(keeps("src/**/*.ts", "src/x/y/a.ts"), true);
  assert.equal(keeps("**/*.c", "drivers/net/a.c"), true);
  assert.equal(keeps("**/*.c", "a.c"), true);
  assert.equal(keeps("src/**", "src/x/y"), true);
});

Deno.test("glob_match: * and ? never cross /", () => {
  assert.equal(keeps("src/*", "src/a/b"), false);
  assert.equal(keeps("a?c", "a/c"), false);
  assert.equal(keeps("a?c", "abc"), true);
});

Deno.test("glob_match: {a,b} alternates, nested too", () => {
  assert.equal(keeps("*.{ts,tsx}", "x/a.tsx"), true);
  assert.equal(keeps("*.{ts,tsx}", "x/a.js"), false);
  assert.equal(keeps("{src,lib/{a,b}}/*.ts", "lib/b/x.ts"), true);
});

Deno.test("glob_match: dotfiles match and matching is case-sensitive", () => {
  assert.equal(keeps("*", ".env.example"), true);
  assert.equal(keeps("*.rc", ".bash.rc"), true);
  assert.equal(keeps("*.TS", "a.ts"), false);
});

Deno.test("glob_match: classes, negated classes and escapes", () => {
  assert.equal(keeps("*.[ch]", "a.h"), true);
  assert.equal(keeps("*.[!ch]", "a.h"), false);
  assert.equal(keeps("*.[!ch]", "a.o"), true);
  assert.equal(keeps("\\*.ts", "*.ts"), true);
  assert.equal(keeps("\\*.ts", "a.ts"), false);
});

Deno.test("glob_match: a leading ! excludes files and whole folders", () => {
  assert.equal(keeps("!*.min.js", "a.min.js"), false);
  assert.equal(keeps("!*.min.js", "a.js"), true);
  assert.equal(keeps("!vendor", "vendor/x/a.js"), false);
  assert.equal(keeps("!vendor", "src/a.js"), true);
});

Deno.test("glob_match: a leading / only anchors", () => {
  assert.equal(keeps("/a.ts", "a.ts"), true);
  assert.equal(keeps("/a.ts", "x/a.ts"), false);
});

Deno.test("glob_match: an unclosed brace is a RangeError naming the glob", () => {
  assert.throws(() => compileGlob("*.{ts"), /Invalid glob "\*\.\{ts": unclosed "\{"/);
});

Deno.test("glob_match: matching is linear-time: backtracking shapes against a 100-character name", () => {
  const name = "a".repeat(100);
  const started = performance.now();
  assert.equal(keeps("*a*a*a*a*a*a*a*a*a*a*a*c", name), false);
  assert.equal(keeps("*".repeat(30) + "c", name), false);
  assert.equal(keeps("**/".repeat(30) + "*a*a*a*a*c", `${name}/${name}/${name}`), false);
  assert.equal(keeps("*a*a*a*a*a*a*a*a*a*a*a*", name), true);
  assert.ok(performance.now() - started < 500);
});

Deno.test("glob_match: braces expand to at most 256 patterns and globs are at most 4096 characters", () => {
  assert.throws(() => compileGlob("{,}".repeat(30) + "c"), /braces expand to more than 256/);
  assert.throws(() => compileGlob("{a,b}".repeat(9)), /braces expand to more than 256/);
  assert.equal(keeps("{a,b}".repeat(8), "abababab"), true);
  assert.throws(() => compileGlob("{".repeat(5000) + "}".repeat(5000)), /longer than 4096/);
});

Deno.test("glob_match: *-suffix globs never cross / and later globs still win", () => {
  assert.equal(keeps("*.log", "x/a.log"), true);
  assert.equal(keeps("src/*.ts", "src/a/b.ts"), false);
  assert.equal(keeps("a/*.ts", "a/.ts"), true);
  assert.equal(globFilter(["*.ts", "!*.d.ts"])("x/a.d.ts"), false);
  assert.equal(globFilter(["!*.d.ts", "*.ts"])("x/a.d.ts"), true);
});
