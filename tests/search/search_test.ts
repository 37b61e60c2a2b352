/**
 * The one search sequence (lib/search/search.ts): whoever searches, the index learns of it. A
 * large tree defers its index build until the first search; find_symbol and find_references
 * search through the same entry point as grep, so they start it too.
 */
import assert from "node:assert/strict";
import { findReferencesTool } from "../../lib/tools/find_references.ts";
import { findSymbolTool } from "../../lib/tools/find_symbol.ts";
import { call, text } from "../tools/helpers.ts";
import { cleanup, grepIndexed, indexHarness, waitFor } from "../index/helpers.ts";
import type { Tool } from "../../lib/tools/tool.ts";

/** Three files over a threshold of two: "large", so the build waits for the first search. */
const TREE = {
  "a.ts": "export function deferredTarget() {}\n",
  "b.ts": "deferredTarget();\n",
  "c.ts": "const other = 1;\n",
};

function startsTheBuild(tool: Tool, name: string): void {
  Deno.test(`search: ${name} alone starts the deferred index build on a large tree`, async () => {
    const h = await indexHarness(TREE, { eagerMaxFiles: 2 });
    try {
      await waitFor(h.index, "waiting");
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal((await h.index.currentStatus()).phase, "waiting");
      const result = await call(tool, { name: "deferredTarget" }, h);
      assert.equal(result.isError, undefined, text(result));
      await waitFor(h.index, "ready");
      // The index now chooses the files of the next search.
      const next = await grepIndexed(h, { pattern: "deferredTarget" });
      assert.equal(next.text, "a.ts\nb.ts");
      assert.equal(next.indexed, true, next.why);
    } finally {
      await cleanup(h);
    }
  });
}

startsTheBuild(findSymbolTool, "find_symbol");
startsTheBuild(findReferencesTool, "find_references");
