/**
 * The relay's reader of daemon frames (lib/daemon/byte_lines.ts, frames.ts): wherever the reads
 * split the stream, every frame comes out whole, and a result's JSON is its exact bytes.
 */

import assert from "node:assert/strict";
import { ByteLines } from "../../lib/daemon/byte_lines.ts";
import {
  decodeDaemonFrame,
  errorFrame,
  progressFrame,
  resultFrame,
} from "../../lib/daemon/frames.ts";
import { RpcError } from "../../lib/jsonrpc/errors.ts";
import type { JsonBytes } from "../../lib/jsonrpc/json_bytes.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Feeds `stream` to a ByteLines in reads of `sizes` (cycled); the lines it gives. */
function split(stream: Uint8Array, sizes: number[], max = 1 << 30, readSize = 64): JsonBytes[] {
  const lines = new ByteLines(max, readSize);
  const out: JsonBytes[] = [];
  let at = 0;
  for (let k = 0; at < stream.length; k++) {
    const buffer = lines.buffer();
    const n = Math.min(sizes[k % sizes.length], buffer.length, stream.length - at);
    buffer.set(stream.subarray(at, at + n));
    at += n;
    out.push(...lines.push(n));
  }
  return out;
}

function joined(line: JsonBytes): Uint8Array {
  const all = new Uint8Array(line.length);
  let at = 0;
  for (const part of line.parts) {
    all.set(part, at);
    at += part.length;
  }
  return all;
}

const big = JSON.stringify({ text: 'é日本🦕"\\\n'.repeat(4000) });
const frames = [
  resultFrame(0, '{"a":1}'),
  progressFrame(7, 1, 2, "half"),
  resultFrame(123456789012, big),
  errorFrame(3, new RpcError(-32602, "Invalid cursor")),
  resultFrame(4, "{}"),
];
const stream = encoder.encode(frames.join(""));

Deno.test("byte lines: every split of the stream gives the same frames, results as their bytes", () => {
  for (const sizes of [[1], [2, 3], [7], [13, 1, 64], [64], [5000, 1]]) {
    const lines = split(stream, sizes, 1 << 30, sizes.includes(5000) ? 20_000 : 64);
    assert.equal(lines.length, frames.length, `reads of ${sizes}`);
    const decoded = lines.map(decodeDaemonFrame);
    assert.deepEqual(decoded.map((f) => f.kind), [
      "result",
      "progress",
      "result",
      "error",
      "result",
    ]);
    const results = decoded.filter((f) => f.kind === "result");
    assert.deepEqual(results.map((f) => f.n), [0, 123456789012, 4]);
    assert.deepEqual(
      results.map((f) => decoder.decode(joined(f.json))),
      ['{"a":1}', big, "{}"],
    );
    assert.equal(results[1].json.text(), big);
  }
});

Deno.test("byte lines: medium results read into one buffer one after the other stay intact", () => {
  const texts = Array.from(
    { length: 40 },
    (_, i) => JSON.stringify({ i, pad: `${i}`.repeat(9000) }),
  );
  const stream = encoder.encode(texts.map((text, i) => resultFrame(i, text)).join(""));
  for (const sizes of [[100_000], [30_000, 70_000], [262_144]]) {
    const lines = split(stream, sizes, 1 << 30, 256 * 1024);
    const decoded = lines.map(decodeDaemonFrame);
    assert.deepEqual(
      decoded.map((f) => f.kind === "result" ? [f.n, f.json.text()] : f.kind),
      texts.map((text, i) => [i, text]),
      `reads of ${sizes}`,
    );
  }
});

Deno.test("byte lines: a line over the cap is dropped whole and the next one comes out", () => {
  const text = encoder.encode(`R 1 ${"x".repeat(300)}\nR 2 {}\n`);
  const lines = split(text, [10], 100);
  assert.equal(lines.length, 1);
  const frame = decodeDaemonFrame(lines[0]);
  assert.ok(frame.kind === "result");
  assert.deepEqual([frame.n, frame.json.text()], [2, "{}"]);
});

Deno.test("byte lines: a malformed result head is not a result", () => {
  for (const line of ["R x {}", "R  {}", "R 1{}", "R", "Rx 1 {}", "R 1234567890123456 {}"]) {
    const [only] = split(encoder.encode(`${line}\n`), [64]);
    assert.equal(decodeDaemonFrame(only).kind, "invalid", line);
  }
});
