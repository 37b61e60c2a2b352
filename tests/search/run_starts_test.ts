/**
 * run_starts.ts: trying a leading run only where it starts keeps every line's answer (does the
 * line match, and where does its first match start), checked on random patterns and lines.
 */
import assert from "node:assert/strict";
import { parseRustRegex } from "../../lib/search/rust_regex/parse.ts";
import { toJsSource } from "../../lib/search/rust_regex/to_js.ts";
import { atRunStarts } from "../../lib/search/rust_regex/run_starts.ts";
import { seededRandom } from "../helpers/random.ts";

const HEADS = ["[a-c]+", "[a-c]*", "a+", "\\w+", "[[:alpha:]]{2,}", ".*", "[^b]+?", "\\s*"];
const TAILS = ["[0-9]+", "b", "\\d", "$", "c\\b", "(?:ab|1)", "", "[a-c]"];

Deno.test("run_starts: lines and first match starts are unchanged on random patterns", () => {
  const rand = seededRandom(7);
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
  const alphabet = "abc1 _-";
  let changed = 0;
  for (let round = 0; round < 400; round++) {
    const head = pick(HEADS);
    const pattern = rand() < 0.3
      ? `(?:${head}${pick(TAILS)}|${pick(HEADS)}${pick(TAILS)})`
      : `(${head})${pick(TAILS)}`;
    const ast = parseRustRegex(pattern, { caseInsensitive: false, dotAll: false });
    const plain = new RegExp(toJsSource(ast, "line"));
    const source = toJsSource(atRunStarts(ast), "line");
    if (source !== plain.source) changed++;
    const runs = new RegExp(source);
    for (let k = 0; k < 20; k++) {
      let line = "";
      const n = Math.floor(rand() * 12);
      for (let i = 0; i < n; i++) line += pick([...alphabet]);
      assert.equal(runs.exec(line)?.index, plain.exec(line)?.index, `${pattern} on ${line}`);
    }
  }
  assert.ok(changed > 300, `${changed} patterns rewritten`);
});

Deno.test("run_starts: a leading run is tried where it starts, nothing else changes", () => {
  const js = (p: string) =>
    toJsSource(atRunStarts(parseRustRegex(p, { caseInsensitive: false, dotAll: false })), "line");
  assert.equal(js("[[:alpha:]]+[[:digit:]]+"), "(?<![A-Za-z])[A-Za-z]+[0-9]+");
  assert.equal(js("a{2}b"), "aab");
  assert.equal(js("x[a-z]+1"), "x[a-z]+1");
});
