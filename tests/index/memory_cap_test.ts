import assert from "node:assert/strict";
import { cleanup, grepIndexed, grepScanned, indexHarness, waitFor } from "./helpers.ts";

const MIB = 1024 * 1024;

function tree(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < 40; i++) files[`src/f${i}.c`] = `int small_${i};\n`.repeat(50);
  // One large file (~6 MiB): the estimate puts it over a cap of 8 MiB + the small files.
  files["gen/huge.h"] = "#define HUGE_ONLY_TOKEN 1\n" + "filler filler filler\n".repeat(300_000);
  return files;
}

Deno.test("index memory cap: the largest files are left out and always searched", async () => {
  const h = await indexHarness(tree(), { maxBytes: 8 * MIB + 200_000 });
  try {
    const status = await waitFor(h.index);
    assert.equal(status.leftOut, 1);
    assert.ok(status.bytes <= 8 * MIB + 200_000, `index holds ${status.bytes} bytes`);
    const r = await grepIndexed(h, { pattern: "HUGE_ONLY_TOKEN", output_mode: "count" });
    assert.equal(r.text, "gen/huge.h:1");
    assert.equal(r.indexed, true, r.why);
    const s = await grepIndexed(h, { pattern: "small_17;", output_mode: "count" });
    assert.equal(s.text, "src/f17.c:50");
  } finally {
    await cleanup(h);
  }
});

Deno.test("index memory cap: no index when too much would be left out; greps still answer", async () => {
  const h = await indexHarness(tree(), { maxBytes: 1 * MIB });
  try {
    const status = await waitFor(h.index, "off");
    assert.match(status.note, /--index-max-mib/);
    const r = await grepIndexed(h, { pattern: "small_17;", output_mode: "count" });
    assert.equal(r.indexed, false);
    assert.equal(r.text, await grepScanned(h, { pattern: "small_17;", output_mode: "count" }));
  } finally {
    await cleanup(h);
  }
});

Deno.test("index: a large tree builds after its first grep, not at start", async () => {
  const h = await indexHarness({ "a.c": "int deferred_token;\n", "b.c": "x\n", "c.c": "y\n" }, {
    eagerMaxFiles: 2,
  });
  try {
    await waitFor(h.index, "waiting");
    const first = await grepIndexed(h, { pattern: "deferred_token" });
    assert.equal(first.text, "a.c");
    assert.equal(first.indexed, false);
    await waitFor(h.index, "ready");
    const second = await grepIndexed(h, { pattern: "deferred_token" });
    assert.equal(second.text, "a.c");
    assert.equal(second.indexed, true, second.why);
  } finally {
    await cleanup(h);
  }
});

Deno.test("index: a grep before the tree is known to be large still starts the build", async () => {
  const h = await indexHarness({ "a.c": "int early_token;\n", "b.c": "x\n", "c.c": "y\n" }, {
    eagerMaxFiles: 2,
  });
  try {
    const first = await grepIndexed(h, { pattern: "early_token" });
    assert.equal(first.text, "a.c");
    await waitFor(h.index, "ready");
    const second = await grepIndexed(h, { pattern: "early_token" });
    assert.equal(second.indexed, true, second.why);
  } finally {
    await cleanup(h);
  }
});
