/**
 * find_symbol's hand-over from the scan: the search worker judges each C/C++ candidate while it
 * has the text, and a file whose every hit is surely a use never reaches a parser worker; the
 * definitions stay those of parsing every candidate, with or without the trigram index.
 */
import assert from "node:assert/strict";
import { findSymbolTool } from "../../lib/tools/find_symbol.ts";
import { call, text, toolTest } from "../tools/helpers.ts";
import { cleanup, indexHarness, waitFor } from "../index/helpers.ts";

const TREE = {
  // Every hit an operand or a type in a declaration: surely uses.
  "mm/use.c": [
    "#include <slab.h>",
    "static int grab(struct kmalloc_box *b)",
    "{",
    "\tvoid *p = kmalloc(8, 0);",
    "\treturn kmalloc(4, 0) != p;",
    "}",
    "",
  ].join("\n"),
  // The definition.
  "include/slab.h": [
    "static void *kmalloc(unsigned long size, int flags)",
    "{",
    "\treturn __kmalloc(size, flags);",
    "}",
    "",
  ].join("\n"),
  // A prototype and a call: may define by the text alone, so it is parsed (and defines nothing).
  "mm/proto.c": "void *kmalloc(unsigned long size, int flags);\nint x = 1;\n",
  "docs/kmalloc.md": "kmalloc allocates\n",
};

const WANT = "include/slab.h:1: function kmalloc";

toolTest(
  "find_symbol: a C file whose every hit the scan judged a use is not parsed",
  TREE,
  async (h) => {
    const result = await call(findSymbolTool, { name: "kmalloc" }, h);
    assert.equal(text(result), WANT);
    const structured = result.structuredContent as Record<string, unknown>;
    assert.equal(structured.total, 1);
    assert.equal(structured.files_parsed, 3, "judged files count as read");
    // slab.h and proto.c reached a parser worker; use.c did not.
    assert.equal(h.ctx.session.symbols.parsers.parsedFiles, 2);
  },
);

Deno.test("find_symbol: the scan's verdicts on the index's pieces give the same definitions", async () => {
  const h = await indexHarness(TREE);
  try {
    await waitFor(h.index, "ready");
    const result = await call(findSymbolTool, { name: "kmalloc" }, h);
    assert.equal(text(result), WANT);
    assert.equal(h.ctx.session.symbols.parsers.parsedFiles, 2);
    const folded = await call(findSymbolTool, { name: "KMALLOC", "-i": true }, h);
    assert.equal(text(folded), WANT);
  } finally {
    await cleanup(h);
  }
});
