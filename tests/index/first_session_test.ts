/**
 * The first session on a root (an empty cache folder): its index starts late (after the first
 * grep, or INDEX_START_DELAY_MS), so the first grep is a full scan answered at once, exact; the
 * index is then built and stored. The next session finds the stored index and opens it at once:
 * its first grep is answered from the index. In-process, with the cache writer of a real session.
 */
import assert from "node:assert/strict";
import { INDEX_START_DELAY_MS } from "../../lib/index/early_start.ts";
import { startCacheWriter } from "../../lib/index/store/cache_owner.ts";
import { hasStoredIndex } from "../../lib/index/store/root_key.ts";
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
const HOLDERS = ["f0.c", "f20.c", "f40.c"];

function session(root: string, cacheDir: string): { index: SearchIndex; stop(): void } {
  const cache = startCacheWriter(cacheDir);
  assert.ok(typeof cache !== "string", String(cache));
  const ws = Workspace.openSync({ root, noIgnore: false, allowSecrets: false });
  const index = new SearchIndex({
    ws: ws.options,
    maxBytes: 256 * 1024 * 1024,
    eagerMaxFiles: 30_000,
    watch: true,
  }, cache);
  index.start(INDEX_START_DELAY_MS);
  return {
    index,
    stop() {
      index.stop();
      cache.stop();
    },
  };
}

Deno.test("first session on a root: the first grep scans at once, then the index is built and stored", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "shipcode-first-root-" }));
  const cacheDir = await Deno.realPath(await Deno.makeTempDir({ prefix: "shipcode-first-" }));
  const flags = { noIgnore: false, allowSecrets: false };
  try {
    for (let i = 0; i < 60; i++) {
      await Deno.writeTextFile(
        `${root}/f${i}.c`,
        i % 20 === 0 ? "int needle_token;\n" : "int x;\n",
      );
    }
    await new Promise((r) => setTimeout(r, 2100)); // older than the racy window
    assert.equal(await hasStoredIndex(cacheDir, root, flags), false);

    const first = session(root, cacheDir);
    const scanned = await first.index.candidates(QUERY);
    assert.equal(scanned.candidates, null, "the first grep of the first session is a full scan");
    assert.equal(scanned.why, "index idle");
    first.index.grepDone(); // its build starts now
    await waitFor(first.index);
    const until = Date.now() + 30_000;
    while ((await first.index.currentStatus()).persisted === 0) {
      assert.ok(Date.now() < until, "the index was never written");
      await first.index.persistNow();
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.deepEqual((await first.index.candidates(QUERY)).candidates?.files, HOLDERS);
    first.stop();
    assert.equal(await hasStoredIndex(cacheDir, root, flags), true);

    const second = session(root, cacheDir);
    const answer = await second.index.candidates(QUERY);
    second.stop();
    assert.deepEqual(answer.candidates?.files, HOLDERS, "the stored index answers at once");
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(cacheDir, { recursive: true });
  }
});
