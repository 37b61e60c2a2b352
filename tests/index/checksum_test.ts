import assert from "node:assert/strict";
import { SectionChecksum, sectionChecksum } from "../../lib/index/store/checksum.ts";

Deno.test("checksum: a section fed a run of words at a time sums as the whole section", () => {
  let seed = 12345;
  const next = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0);
  for (const words of [0, 1, 3, 4, 5, 7, 8, 13, 1000, 65_537]) {
    const section = new Uint32Array(words);
    for (let i = 0; i < words; i++) section[i] = next();
    const whole = sectionChecksum(new Uint8Array(section.buffer));
    for (let trial = 0; trial < 5; trial++) {
      const sum = new SectionChecksum(words * 4);
      let at = 0;
      while (at < words) {
        const run = Math.min(words - at, 1 + (next() % 9));
        sum.words(section.subarray(at, at + run));
        at += run;
      }
      assert.equal(sum.digest(), whole, `${words} words`);
    }
  }
});

Deno.test("checksum: a section fed more or fewer words than its length is refused", () => {
  const sum = new SectionChecksum(8);
  sum.words(new Uint32Array([1]));
  assert.throws(() => sum.digest(), RangeError);
  assert.throws(() => sum.words(new Uint32Array([2, 3])), RangeError);
  assert.throws(() => new SectionChecksum(6), RangeError);
});
