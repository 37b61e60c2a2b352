import assert from "node:assert/strict";
import {
  ContentCollector,
  contentLines,
  type ContentOptions,
} from "../../lib/search/content_lines.ts";
import { cutLine } from "../../lib/read/long_lines.ts";

/** ripgrep's layout over a whole text, written plainly (the reference for both forms). */
function reference(text: string, matched: number[], options: ContentOptions): string[] {
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  const out: string[] = [];
  const isMatch = new Set(matched);
  const context = options.before > 0 || options.after > 0;
  let shownUpTo = -1;
  for (const m of matched) {
    const from = Math.max(0, m - options.before, shownUpTo + 1);
    const to = Math.min(lines.length - 1, m + options.after);
    if (context && shownUpTo >= 0 && from > shownUpTo + 1) out.push("--");
    for (let i = from; i <= to; i++) {
      const body = cutLine(lines[i].endsWith("\r") ? lines[i].slice(0, -1) : lines[i]);
      const sep = isMatch.has(i) ? ":" : "-";
      out.push(options.lineNumbers ? `f${sep}${i + 1}${sep}${body}` : `f${sep}${body}`);
    }
    if (to > shownUpTo) shownUpTo = to;
  }
  return out;
}

/** A small deterministic generator (mulberry32), so a failing seed can be replayed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Matching line indexes of `text` (lines holding "x"), relative to its first line. */
function matches(text: string): number[] {
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines.flatMap((line, i) => line.includes("x") ? [i] : []);
}

/** Cuts `text` into chunks that each end just after an LF (the last may not). */
function chunks(text: string, next: () => number): string[] {
  const out: string[] = [];
  let from = 0;
  while (from < text.length) {
    let end = Math.min(text.length, from + 1 + Math.floor(next() * 40));
    const nl = text.indexOf("\n", end - 1);
    end = nl < 0 ? text.length : nl + 1;
    out.push(text.slice(from, end));
    from = end;
  }
  return out;
}

Deno.test("ContentCollector: chunk by chunk gives exactly the whole text's content lines, context included", () => {
  for (let seed = 1; seed <= 400; seed++) {
    const next = random(seed);
    const lineCount = Math.floor(next() * 60);
    const lines: string[] = [];
    for (let i = 0; i < lineCount; i++) {
      const long = next() < 0.05;
      lines.push(
        (next() < 0.2 ? "x" : "a") + (long ? "b".repeat(2100) : `${i}`) +
          (next() < 0.1 ? "\r" : ""),
      );
    }
    const text = lines.join("\n") + (next() < 0.5 ? "\n" : "");
    const options: ContentOptions = {
      before: Math.floor(next() * 4),
      after: Math.floor(next() * 4),
      lineNumbers: next() < 0.8,
    };
    const whole = reference(text, matches(text), options);
    assert.deepEqual(contentLines("f", text, matches(text), options), whole, `seed ${seed}`);
    const collector = new ContentCollector("f", options);
    for (const chunk of chunks(text, next)) collector.add(chunk, matches(chunk));
    assert.deepEqual(collector.lines, whole, `seed ${seed}, options ${JSON.stringify(options)}`);
    const max = 1 + Math.floor(next() * 5);
    const capped = new ContentCollector("f", options, { maxLines: max });
    for (const chunk of chunks(text, next)) capped.add(chunk, matches(chunk));
    assert.deepEqual(capped.lines, whole.slice(0, max), `seed ${seed}, maxLines ${max}`);
  }
});

Deno.test("ContentCollector: before-context held across chunks is a bounded copy, not the chunk", () => {
  const options = { before: 2, after: 0, lineNumbers: true };
  const collector = new ContentCollector("f", options);
  collector.add("a1\n" + "y".repeat(5000) + "\nb3\n", []);
  collector.add("c4\nx5\n", [1]);
  assert.deepEqual(collector.lines, ["f-3-b3", "f-4-c4", "f:5:x5"]);
  const far = new ContentCollector("f", { before: 3, after: 1, lineNumbers: true });
  far.add("p1\np2\n", []);
  far.add("x3\n", [0]);
  far.add("q4\nq5\n", []);
  far.add("x6\n", [0]);
  assert.deepEqual(far.lines, ["f-1-p1", "f-2-p2", "f:3:x3", "f-4-q4", "f-5-q5", "f:6:x6"]);
});
