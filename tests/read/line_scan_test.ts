import assert from "node:assert/strict";
import { scanLines } from "../../lib/read/line_scan.ts";

async function scanBytes(
  bytes: Uint8Array,
  window: { start: number; count: number; budget: number; capBytes?: number },
) {
  const path = await Deno.makeTempFile({ prefix: "shipcode_scan_" });
  try {
    await Deno.writeFile(path, bytes);
    using file = await Deno.open(path);
    return await scanLines(file, window, new AbortController().signal);
  } finally {
    await Deno.remove(path);
  }
}

const text = (s: string) => new TextEncoder().encode(s);
const ALL = { start: 1, count: 2000, budget: Infinity };

Deno.test("line scan: counts every line and formats the window like cat -n", async () => {
  const r = await scanBytes(text("a\nb\r\nc"), { start: 2, count: 1, budget: Infinity });
  assert.deepEqual(r, { total: 3, shown: ["     2\tb"], end: 2, firstNul: -1, capped: false });
});

Deno.test("line scan: the message cap counts each line twice in UTF-8 and says it cut", async () => {
  // "é" is one UTF-16 unit and two UTF-8 bytes: 100 lines of 50 are ~10 KB of each form.
  const lines = Array.from({ length: 100 }, () => "é".repeat(50)).join("\n") + "\n";
  const cap = 16 * 1024 + 2 * 10 * 110;
  const r = await scanBytes(text(lines), {
    start: 1,
    count: 2000,
    budget: Infinity,
    capBytes: cap,
  });
  assert.equal(r.shown.length, 10);
  assert.equal(r.capped, true);
  assert.equal(r.total, 100);
});

Deno.test("line scan: the budget stops the window at a line boundary", async () => {
  const lines = Array.from({ length: 100 }, (_, i) => `line ${i}`).join("\n") + "\n";
  const r = await scanBytes(text(lines), { start: 1, count: 2000, budget: 400 + 60 });
  assert.equal(r.total, 100);
  assert.ok(r.shown.length > 1 && r.shown.length < 10, String(r.shown.length));
  assert.equal(r.end, r.shown.length);
});

Deno.test("line scan: the first NUL byte makes the file binary, wherever it is", async () => {
  const big = new Uint8Array(700_000).fill(0x61);
  for (let i = 99; i < big.length; i += 100) big[i] = 10;
  for (const at of [0, 5, 256 * 1024 - 1, 256 * 1024, 699_998]) {
    const bytes = big.slice();
    bytes[at] = 0;
    const r = await scanBytes(bytes, ALL);
    assert.equal(r.firstNul, at, `NUL at ${at}`);
    assert.deepEqual(r.shown, []);
  }
  assert.equal((await scanBytes(big, ALL)).firstNul, -1);
});

Deno.test("line scan: a long line is cut at 2000 characters with the rest counted", async () => {
  const r = await scanBytes(text("é".repeat(2500) + "\n"), ALL);
  assert.equal(r.shown[0], `     1\t${"é".repeat(2000)}... [+500 chars]`);
});
