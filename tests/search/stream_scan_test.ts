import assert from "node:assert/strict";
import { createMatcher } from "../../lib/search/matcher.ts";
import { translatePattern } from "../../lib/search/pattern.ts";
import { scanStream } from "../../lib/search/stream_scan.ts";

const MIB = 1024 * 1024;
const hooks = { regexStart: () => {}, regexEnd: () => {} };
const content = { before: 1, after: 1, lineNumbers: true };

function matcher(pattern: string) {
  const r = translatePattern(pattern, { ignoreCase: false, fixedStrings: false, multiline: false });
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
  const text = "a needle\n" + "x".repeat(5 * MIB) + "\nneedle again\n";
  const out = await withFile(text, (file) =>
    scanStream(file, "f", matcher("needle"), {
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
