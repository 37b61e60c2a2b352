/**
 * Lines given to the Output as bytes (a relay's answers, lib/server/output.ts) go out in order
 * with the text lines, exactly as given, and can be retracted like them until written.
 */

import assert from "node:assert/strict";
import { JsonBytes } from "../../lib/jsonrpc/json_bytes.ts";
import { Output } from "../../lib/server/output.ts";

const encoder = new TextEncoder();

/** A sink that keeps every byte, each write apart; `gate` holds writes until opened. */
function sink() {
  const writes: Uint8Array[] = [];
  let open: () => void = () => {};
  let gate: Promise<void> | null = null;
  return {
    writes,
    hold() {
      gate = new Promise<void>((resolve) => open = resolve);
    },
    release() {
      gate = null;
      open();
    },
    async write(bytes: Uint8Array): Promise<number> {
      if (gate !== null) await gate;
      writes.push(bytes.slice());
      return bytes.length;
    },
    text(): string {
      const decoder = new TextDecoder();
      return writes.map((w) => decoder.decode(w, { stream: true })).join("") + decoder.decode();
    },
  };
}

function pieces(text: string, size: number): JsonBytes {
  const bytes = encoder.encode(text);
  const parts: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += size) parts.push(bytes.slice(at, at + size));
  return new JsonBytes(parts);
}

Deno.test("output: byte lines and text lines go out in order, exactly as given", async () => {
  const out = sink();
  const output = new Output(out, () => {});
  const large = `{"x":"${"é🦕".repeat(400_000)}"}\n`;
  output.send("one\n");
  output.send(pieces("two é\n", 3));
  output.send(pieces(large, 200_000));
  output.send("three\n");
  await output.flush();
  assert.ok(out.text() === `one\ntwo é\n${large}three\n`, "the lines differ from those sent");
  assert.equal(output.pendingChars, 0);
});

Deno.test("output: a byte line is retracted until its write begins", async () => {
  const out = sink();
  const output = new Output(out, () => {});
  out.hold();
  output.send("first\n");
  await new Promise((resolve) => setTimeout(resolve, 0));
  output.send(pieces("answer\n", 2), "7");
  output.send("last\n");
  assert.ok(output.retract("7"));
  out.release();
  await output.flush();
  assert.equal(out.text(), "first\nlast\n");
  assert.equal(output.pendingChars, 0);
});
