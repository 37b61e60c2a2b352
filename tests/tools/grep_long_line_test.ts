/**
 * A file that is one very long line (issue: grep -F for a literal in a 200 MB single-line file
 * answered "No matches found" with no note, where ripgrep finds it). A pattern whose matches have
 * a bounded length is searched in windows over such a line, whatever its length; one that must
 * see the line whole (`needle.*`) skips a line over the hold bound and the answer says so.
 * The files are generated in the fixture folder a chunk at a time and removed afterwards.
 */
import assert from "node:assert/strict";
import { grepTool } from "../../lib/tools/grep.ts";
import { call, hasRipgrep, ripgrep, text, toolTest } from "./helpers.ts";
import { LONG_LINE_BYTES, MAX_HOLD_BYTES } from "../../lib/search/stream_scan.ts";

const MIB = 1024 * 1024;

/** Writes `bytes` bytes of one line of words to `path`, `needle` at each of `at` (and an LF). */
async function writeLongLine(path: string, bytes: number, needles: Map<number, string>) {
  const unit = new TextEncoder().encode("lorem ipsum dolor sit amet ".repeat(40_000));
  using file = await Deno.open(path, { write: true, create: true, truncate: true });
  for (let written = 0; written < bytes;) {
    const chunk = unit.slice(0, Math.min(unit.length, bytes - written));
    for (const [at, needle] of needles) {
      if (at >= written && at < written + chunk.length - needle.length) {
        chunk.set(new TextEncoder().encode(needle), at - written);
      }
    }
    await file.write(chunk);
    written += chunk.length;
  }
  await file.write(new TextEncoder().encode("\nsecond line needle\n"));
}

toolTest(
  "grep: a literal in a single line longer than a window is found as rg finds it (needs rg)",
  { "small.txt": "needle\n" },
  async (h) => {
    const size = LONG_LINE_BYTES + 4 * MIB;
    await writeLongLine(`${h.root}/one_line.txt`, size, new Map([[size - 5000, "needle-42"]]));
    for (
      const args of [
        { pattern: "needle-42", fixed_strings: true },
        { pattern: "NEEDLE-\\d+", "-i": true },
        { pattern: "needle", "-w": true },
        { pattern: "absent-word", fixed_strings: true },
      ]
    ) {
      const flags = ["-c", "--no-unicode"];
      if (args.fixed_strings) flags.push("-F");
      if (args["-i"]) flags.push("-i");
      if (args["-w"]) flags.push("-w");
      const expected = ripgrep(h.root, [...flags, "-e", args.pattern]).split("\n")
        .filter((l) => l !== "").sort();
      const r = await call(grepTool, { ...args, output_mode: "count", head_limit: 0 }, h);
      const counts = [...(r.structuredContent as { counts: string[] }).counts].sort();
      assert.deepEqual(counts, expected, args.pattern);
    }
    // The content line shows the match, cut around it, with the counts of what is left out.
    const shown = await call(grepTool, {
      pattern: "needle-42",
      fixed_strings: true,
      output_mode: "content",
      path: "one_line.txt",
    }, h);
    const first = text(shown).split("\n")[0];
    assert.match(
      first,
      /^one_line\.txt:1:\[\.\.\. \d+ chars\] .*needle-42.*\.\.\. \[\+\d+ chars\]$/,
    );
    const lead = Number(/\[\.\.\. (\d+) chars\]/.exec(first)![1]);
    assert.equal(lead, size - 5000 - 200);
  },
  {},
  !hasRipgrep(),
);

toolTest(
  "grep: a line over the hold bound that a pattern must see whole is skipped with a note",
  { "small.txt": "needle here\n" },
  async (h) => {
    await writeLongLine(`${h.root}/huge.txt`, MAX_HOLD_BYTES + MIB, new Map([[MIB, "needle"]]));
    const r = await call(grepTool, { pattern: "needle.*here|needle.*", head_limit: 0 }, h);
    const lines = text(r).split("\n");
    assert.equal(lines[0], "small.txt");
    assert.match(lines[1], /^Not searched: 1 file \("huge\.txt"\): each has a line over 128 MiB/);
    assert.equal((r.structuredContent as { note?: string }).note, lines[1]);
    // Named alone, the file is an error that says what can be searched in such a line.
    const alone = await call(grepTool, { pattern: "needle.*", path: "huge.txt" }, h);
    assert.equal(alone.isError, true);
    assert.match(
      text(alone),
      /line longer than 128 MiB.*a literal \(fixed_strings\) or a pattern of bounded length/,
    );
    // A literal is searched in windows over the same line.
    const literal = await call(grepTool, { pattern: "needle", fixed_strings: true }, h);
    assert.equal(text(literal), "huge.txt\nsmall.txt");
  },
);
