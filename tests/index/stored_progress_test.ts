/**
 * A query that reaches a stored index while its stat pass runs hears how far the pass is: at
 * once when the check begins (0 of all the stored files), then as it goes. In-process, so that
 * the query is surely sent before the pass ends (through the real process the features load
 * first, and a small tree's pass may be over by then: tests/e2e/index_cache_test.ts).
 */
import assert from "node:assert/strict";
import { startCacheWriter } from "../../lib/index/store/cache_owner.ts";
import { SearchIndex } from "../../lib/index/service.ts";
import { Workspace } from "../../lib/workspace/workspace.ts";
import { waitFor } from "./helpers.ts";

const QUERY = {
  source: "needle_token",
  flags: "",
  multiline: false,
  base: "",
  globs: [],
  typeGlobs: [],
};

function session(root: string, cacheDir: string): SearchIndex {
  const cache = startCacheWriter(cacheDir);
  assert.ok(typeof cache !== "string", String(cache));
  const ws = Workspace.openSync({ root, noIgnore: false, allowSecrets: false });
  const index = new SearchIndex({
    ws: ws.options,
    maxBytes: 256 * 1024 * 1024,
    eagerMaxFiles: 30_000,
    watch: true,
  }, cache);
  index.start();
  return index;
}

Deno.test("stored index: a query sent while the stat pass runs hears it begin and go on", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "shipcode-progress-root-" }));
  const cacheDir = await Deno.realPath(await Deno.makeTempDir({ prefix: "shipcode-progress-" }));
  try {
    for (let i = 0; i < 300; i++) {
      await Deno.writeTextFile(
        `${root}/f${i}.c`,
        i % 50 === 0 ? "int needle_token;\n" : "int x;\n",
      );
    }
    await new Promise((r) => setTimeout(r, 2100)); // older than the racy window
    const first = session(root, cacheDir);
    await waitFor(first);
    // A write waits until this process holds the cache folder's lock: ask until one is done.
    const until = Date.now() + 30_000;
    while ((await first.currentStatus()).persisted === 0) {
      assert.ok(Date.now() < until, "the index was never written");
      await first.persistNow();
      await new Promise((r) => setTimeout(r, 50));
    }
    first.stop();

    const second = session(root, cacheDir);
    const heard: { done: number; total: number; message: string }[] = [];
    const answer = await second.candidates(
      QUERY,
      (done, total, message) => heard.push({ done, total, message }),
    );
    second.stop();
    assert.deepEqual(
      answer.candidates?.files,
      ["f0.c", "f100.c", "f150.c", "f200.c", "f250.c", "f50.c"].sort(),
    );
    assert.ok(heard.length > 0, "no progress of the stat pass");
    assert.deepEqual(heard[0], {
      done: 0,
      total: 300,
      message: "checking the stored index against the disk",
    });
    for (let i = 1; i < heard.length; i++) assert.ok(heard[i].done >= heard[i - 1].done);
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(cacheDir, { recursive: true });
  }
});
