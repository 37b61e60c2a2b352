/**
 * The names a C/C++ text may define, in one pass (lib/c_source/definable_names.ts): for every
 * word of a text, the set holds it exactly when fileMayDefine says the text may define it, so
 * the index's lists (built from the set) rule out a file only where the scan's verdict would.
 */
import assert from "node:assert/strict";
import { definableNames } from "../../lib/c_source/definable_names.ts";
import { fileMayDefine } from "../../lib/c_source/definition_regions.ts";

const TEXTS: Record<string, string> = {
  "bodies, prototypes and fields": [
    "#include <linux/slab.h>",
    "struct task_struct;",
    "struct mm_struct { struct task_struct *owner; int count; spinlock_t lock; };",
    "static __always_inline __alloc_size(1) void *kmalloc(size_t size, gfp_t flags)",
    "{",
    "\tstruct task_struct *t = current;",
    "\treturn __kmalloc(size, flags) ?: t;",
    "}",
    "int schedule_timeout_interruptible(long timeout);",
    "enum state { STATE_IDLE = 0, STATE_BUSY };",
    "typedef unsigned int u32_t;",
    "",
  ].join("\n"),
  "comments, literals and preprocessor lines": [
    "/* kmalloc(GFP_ATOMIC) is used here; struct hidden { int a; }; */",
    'static const char *m = "unable to define_me 256 bytes";',
    "// int commented_out(void);",
    "#ifdef CONFIG_THING",
    "#define THING_MAX(a, b) ((a) > (b) ? inner_use(a) : (b))",
    "#endif",
    "int after_directives = 1;",
    "",
  ].join("\n"),
  "operands, members and tag uses": [
    "static struct box *boxes = make_boxes(4);",
    "int total = count_of(boxes) + other_total;",
    "int size_of_box = sizeof(struct box);",
    "void (*handler)(int) = on_event;",
    "struct box { int box_width; struct inner *next; } shared_box = { .box_width = 3 };",
    "",
  ].join("\n"),
  "identifiers with $ and non-ASCII characters": [
    "int cost$total(void);",
    "int naïve_count = 2;",
    "int plain_after;",
    "",
  ].join("\n"),
  "braces that do not balance": [
    "#ifdef A",
    "int split_head(int a) {",
    "#else",
    "int split_head(long a) {",
    "#endif",
    "\treturn inner_call(a);",
    "}",
    "int after_split;",
    "",
  ].join("\n"),
  "a comment never closed": "int before_comment;\n/* int inside_open_comment;\nint more;\n",
  "C++": [
    "namespace outer { class Widget final : public Base {",
    "public:",
    "  Widget();",
    "  int width() const { return compute_width(); }",
    "}; }",
    "template <typename T> T clamp_to(T v) { return v; }",
    "auto lambda_holder = [](int x) { return x + hidden_in_lambda; };",
    "",
  ].join("\n"),
};

/** Every word of the text, and a few it does not hold. */
function wordsOf(text: string): string[] {
  return [...new Set(text.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []), "absent_name", "x"];
}

function assertAgrees(label: string, text: string): void {
  const names = definableNames(text);
  for (const word of wordsOf(text)) {
    const verdict = fileMayDefine(text, new RegExp(`\\b${word}\\b`));
    assert.equal(names.has(word), verdict, `${label}: "${word}" (fileMayDefine says ${verdict})`);
  }
}

for (const [label, text] of Object.entries(TEXTS)) {
  Deno.test(`definable names: as fileMayDefine says, word by word (${label})`, () => {
    assertAgrees(label, text);
  });
}

Deno.test("definable names: as fileMayDefine says on the C fixtures of the symbol tests", async () => {
  for (
    const path of [
      "tests/testdata/symbols/kernel_style.c",
      "tests/testdata/symbols/sample.c",
      "tests/testdata/symbols/nested/attributes.c",
    ]
  ) {
    assertAgrees(path, await Deno.readTextFile(path));
  }
});

Deno.test("definable names: definitions in, uses out", () => {
  const names = definableNames(TEXTS["bodies, prototypes and fields"]);
  for (const name of ["kmalloc", "mm_struct", "owner", "count", "lock", "STATE_IDLE", "u32_t"]) {
    assert.ok(names.has(name), `${name} may be defined`);
  }
  for (const name of ["__kmalloc", "current", "spinlock_t", "slab", "include", "size_t"]) {
    assert.ok(!names.has(name), `${name} is only used`);
  }
  const odd = definableNames(TEXTS["identifiers with $ and non-ASCII characters"]);
  // `\bcost\b` and `\btotal\b` both match in `cost$total`, judged as one identifier.
  assert.ok(odd.has("cost") && odd.has("total") && odd.has("plain_after"));
});
