/**
 * Freshness (docs/index.md): a file created, appended to, renamed or deleted outside the server
 * is seen by the very next grep; a burst of 300 files too; a watcher overflow falls back to full
 * scans until a stat pass has caught up.
 */
import assert from "node:assert/strict";
import {
  cleanup,
  grepIndexed,
  grepScanned,
  type IndexHarness,
  indexHarness,
  waitFor,
} from "./helpers.ts";

const TREE = {
  "src/a.c": "int alpha_token;\nstatic int beta;\n",
  "src/b.c": "int gamma;\n",
  "docs/readme.md": "nothing here\n",
};

async function withIndex(fn: (h: IndexHarness) => Promise<void>): Promise<void> {
  const h = await indexHarness(TREE);
  try {
    await waitFor(h.index);
    await fn(h);
  } finally {
    await cleanup(h);
  }
}

Deno.test("index freshness: a created file is found by the next grep", async () => {
  await withIndex(async (h) => {
    await Deno.writeTextFile(`${h.root}/src/new.c`, "void fresh_token(void);\n");
    const r = await grepIndexed(h, { pattern: "fresh_token" });
    assert.equal(r.text, "src/new.c");
    assert.equal(r.indexed, true, r.why);
  });
});

Deno.test("index freshness: text appended to a file is found by the next grep", async () => {
  await withIndex(async (h) => {
    await Deno.writeTextFile(`${h.root}/src/b.c`, "int appended_token;\n", { append: true });
    const r = await grepIndexed(h, { pattern: "appended_token", output_mode: "content" });
    assert.equal(r.text, "src/b.c:2:int appended_token;");
    assert.equal(r.indexed, true, r.why);
  });
});

Deno.test("index freshness: a renamed file is found under its new name only", async () => {
  await withIndex(async (h) => {
    await Deno.rename(`${h.root}/src/a.c`, `${h.root}/docs/moved.c`);
    const r = await grepIndexed(h, { pattern: "alpha_token" });
    assert.equal(r.text, "docs/moved.c");
    assert.equal(r.indexed, true, r.why);
  });
});

Deno.test("index freshness: a renamed folder's files are found under the new folder", async () => {
  await withIndex(async (h) => {
    await Deno.rename(`${h.root}/src`, `${h.root}/lib`);
    const r = await grepIndexed(h, { pattern: "int [a-z]+;", output_mode: "count" });
    assert.equal(r.text, "lib/a.c:1\nlib/b.c:1");
    assert.equal(r.text, await grepScanned(h, { pattern: "int [a-z]+;", output_mode: "count" }));
  });
});

Deno.test("index freshness: a deleted file is no longer found", async () => {
  await withIndex(async (h) => {
    await Deno.remove(`${h.root}/src/a.c`);
    const r = await grepIndexed(h, { pattern: "alpha_token" });
    assert.equal(r.text, "No matches found");
    assert.equal(r.indexed, true, r.why);
  });
});

Deno.test("index freshness: a burst of 300 new files is found whole by the next grep", async () => {
  await withIndex(async (h) => {
    await Deno.mkdir(`${h.root}/burst`);
    for (let i = 0; i < 300; i++) {
      await Deno.writeTextFile(`${h.root}/burst/f${i}.c`, `int burst_token_${i % 7};\n`);
    }
    const r = await grepIndexed(h, { pattern: "burst_token_", output_mode: "count" });
    const lines = r.text.split("\n");
    assert.equal(lines.length, 300);
    assert.equal(r.text, await grepScanned(h, { pattern: "burst_token_", output_mode: "count" }));
  });
});

Deno.test("index freshness: after a watcher overflow greps scan until a stat pass caught up", async () => {
  await withIndex(async (h) => {
    // Events are lost from here on (as in an overflow), then the overflow is reported.
    h.index.simulate("deafen");
    await Deno.writeTextFile(`${h.root}/src/b.c`, "int unseen_token;\n", { append: true });
    await Deno.writeTextFile(`${h.root}/src/c.c`, "int unseen_token;\n");
    await Deno.remove(`${h.root}/src/a.c`);
    h.index.simulate("overflow");
    const during = await grepIndexed(h, { pattern: "unseen_token|alpha_token" });
    assert.equal(during.text, "src/b.c\nsrc/c.c");
    await waitFor(h.index, "ready");
    const after = await grepIndexed(h, { pattern: "unseen_token|alpha_token" });
    assert.equal(after.text, "src/b.c\nsrc/c.c");
    assert.equal(after.indexed, true, after.why);
  });
});

Deno.test("index freshness: a file created unheard is found (the early answer is checked)", async () => {
  await withIndex(async (h) => {
    // Events are lost from here on: only the folder check after the early answer can tell.
    h.index.simulate("deafen");
    await grepIndexed(h, { pattern: "alpha_token" });
    const same = await grepIndexed(h, { pattern: "alpha_token" });
    assert.equal(same.text, "src/a.c");
    assert.equal(await h.index.lastAnswer?.fresh, true, "nothing changed: the early answer stands");
    await Deno.writeTextFile(`${h.root}/src/unheard.c`, "int alpha_token_unheard;\n");
    const r = await grepIndexed(h, { pattern: "alpha_token" });
    assert.equal(r.text, "src/a.c\nsrc/unheard.c");
    assert.equal(r.indexed, true, r.why);
    assert.equal(r.text, await grepScanned(h, { pattern: "alpha_token" }));
  });
});

Deno.test("index: edits made through the server are seen at once (update hook)", async () => {
  await withIndex(async (h) => {
    h.index.simulate("deafen");
    await Deno.writeTextFile(`${h.root}/src/b.c`, "int hooked_token;\n");
    h.index.touch(["src/b.c"]);
    const r = await grepIndexed(h, { pattern: "hooked_token" });
    assert.equal(r.text, "src/b.c");
    assert.equal(r.indexed, true, r.why);
  });
});

Deno.test("index: a pattern without a trigram uses the full scan", async () => {
  await withIndex(async (h) => {
    const r = await grepIndexed(h, { pattern: "\\d+|in" });
    assert.equal(r.indexed, false);
    assert.equal(r.why, "no usable trigram");
    assert.equal(r.text, await grepScanned(h, { pattern: "\\d+|in" }));
  });
});

Deno.test("index freshness: a new folder renamed away, and a folder replaced by a file", async () => {
  await withIndex(async (h) => {
    await Deno.mkdir(`${h.root}/made`);
    await Deno.writeTextFile(`${h.root}/made/x.c`, "int moved_token;\n");
    assert.equal((await grepIndexed(h, { pattern: "moved_token" })).text, "made/x.c");
    const away = await Deno.makeTempDir();
    await Deno.rename(`${h.root}/made`, `${away}/made`);
    const gone = await grepIndexed(h, { pattern: "moved_token" });
    assert.equal(gone.text, "No matches found");
    assert.equal(gone.indexed, true, gone.why);
    await Deno.remove(away, { recursive: true });
    await Deno.remove(`${h.root}/src`, { recursive: true });
    await Deno.writeTextFile(`${h.root}/src`, "int alpha_token_file;\n");
    const r = await grepIndexed(h, { pattern: "alpha_token" });
    assert.equal(r.text, "src");
    assert.equal(r.text, await grepScanned(h, { pattern: "alpha_token" }));
  });
});
