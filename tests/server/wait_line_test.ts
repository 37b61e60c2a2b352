import assert from "node:assert/strict";
import { WaitLine } from "../../lib/server/wait_line.ts";

Deno.test("wait line: items leave in arrival order and a dropped one is skipped, its size freed at once", () => {
  const line = new WaitLine<string>();
  line.push("a", "1", 10);
  line.push("b", "2", 20);
  line.push("c", "3", 30);
  assert.equal(line.drop("2"), true);
  assert.equal(line.drop("2"), false);
  assert.deepEqual([line.size, line.chars, line.has("2")], [2, 40, false]);
  assert.deepEqual([line.shift(), line.shift(), line.shift()], ["a", "c", undefined]);
  assert.deepEqual([line.size, line.chars], [0, 0]);
});

Deno.test("wait line: an item put back goes ahead of the rest", () => {
  const line = new WaitLine<string>();
  line.push("a", undefined, 1);
  line.push("b", undefined, 1);
  const first = line.shift()!;
  line.unshift(first, "k", 1);
  line.unshift("z", undefined, 1);
  assert.deepEqual([line.shift(), line.shift(), line.shift()], ["z", "a", "b"]);
});

Deno.test("wait line: a long storm of pushes and drops keeps only the live items counted", () => {
  const line = new WaitLine<number>();
  for (let i = 0; i < 100_000; i++) {
    line.push(i, String(i), 1);
    if (i % 100 !== 0) line.drop(String(i));
  }
  assert.deepEqual([line.size, line.chars], [1000, 1000]);
  const out: number[] = [];
  for (let v = line.shift(); v !== undefined; v = line.shift()) out.push(v);
  assert.deepEqual(out, Array.from({ length: 1000 }, (_, k) => k * 100));
});
