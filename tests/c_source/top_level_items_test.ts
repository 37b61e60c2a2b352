/** The top-level items of C/C++ text: whole declarations and definitions, and their spans. */
import assert from "node:assert/strict";
import { topLevelItems } from "../../lib/c_source/top_level_items.ts";

/** Each item's text, `kind: text`. */
function items(text: string): string[] {
  const split = topLevelItems(text);
  assert.ok(split !== null && split.items !== null);
  return split.items.map((item) => `${item.kind}: ${text.slice(item.start, item.end).trim()}`);
}

Deno.test("top-level items: a declaration ends at its `;`, a function at its body's `}`", () => {
  const text = "int a = 1, b;\nstatic int f(int x)\n{\n}\nstruct s { int x; } v;\nint g(void);\n";
  assert.deepEqual(items(text), [
    "code: int a = 1, b;",
    "code: static int f(int x)\n{\n}",
    "code: struct s { int x; } v;",
    "code: int g(void);",
  ]);
});

Deno.test("top-level items: a preprocessor line between items is an item of its own", () => {
  const text = "#include <a.h>\n#define M(x) \\\n\t(x + 1)\nint a;\n#ifdef B\nint b;\n#endif\n";
  assert.deepEqual(items(text), [
    "directive: #include <a.h>",
    "define: #define M(x) \\\n\t(x + 1)",
    "code: int a;",
    "directive: #ifdef B",
    "code: int b;",
    "directive: #endif",
  ]);
});

Deno.test("top-level items: an #ifdef splitting a head belongs to the item it splits", () => {
  const text = "static int\n#ifdef A\nf(int a)\n#else\nf(long a)\n#endif\n{\n}\nint z;\n";
  assert.deepEqual(items(text), [
    "code: static int\n#ifdef A\nf(int a)\n#else\nf(long a)\n#endif\n{\n}",
    "code: int z;",
  ]);
});

Deno.test("top-level items: a `}` that is no function's end does not end the item", () => {
  // A lambda's body is followed by `;`; a struct's by its declarators; a macro call without a
  // `;` runs on into what follows (a larger item, never a cut one).
  const text = "auto f = [](int x) { return x; };\nDEFINE_THING(a)\nint b;\n";
  assert.deepEqual(items(text), [
    "code: auto f = [](int x) { return x; };",
    "code: DEFINE_THING(a)\nint b;",
  ]);
});

Deno.test("top-level items: `;` and braces in comments, strings and parentheses do not count", () => {
  const text = 'int a /* ; } */ = 1;\nchar *s = "; }";\nvoid g(int (*cb)(int; int));\n' +
    "char c = ';'; // ; }\nint z;\n";
  assert.deepEqual(items(text), [
    "code: int a /* ; } */ = 1;",
    'code: char *s = "; }";',
    "code: void g(int (*cb)(int; int));",
    "code: char c = ';';",
    "code: int z;",
  ]);
});

Deno.test("top-level items: braces that do not balance give no items, but the quiet spans", () => {
  const text = "#ifdef A\nvoid f(void) {\n#else\nvoid f(int x) {\n#endif\n}\n/* note */\n";
  const split = topLevelItems(text);
  assert.ok(split !== null);
  assert.equal(split.items, null);
  assert.deepEqual(split.directives.map((d) => text.slice(d.start, d.end)), [
    "#ifdef A\n",
    "#else\n",
    "#endif\n",
  ]);
  assert.deepEqual(split.quiet.map(([s, e]) => text.slice(s, e)), ["/* note */"]);
});

Deno.test("top-level items: an unterminated comment gives nothing", () => {
  assert.equal(topLevelItems("int a;\n/* open\nint b;\n"), null);
});

Deno.test("top-level items: a quote closing nothing on its line is no literal", () => {
  // `1'000` (a C++14 digit separator): the rest of the line is still code.
  const split = topLevelItems("int a = 1'000; int kmalloc;\n");
  assert.ok(split !== null && split.items !== null);
  assert.deepEqual(split.quiet, []);
  assert.equal(split.items.length, 2);
});
