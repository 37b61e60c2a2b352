/**
 * Patterns that start with a run of one class (`[[:alpha:]]+[[:digit:]]+`, `\w+\d`, `.*x`) over
 * long runs of that class: tried at every position of a run, a backtracking engine reads the rest
 * of the run each time (quadratic: seconds on a 2.5 MB file of long words, stopped as too slow);
 * tried only where a run starts, each run is read once (lib/search/rust_regex/run_starts.ts).
 * The answers must equal ripgrep's, and the 2 s per-file stop must not fire.
 */
import assert from "node:assert/strict";
import { grepTool } from "../../lib/tools/grep.ts";
import { call, hasRipgrep, ripgrep, text, toolTest } from "./helpers.ts";
import { seededRandom } from "../helpers/random.ts";

/** About 2.5 MB of lowercase words of 2,000 to 20,000 letters, a few lines with a match. */
function longWords(): Record<string, string> {
  const rand = seededRandom(36);
  const letters = "abcdefghijklmnopqrstuvwxyz";
  const lines: string[] = [];
  let size = 0;
  while (size < 2_500_000) {
    const words: string[] = [];
    for (let w = 0; w < 25; w++) {
      const n = 2000 + Math.floor(rand() * 18000);
      let word = "";
      for (let i = 0; i < n; i++) word += letters[Math.floor(rand() * 26)];
      words.push(word);
    }
    if (lines.length % 3 === 1) words.push(`tail${lines.length}`);
    const line = words.join(" ");
    lines.push(line);
    size += line.length + 1;
  }
  return { "words.txt": lines.join("\n") + "\n", "small.txt": "abc123\nno digits\n" };
}

const PATTERNS = [
  "[[:alpha:]]+[[:digit:]]+",
  "[[:alpha:]]+[[:digit:]]",
  "\\w+\\d",
  "[a-z]*[0-9]",
  "(?:[[:alpha:]]+|x)[[:digit:]]+",
  "([a-z]+)[A-Z]",
];

toolTest(
  "grep: a leading run over long words answers in linear time, as rg does (needs rg)",
  longWords(),
  async (h) => {
    for (const pattern of PATTERNS) {
      const expected = ripgrep(h.root, ["-c", "--no-unicode", "-e", pattern]).split("\n")
        .filter((l) => l !== "").sort();
      const r = await call(grepTool, { pattern, output_mode: "count", head_limit: 0 }, h);
      assert.equal(r.isError, undefined, `${pattern}: ${text(r)}`);
      const counts = [...(r.structuredContent as { counts: string[] }).counts].sort();
      assert.deepEqual(counts, expected, pattern);
    }
  },
  {},
  !hasRipgrep(),
);
