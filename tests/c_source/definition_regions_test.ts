/** Which parts of a C/C++ text find_symbol parses for a name, and whether a file may define it. */
import assert from "node:assert/strict";
import {
  definitionRegions,
  fileMayDefine,
  regionText,
} from "../../lib/c_source/definition_regions.ts";

const KMALLOC = /\bkmalloc\b/;

function regions(text: string): string[] | null {
  const found = definitionRegions(text, KMALLOC);
  return found === null ? null : found.map(([s, e]) => text.slice(s, e).trim());
}

Deno.test("definition regions: only the items around possible definitions", () => {
  const text = [
    "int a;",
    "void *kmalloc(unsigned long n)",
    "{",
    "}",
    "int b = 2;",
    "struct box { void *(*kmalloc)(int); };",
    "",
  ].join("\n");
  assert.deepEqual(regions(text), [
    "void *kmalloc(unsigned long n)\n{\n}",
    "struct box { void *(*kmalloc)(int); };",
  ]);
});

Deno.test("definition regions: hits in comments, literals and preprocessor tests are none", () => {
  const text = [
    "/* kmalloc(GFP_ATOMIC) is used here */",
    'static const char *m = "unable to kmalloc 256 bytes";',
    "#ifdef kmalloc",
    "#include <kmalloc.h>",
    "#define alloc(a) kmalloc(a, 0)",
    "#endif",
    "",
  ].join("\n");
  assert.deepEqual(regions(text), []);
  assert.equal(fileMayDefine(text, KMALLOC), false);
});

Deno.test("definition regions: a #define of the name is its own region", () => {
  const text = "int a;\n#define kmalloc(size, flags) \\\n\tmalloc(size)\nint b;\n";
  assert.deepEqual(regions(text), ["#define kmalloc(size, flags) \\\n\tmalloc(size)"]);
});

Deno.test("definition regions: unbalanced braces with a possible definition give null", () => {
  const text = "#ifdef A\nvoid kmalloc(void) {\n#else\nvoid kmalloc(int x) {\n#endif\n}\n";
  assert.equal(regions(text), null);
  assert.equal(fileMayDefine(text, KMALLOC), true);
});

Deno.test("definition regions: the kept text keeps every line and column of a region", () => {
  const text = "int a; /* x */\n\tint  b; struct kmalloc { int y; };\nint c;\n";
  const found = definitionRegions(text, KMALLOC)!;
  const kept = regionText(text, found);
  assert.equal(kept, "\n\t        struct kmalloc { int y; };");
  const at = text.indexOf("struct kmalloc");
  assert.equal(kept.indexOf("struct kmalloc"), at - "int a; /* x */".length);
  assert.equal(kept.split("\n")[1].indexOf("struct"), text.split("\n")[1].indexOf("struct"));
});

Deno.test("file may define: a hit only inside function bodies or as an operand is none", () => {
  const text = "static int f(void)\n{\n\treturn kmalloc(1, 0) != 0;\n}\nvoid *p = kmalloc;\n";
  assert.equal(fileMayDefine(text, KMALLOC), false);
  assert.equal(fileMayDefine(text + "void *kmalloc(int n);\n", KMALLOC), true);
});

Deno.test("file may define: what looks like a definition inside a body is none, one after it is", () => {
  const inside = "static int f(void)\n{\n\tint kmalloc;\n\t/* } */\n}\n";
  assert.equal(fileMayDefine(inside, KMALLOC), false);
  assert.equal(fileMayDefine(inside + "int kmalloc;\n", KMALLOC), true);
  assert.equal(fileMayDefine(inside + "// int kmalloc;\n", KMALLOC), false);
});
