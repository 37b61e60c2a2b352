/**
 * Definitions at any depth (tests/testdata/symbols/nested/): inside callbacks, methods, closures,
 * nested functions and blocks, with the container each belongs to (the nearest named enclosing
 * symbol; none when only anonymous functions enclose it); and C function heads behind
 * attribute-like macros, in every preprocessor branch. Parsed by the real parser worker.
 */
import assert from "node:assert/strict";
import { SymbolService } from "../../lib/symbols/service.ts";
import { Workspace } from "../../lib/workspace/workspace.ts";
import type { CodeSymbol } from "../../lib/symbols/types.ts";

const FIXTURES = new URL("../testdata/symbols/nested/", import.meta.url).pathname;

/** `line kind name [in container]`, depth-first, indented by nesting. */
async function outline(file: string, definitionsOnly = false): Promise<string[]> {
  const ws = Workspace.openSync({ root: FIXTURES, noIgnore: true, allowSecrets: false });
  const service = new SymbolService({ workers: 1 });
  try {
    const result = await service.symbols(ws, [file], {
      signal: new AbortController().signal,
      maxBytes: 1 << 20,
      definitionsOnly,
    });
    const outcome = result.get(file);
    assert.ok(outcome?.ok, `${file} parsed`);
    const lines: string[] = [];
    const visit = (list: readonly CodeSymbol[], depth: number) => {
      for (const s of list) {
        const container = s.container === undefined ? "" : ` in ${s.container}`;
        lines.push(`${"  ".repeat(depth)}${s.line} ${s.kind} ${s.name}${container}`);
        if (s.children !== undefined) visit(s.children, depth + 1);
      }
    };
    visit(outcome.symbols, 0);
    return lines;
  } finally {
    service.stop();
  }
}

function expected(text: string): string[] {
  return text.trim().split("\n").map((l) => l.replace(/^ {4}/, ""));
}

Deno.test("symbols: TypeScript definitions in callbacks belong to the file, in methods to the method", async () => {
  assert.deepEqual(
    await outline("callbacks.ts"),
    expected(`
    4 function assertHooks
    7 function gen
    10 function helper
    12 interface Local
      13 field a in Local
    15 type Alias
    16 enum Mode
      17 constant On in Mode
    19 class Fake
      20 method run in Fake
    24 class Heap
      25 method create in Heap
        26 type RelaxedCtor in create
        27 function build in create
      32 field handler in Heap
        33 function onEvent in handler
    38 function outer
      41 function deep in outer
      47 function named in outer
    50 constant table
      51 function rowOf in table
    55 function describeOnly
    56 constant text`),
  );
});

Deno.test("symbols: JavaScript definitions in test callbacks and object methods belong to the file", async () => {
  assert.deepEqual(
    await outline("callbacks.js"),
    expected(`
    3 function check
    4 function cb
    5 class Mock
      6 method call in Mock
    14 function inner`),
  );
});

Deno.test("symbols: Python nested defs, in blocks and in methods, with their containers", async () => {
  assert.deepEqual(
    await outline("nested.py"),
    expected(`
    4 function _basic_auth_str
      5 function sha_utf8 in _basic_auth_str
      9 function md5_utf8 in _basic_auth_str
      12 function md5_utf8 in _basic_auth_str
      14 class Local in _basic_auth_str
        15 method method in Local
          16 function innermost in method
    23 class Session
      24 method send in Session
        25 function hook in send
        29 function in_with in send
    35 constant LIMIT`),
  );
});

Deno.test("symbols: Go types declared in function bodies and closures belong to the function", async () => {
  assert.deepEqual(
    await outline("nested.go"),
    expected(`
    3 function Handle
      4 struct point in Handle
        5 field x in point
      10 type inner in Handle`),
  );
});

Deno.test("symbols: Rust items in function bodies, closures and impl methods", async () => {
  assert.deepEqual(
    await outline("nested.rs"),
    expected(`
    1 function outer
      2 function helper in outer
      5 struct Local in outer
        6 field a in Local
      10 function in_closure in outer
    16 method method in Thing
      17 function nested_in_method in method`),
  );
});

Deno.test("symbols: Java local classes and anonymous classes' methods belong to the method", async () => {
  assert.deepEqual(
    await outline("Nested.java"),
    expected(`
    1 class Nested
      2 method run in Nested
        3 class Local in run
          4 method value in Local
        9 method run in run`),
  );
});

Deno.test("symbols: Ruby methods and classes in blocks belong to the file", async () => {
  assert.deepEqual(
    await outline("nested.rb"),
    expected(`
    2 function helper
    6 class Fake
      7 method call in Fake
    11 function outer
      12 function inner in outer`),
  );
});

const C_FUNCTIONS = expected(`
    5 function kmalloc
    10 function kmalloc_array
    16 function vprintk_buf
    21 function lookup_name
    26 function enter_recur
    32 function setup
    37 function weak_fn
    42 function helper
    48 function branch_a
    53 function branch_b
    58 function branch_c`);

Deno.test("symbols: C functions behind attribute-like macros and storage classes, in every #if branch", async () => {
  assert.deepEqual(await outline("attributes.c"), C_FUNCTIONS);
});

Deno.test("symbols: C attribute-macro heads give the same functions when bodies are cut out", async () => {
  assert.deepEqual(await outline("attributes.c", true), C_FUNCTIONS);
});

Deno.test("symbols: a C++ lambda defines nothing; an attribute-macro head still defines its function", async () => {
  assert.deepEqual(
    await outline("nested.cpp"),
    expected(`
    1 namespace app
      2 class Widget in app
        4 method draw in Widget
    11 function clamp`),
  );
});

Deno.test("symbols: references inside a blanked attribute macro still count", async () => {
  const ws = Workspace.openSync({ root: FIXTURES, noIgnore: true, allowSecrets: false });
  const service = new SymbolService({ workers: 1 });
  try {
    const [file] = await service.references(ws, ["attributes.c"], {
      name: "__alloc_size",
      context: 0,
    }, { signal: new AbortController().signal, maxBytes: 1 << 20 });
    assert.ok(file.ok);
    assert.deepEqual(file.references, [[5, 24, false], [10, 15, false]]);
  } finally {
    service.stop();
  }
});
