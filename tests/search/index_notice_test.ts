/** A symbol call's scan tells the index only once the call's parse is done (holdingIndexNotice). */
import assert from "node:assert/strict";
import {
  type CandidateSource,
  holdingIndexNotice,
  type SearchEngine,
} from "../../lib/search/search.ts";
import type { SearchPool } from "../../lib/search/pool.ts";

function engineCounting(): { engine: SearchEngine; told: () => number; asked: () => number } {
  let told = 0;
  let asked = 0;
  const index: CandidateSource = {
    candidates: () => {
      asked++;
      return Promise.resolve({ candidates: null });
    },
    grepDone: () => {
      told++;
    },
  };
  return {
    engine: { pool: {} as SearchPool, index },
    told: () => told,
    asked: () => asked,
  };
}

Deno.test("index notice: a held search tells the index on release, once", async () => {
  const { engine, told, asked } = engineCounting();
  const held = holdingIndexNotice(engine);
  await held.engine.index!.candidates({
    source: "x",
    flags: "",
    multiline: false,
    base: "",
    globs: [],
    typeGlobs: [],
  });
  held.engine.index!.grepDone();
  assert.equal(asked(), 1, "the index still chooses the files");
  assert.equal(told(), 0, "not told while the call goes on");
  held.release();
  held.release();
  assert.equal(told(), 1);
});

Deno.test("index notice: a release without a search tells the index nothing", () => {
  const { engine, told } = engineCounting();
  holdingIndexNotice(engine).release();
  assert.equal(told(), 0);
});

Deno.test("index notice: a search after the release tells the index at once", () => {
  const { engine, told } = engineCounting();
  const held = holdingIndexNotice(engine);
  held.release();
  held.engine.index!.grepDone();
  assert.equal(told(), 1);
});

Deno.test("index notice: without an index the engine is the same", () => {
  const engine: SearchEngine = { pool: {} as SearchPool, index: null };
  assert.equal(holdingIndexNotice(engine).engine, engine);
});
