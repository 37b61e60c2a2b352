/**
 * find_symbol parses a C/C++ file only around the name's possible definitions: the answer stays
 * the definitions of the whole parse (lines, end lines, kinds, containers), a syntax error away
 * from them no longer marks the file, and a file whose hits are all in comments, literals or
 * macro bodies is not parsed at all.
 */
import assert from "node:assert/strict";
import { findSymbolTool } from "../../lib/tools/find_symbol.ts";
import { call, type Harness, text, toolTest } from "../tools/helpers.ts";
import type { CodeSymbol } from "../../lib/symbols/types.ts";

/** `path:line-end: kind name  (in C)` of every symbol named `name`, from whole parses. */
async function wholeParse(h: Harness, paths: string[], name: string): Promise<string[]> {
  const out: string[] = [];
  const parsed = await h.ctx.session.symbols.symbols(h.ws, paths, {
    signal: new AbortController().signal,
    maxBytes: 1 << 20,
  });
  for (const path of paths) {
    const outcome = parsed.get(path)!;
    assert.ok(outcome.ok);
    const visit = (list: readonly CodeSymbol[]) => {
      for (const s of list) {
        if (s.name === name) {
          out.push(
            `${path}:${s.line}-${s.end_line}: ${s.kind} ${s.name}${
              s.container ? `  (in ${s.container})` : ""
            }`,
          );
        }
        if (s.children !== undefined) visit(s.children);
      }
    };
    visit(outcome.symbols);
  }
  return out.sort();
}

async function found(h: Harness, name: string): Promise<string[]> {
  const result = await call(findSymbolTool, { name, head_limit: 0 }, h);
  const structured = result.structuredContent as { symbols: string[] };
  return [...structured.symbols].sort();
}

const TRICKY = {
  "include/box.h": [
    "#ifndef BOX_H",
    "#define BOX_H",
    "#include <types.h>",
    "/* box_new() makes a box; box_size is its size */",
    "#define box_size 16",
    "#ifdef CONFIG_BIG",
    "static inline struct box *box_new(int n)",
    "{",
    "\treturn alloc(n * box_size);",
    "}",
    "#else",
    "static inline struct box *box_new(int n) { return 0; }",
    "#endif",
    "struct box {",
    "\tint box_size;",
    "#ifdef CONFIG_LOCK",
    "\tstruct { int held; } box_lock;",
    "#endif",
    "\tunion { long a; void *box_new; } u;",
    "};",
    "enum box_kind { BOX_A, box_size_kind, BOX_C };",
    'typedef struct box box_t; int box_count; static const char *box_name = "box_new";',
    "static int",
    "#ifdef CONFIG_WIDE",
    "box_lock(long a)",
    "#else",
    "box_lock(int a)",
    "#endif",
    "{",
    "\treturn a;",
    "}",
    "#endif",
    "",
  ].join("\n"),
  "src/box.c": [
    '#include "box.h"',
    "DEFINE_THING(box_new)",
    "int box_count = 2;",
    "int f(void) { return box_count + box_size; }",
    "",
  ].join("\n"),
};

for (const name of ["box_new", "box_size", "box_lock", "box_count", "box_t", "box"]) {
  toolTest(
    `find_symbol: the regions give the whole parse's definitions of "${name}" (#if branches, macros, nested types)`,
    TRICKY,
    async (h) => {
      const want = await wholeParse(h, ["include/box.h", "src/box.c"], name);
      assert.ok(want.length > 0);
      h.ctx.session.symbols.cache.clear();
      assert.deepEqual(await found(h, name), want);
    },
  );
}

toolTest(
  "find_symbol: a syntax error away from the name's definitions does not mark the file",
  {
    "include/slab.h": [
      "static int broken = ;",
      "void *kmalloc(unsigned long n)",
      "{",
      "\treturn 0;",
      "}",
      "",
    ].join("\n"),
  },
  async (h) => {
    const result = await call(findSymbolTool, { name: "kmalloc" }, h);
    assert.equal(text(result), "include/slab.h:2: function kmalloc");
    assert.equal((result.structuredContent as Record<string, unknown>).partial_files, 0);
  },
);

toolTest(
  "find_symbol: a syntax error in the item around a definition parses the whole file",
  {
    // A macro call without its `;` runs into the definition's item, which then has an error:
    // the whole parse finds the function anyway, and the file is marked.
    "include/slab.h": [
      "int before;",
      "DEFINE_FREE(kfree, void *, kfree(_T))",
      "static inline void *kmalloc(unsigned long n)",
      "{",
      "\treturn 0;",
      "}",
      "",
    ].join("\n"),
  },
  async (h) => {
    const want = await wholeParse(h, ["include/slab.h"], "kmalloc");
    h.ctx.session.symbols.cache.clear();
    assert.deepEqual(await found(h, "kmalloc"), want);
    const result = await call(findSymbolTool, { name: "kmalloc" }, h);
    assert.equal((result.structuredContent as Record<string, unknown>).partial_files, 1);
  },
);

toolTest(
  "find_symbol: a C file whose hits are all in comments, literals or macro bodies is not parsed",
  {
    "mm/notes.c": [
      "/* the driver lock is kmalloc(GFP_ATOMIC) safe */",
      'static const char *why = "unable to kmalloc 256 bytes";',
      "#define grab(a) kmalloc(a, 0)",
      "",
    ].join("\n"),
    "include/slab.h": "void *kmalloc(unsigned long n)\n{\n\treturn 0;\n}\n",
  },
  async (h) => {
    const result = await call(findSymbolTool, { name: "kmalloc" }, h);
    assert.equal(text(result), "include/slab.h:1: function kmalloc");
    assert.equal((result.structuredContent as Record<string, unknown>).files_parsed, 2);
    assert.equal(h.ctx.session.symbols.parsers.parsedFiles, 1, "only slab.h reached a parser");
  },
);
