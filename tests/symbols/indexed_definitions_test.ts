/**
 * find_symbol with the trigram index ready: the index's names lists (lib/index/lists/name_hashes.ts)
 * say which C/C++ files may define the name, so the files that cannot are neither read nor
 * parsed; the answer is the one a full scan gives, files added after the build are seen, and an
 * empty answer still counts every source file that mentions the name.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { findSymbolTool } from "../../lib/tools/find_symbol.ts";
import { call, text } from "../tools/helpers.ts";
import { cleanup, indexHarness, waitFor } from "../index/helpers.ts";

const TREE = {
  "mm/use.c": [
    "static int grab(void)",
    "{",
    "\tvoid *p = kmalloc(8, 0);",
    "\treturn __kmalloc(4, 0) != p;",
    "}",
    "",
  ].join("\n"),
  "include/slab.h": [
    "static void *kmalloc(unsigned long size, int flags)",
    "{",
    "\treturn __kmalloc(size, flags);",
    "}",
    "",
  ].join("\n"),
  "tools/alloc.py": "def kmalloc(size):\n    return bytearray(size)\n",
  "docs/kmalloc.md": "kmalloc allocates\n",
};

Deno.test("find_symbol with the index: only files that may define the name are read, same answer", async () => {
  const h = await indexHarness(TREE);
  try {
    await waitFor(h.index, "ready");
    const scanned = await call(findSymbolTool, { name: "kmalloc" }, { ...h, ctx: h.scanCtx });
    const result = await call(findSymbolTool, { name: "kmalloc" }, h);
    // mm/use.c, which only calls it, is left out by the index and never read.
    assert.deepEqual(h.index.lastAnswer?.candidates?.files, ["include/slab.h", "tools/alloc.py"]);
    assert.equal(text(result), text(scanned));
    assert.equal(
      text(result),
      "include/slab.h:1: function kmalloc\ntools/alloc.py:1: function kmalloc",
    );
    const structured = result.structuredContent as Record<string, unknown>;
    assert.equal(structured.files_parsed, 2);
    assert.equal(h.ctx.session.symbols.parsers.parsedFiles, 2);
    const folded = await call(findSymbolTool, { name: "KMALLOC", "-i": true }, h);
    assert.equal(text(folded), text(result));
  } finally {
    await cleanup(h);
  }
});

Deno.test("find_symbol with the index: a file added after the build is seen", async () => {
  const h = await indexHarness(TREE);
  try {
    await waitFor(h.index, "ready");
    await Deno.writeTextFile(join(h.root, "mm/late.c"), "void *kmalloc(int n) { return 0; }\n");
    const result = await call(findSymbolTool, { name: "kmalloc", path: "mm" }, h);
    assert.equal(text(result), "mm/late.c:1: function kmalloc");
  } finally {
    await cleanup(h);
  }
});

Deno.test("find_symbol with the index: an empty answer counts every file that mentions the name", async () => {
  const h = await indexHarness(TREE);
  try {
    await waitFor(h.index, "ready");
    const result = await call(findSymbolTool, { name: "__kmalloc" }, h);
    // Both C files mention it, inside bodies: the index leaves both out, the count has them.
    assert.match(text(result), /No definitions of "__kmalloc" found \(2 source files mention it/);
  } finally {
    await cleanup(h);
  }
});
