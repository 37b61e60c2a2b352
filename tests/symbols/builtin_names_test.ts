/**
 * Names the C grammar lexes as built-in types or literals are still names: `size_t`, `uint32_t`
 * and `NULL`, `TRUE`, `FALSE` have references, and `typedef unsigned long size_t;` defines
 * `size_t`; the keywords `int`, `char` and JavaScript's `null` are never references.
 */
import assert from "node:assert/strict";
import { PARSE_OPTIONS as options, withSymbolFiles } from "./temp_tree.ts";

const C = `typedef unsigned long size_t;
static void *p = NULL;
int f(size_t n, uint32_t x) {
  /* NULL and size_t in a comment are not references */
  if (p == NULL) return TRUE;
  return n > 0 ? FALSE : (int)sizeof(size_t);
}
`;

const JS = "const a = null;\nexport function g(x) {\n  return x === null;\n}\n";
const PY = "def h(x):\n    return True if x else False\n";

Deno.test("symbols: built-in type names and NULL/TRUE/FALSE are references in C", async () => {
  await withSymbolFiles({ "a.c": C, "b.js": JS, "c.py": PY }, async (ws, service) => {
    const refs = async (name: string, path = "a.c") => {
      const [file] = await service.references(ws, [path], { name, context: 0 }, options);
      assert.ok(file.ok);
      return file.references?.map(([line, column, definition]) =>
        `${line}:${column}${definition ? " def" : ""}`
      );
    };
    assert.deepEqual(await refs("size_t"), ["1:23 def", "3:7", "6:38"]);
    assert.deepEqual(await refs("uint32_t"), ["3:17"]);
    assert.deepEqual(await refs("NULL"), ["2:18", "5:12"]);
    assert.deepEqual(await refs("TRUE"), ["5:25"]);
    assert.deepEqual(await refs("FALSE"), ["6:18"]);
    assert.deepEqual(await refs("int"), []);
    assert.deepEqual(await refs("null", "b.js"), []);
    assert.deepEqual(await refs("True", "c.py"), []);
    assert.deepEqual(await refs("False", "c.py"), []);
  });
});

Deno.test("symbols: a typedef of a name the C grammar knows as built-in is a definition", async () => {
  await withSymbolFiles({ "a.c": C }, async (ws, service) => {
    const result = await service.symbols(ws, ["a.c"], options);
    const outcome = result.get("a.c");
    assert.ok(outcome?.ok);
    const typedefs = outcome.symbols.filter((s) => s.kind === "type").map((s) =>
      `${s.line} ${s.name}`
    );
    assert.deepEqual(typedefs, ["1 size_t"]);
  });
});
