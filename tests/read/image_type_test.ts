import assert from "node:assert/strict";
import { imageType } from "../../lib/read/image_type.ts";

Deno.test("image type: png, jpeg, gif and webp are recognised by their first bytes", () => {
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0];
  assert.equal(imageType(new Uint8Array(png)), "image/png");
  assert.equal(imageType(new Uint8Array([0xff, 0xd8, 0xff, 0xe0])), "image/jpeg");
  assert.equal(imageType(new TextEncoder().encode("GIF89a....")), "image/gif");
  assert.equal(imageType(new TextEncoder().encode("GIF87a....")), "image/gif");
  assert.equal(imageType(new TextEncoder().encode("RIFF\0\0\0\0WEBPVP8 ")), "image/webp");
});

Deno.test("image type: other bytes, short heads and near misses are not images", () => {
  assert.equal(imageType(new TextEncoder().encode("GIF88a....")), null);
  assert.equal(imageType(new TextEncoder().encode("RIFF\0\0\0\0WAVEfmt ")), null);
  assert.equal(imageType(new Uint8Array([0x89, 0x50])), null);
  assert.equal(imageType(new Uint8Array([])), null);
  assert.equal(imageType(new TextEncoder().encode("hello.png")), null);
});
