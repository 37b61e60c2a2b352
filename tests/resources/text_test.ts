import assert from "node:assert/strict";
import { decodeText } from "../../lib/resources/text.ts";

const bytes = (...b: number[]) => new Uint8Array(b);

Deno.test("decodeText: valid UTF-8 without NUL is text, BOM kept", () => {
  assert.equal(decodeText(new TextEncoder().encode("héllo")), "héllo");
  assert.equal(decodeText(bytes(0xef, 0xbb, 0xbf, 0x61)), "\uFEFFa");
  assert.equal(decodeText(bytes()), "");
});

Deno.test("decodeText: a genuine U+FFFD is still text", () => {
  assert.equal(decodeText(bytes(0x61, 0xef, 0xbf, 0xbd)), "a\uFFFD");
});

Deno.test("decodeText: a NUL byte or invalid UTF-8 anywhere makes it binary", () => {
  assert.equal(decodeText(bytes(0x61, 0x00)), null);
  assert.equal(decodeText(bytes(0x61, 0xff)), null);
  assert.equal(decodeText(bytes(0xef, 0xbf, 0xbd, 0xc3)), null);
  const late = new Uint8Array(1 << 20).fill(0x61);
  late[late.length - 1] = 0x80;
  assert.equal(decodeText(late), null);
});
