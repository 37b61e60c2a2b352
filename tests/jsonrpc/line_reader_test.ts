import assert from "node:assert/strict";
import { type LineEvent, LineSplitter } from "../../lib/jsonrpc/line_reader.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

/** Feeds the chunks as a stream would, then the end of input. */
function lines(chunks: Uint8Array[], cap = 1024): LineEvent[] {
  const splitter = new LineSplitter(cap);
  return [...chunks.flatMap((chunk) => splitter.push(chunk)), ...splitter.end()];
}

const line = (text: string): LineEvent => ({ kind: "line", text });

Deno.test("line reader: splits one chunk into LF-terminated lines", () => {
  assert.deepEqual(lines([bytes('{"a":1}\n{"b":2}\n')]), [line('{"a":1}'), line('{"b":2}')]);
});

Deno.test("line reader: drops one CR before LF when CRLF is split across chunks", () => {
  assert.deepEqual(lines([bytes("abc\r"), bytes("\ndef\r\n")]), [line("abc"), line("def")]);
});

Deno.test("line reader: keeps a CR that is not right before LF", () => {
  assert.deepEqual(lines([bytes("a\rb\r\r\n")]), [line("a\rb\r")]);
});

Deno.test("line reader: reassembles a multi-byte UTF-8 character split across chunks", () => {
  const all = bytes("é€😀\n");
  const chunks = [all.slice(0, 1), all.slice(1, 4), all.slice(4, 8), all.slice(8)];
  assert.deepEqual(lines(chunks), [line("é€😀")]);
});

Deno.test("line reader: gives the same lines when fed one byte at a time", () => {
  const all = bytes('{"x":"é"}\r\n\n  \n{"y":2}');
  const chunks = [...all].map((b) => new Uint8Array([b]));
  assert.deepEqual(lines(chunks), [line('{"x":"é"}'), line('{"y":2}')]);
});

Deno.test("line reader: emits a last line without LF", () => {
  assert.deepEqual(lines([bytes("one\ntwo")]), [line("one"), line("two")]);
});

Deno.test("line reader: skips blank and whitespace-only lines", () => {
  assert.deepEqual(lines([bytes("\n \t \r\n\r\nx\n  ")]), [line("x")]);
});

Deno.test("line reader: decodes invalid UTF-8 with replacement characters", () => {
  const chunk = new Uint8Array([0x61, 0xff, 0xfe, 0x62, 0x0a]);
  assert.deepEqual(lines([chunk]), [line("a\uFFFD\uFFFDb")]);
});

Deno.test("line reader: reports an over-cap line once and goes on with the next line", () => {
  const long = "x".repeat(40);
  assert.deepEqual(
    lines([bytes("ok\n"), bytes(long.slice(0, 20)), bytes(long.slice(20) + "\nnext\n")], 16),
    [
      line("ok"),
      { kind: "too-long" },
      line("next"),
    ],
  );
});

Deno.test("line reader: reports an over-cap line that arrives in one chunk", () => {
  assert.deepEqual(lines([bytes("y".repeat(17) + "\nz\n")], 16), [
    { kind: "too-long" },
    line("z"),
  ]);
});

Deno.test("line reader: accepts a line of exactly the cap, with or without CR", () => {
  const exact = "e".repeat(16);
  assert.deepEqual(lines([bytes(`${exact}\n${exact}\r\n`)], 16), [line(exact), line(exact)]);
});

Deno.test("line reader: reports an over-cap last line without LF", () => {
  assert.deepEqual(lines([bytes("a\n" + "q".repeat(30))], 16), [line("a"), {
    kind: "too-long",
  }]);
});

Deno.test("line reader: does not hold an over-cap line in memory while it streams", () => {
  // 64 chunks of 1 MiB with no LF against a 1 KiB cap: one report, then the next line.
  const mib = new Uint8Array(1024 * 1024).fill(0x41);
  const chunks = [...Array(64)].map(() => mib);
  chunks.push(bytes("\nafter\n"));
  assert.deepEqual(lines(chunks), [{ kind: "too-long" }, line("after")]);
});
