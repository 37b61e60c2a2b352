/**
 * Agreement with universal-ctags on function/struct/class definitions (same name, same line):
 * every one on the fixtures, and at least 95% on this repository's own TypeScript
 * (docs/BENCHMARKS.md "Symbols" measures the kernel). Needs universal-ctags (.ci/run installs it).
 */
import assert from "node:assert/strict";
import { compareWithCtags } from "../../bench/symbols_ctags.ts";

const FIXTURES = new URL("../testdata/symbols/", import.meta.url).pathname;
const REPO = new URL("../../", import.meta.url).pathname;

Deno.test({
  name: "symbols: every ctags function/struct definition of the C fixtures, at its line",
  fn: async () => {
    const got = await compareWithCtags(FIXTURES, ["sample.c", "kernel_style.c", "sample.cpp"]);
    assert.ok(got.total >= 20, `ctags found ${got.total} definitions`);
    assert.deepEqual(got.misses, []);
  },
});

Deno.test({
  name: "symbols: every ctags function/class definition of the TypeScript fixtures, at its line",
  fn: async () => {
    const got = await compareWithCtags(FIXTURES, ["sample.ts", "sample.tsx"]);
    assert.ok(got.total >= 2, `ctags found ${got.total} definitions`);
    assert.deepEqual(got.misses, []);
  },
});

Deno.test({
  name: "symbols: at least 95% of ctags' definitions in this repository's TypeScript",
  fn: async () => {
    const files: string[] = [];
    for (const dir of ["lib/symbols", "lib/tools", "lib/search", "lib/workspace"]) {
      for (const entry of Deno.readDirSync(`${REPO}${dir}`)) {
        if (entry.isFile && entry.name.endsWith(".ts")) files.push(`${dir}/${entry.name}`);
      }
    }
    const got = await compareWithCtags(REPO, files.sort());
    assert.ok(got.total >= 100, `ctags found ${got.total} definitions`);
    assert.ok(
      got.found / got.total >= 0.95,
      `${got.found}/${got.total}: ${JSON.stringify(got.misses)}`,
    );
  },
});
