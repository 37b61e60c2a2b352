import assert from "node:assert/strict";
import { createMatcher } from "../../lib/search/matcher.ts";
import { translatePattern } from "../../lib/search/pattern.ts";
import { scanStream } from "../../lib/search/stream_scan.ts";
import { contentLines } from "../../lib/search/content_lines.ts";
import { seededRandom } from "../helpers/random.ts";

const MIB = 1024 * 1024;
const hooks = { regexStart: () => {}, regexEnd: () => {} };
const content = { before: 1, after: 1, lineNumbers: true };

function matcher(pattern: string, options: { ignoreCase?: boolean; wholeWords?: boolean } = {}) {
  const r = translatePattern(pattern, {
    ignoreCase: options.ignoreCase ?? false,
    fixedStrings: false,
    multiline: false,
    wholeWords: options.wholeWords ?? false,
  });
  if ("error" in r) throw new Error(r.error);
  return createMatcher(r.spec);
}

async function withFile<T>(text: string, fn: (file: Deno.FsFile) => T): Promise<T> {
  const path = await Deno.makeTempFile({ prefix: "shipcode-stream-" });
  try {
    await Deno.writeTextFile(path, text);
    using file = await Deno.open(path, { read: true });
    return fn(file);
  } finally {
    await Deno.remove(path);
  }
}

Deno.test("scanStream: a line longer than the hold bound makes the file too-long instead of growing without end", async () => {
  // A pattern of unbounded length must see a line that holds its literal whole; one of bounded
  // length need not.
  const text = "a needle\n" + "x".repeat(3 * MIB) + "needle" + "x".repeat(2 * MIB) +
    "\nneedle again\n";
  const out = await withFile(text, (file) =>
    scanStream(file, "f", matcher("needle.*"), {
      collect: true,
      content,
      hooks,
      maxHold: 4 * MIB,
    }));
  assert.deepEqual(out, { kind: "too-long" });
});

Deno.test("scanStream: a line longer than a chunk but within the bound is searched whole, with context across chunks", async () => {
  const text = "before\n" + "y".repeat(3 * MIB) + "needle\nafter\n";
  const out = await withFile(text, (file) =>
    scanStream(file, "f", matcher("needle"), {
      collect: true,
      content,
      hooks,
      maxHold: 4 * MIB,
    }));
  assert.equal(out.kind, "scanned");
  if (out.kind !== "scanned") return;
  assert.equal(out.count, 1);
  assert.equal(out.lines?.length, 3);
  assert.equal(out.lines?.[0], "f-1-before");
  assert.match(out.lines![1], /^f:2:\[\.\.\. \d+ chars\] y+needle$/);
  assert.equal(out.lines?.[2], "f-3-after");
});

/** A long line of words, some not ASCII (two- and four-byte UTF-8), with `needle`s put in. */
function longLine(rand: () => number, length: number, needles: number[], needle: string): string {
  const words = ["alpha", "beta", "caf\u00e9", "x\u{1F600}y", "gamma_1", "needl", "eedle"];
  let line = "";
  while (line.length < length) line += words[Math.floor(rand() * words.length)] + " ";
  for (const at of needles) line = line.slice(0, at) + needle + line.slice(at + needle.length);
  return line;
}

Deno.test("scanStream: a line too long to hold is searched in windows with the answers of a whole-line scan", async () => {
  const rand = seededRandom(8);
  const rows: [string, { ignoreCase?: boolean; wholeWords?: boolean }][] = [
    ["needle", {}],
    ["NEEDLE", { ignoreCase: true }],
    ["needle", { wholeWords: true }],
    ["\\bneedle\\b \\w{2}", {}],
    ["ne{2}dle [a-z]{1,4}", {}],
    ["(?:needle|x\\x{1F600})y?", {}],
    ["absent", {}],
  ];
  const ends = ["\n", "\r\n", ""];
  const places = [0, 1801, MIB - 3, 2 * MIB + 1, 3 * MIB - 40];
  for (let k = 0; k < places.length; k++) {
    const at = places[k];
    const line = longLine(rand, 3 * MIB, at === 0 ? [0] : [at, at + 3000], "needle");
    const text = "first\n" + line + ends[k % ends.length] + "last needle\n";
    for (const [pattern, options] of rows) {
      const m = matcher(pattern, options);
      assert.notEqual(m.analysis.maxWidth, null, pattern);
      const whole = m.scanText(text, { wantLines: true });
      const expected = contentLines("f", text, whole.lines ?? [], content, m.locate);
      const out = await withFile(
        text,
        (file) => scanStream(file, "f", m, { collect: true, content, hooks, maxHold: 2 * MIB }),
      );
      const label = `${pattern} at ${at}`;
      assert.equal(out.kind, "scanned", label);
      if (out.kind !== "scanned") continue;
      assert.equal(out.count, whole.count, label);
      assert.deepEqual(out.lines, expected, label);
    }
  }
});

Deno.test("scanStream: past the hold bound, a line without any required literal is answered, one with a literal is too-long", async () => {
  const m = matcher("needle.*x");
  assert.equal(m.analysis.maxWidth, null);
  const line = "x".repeat(3 * MIB);
  const text = "first\n" + line + "\nlast needle x\n";
  const out = await withFile(
    text,
    (file) => scanStream(file, "f", m, { collect: true, content, hooks, maxHold: 2 * MIB }),
  );
  assert.equal(out.kind, "scanned");
  if (out.kind !== "scanned") return;
  assert.equal(out.count, 1);
  assert.deepEqual(out.lines, [
    "f-2-" + line.slice(0, 2000) + `... [+${line.length - 2000} chars]`,
    "f:3:last needle x",
  ]);
  const withNeedle = "first\n" + "x".repeat(2 * MIB + 10) + "needle" + line + "\nlast\n";
  const held = await withFile(
    withNeedle,
    (file) => scanStream(file, "f", m, { collect: false, content, hooks, maxHold: 2 * MIB }),
  );
  assert.deepEqual(held, { kind: "too-long" });
});
