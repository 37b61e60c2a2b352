/** The symbol service: partial parses, references, refusals, the cache and worker recycling. */
import assert from "node:assert/strict";
import { type FileOutcome, SymbolService } from "../../lib/symbols/service.ts";
import { Workspace } from "../../lib/workspace/workspace.ts";
import { makeTree } from "../tools/helpers.ts";

const signal = new AbortController().signal;

async function withService(
  files: Record<string, string | Uint8Array>,
  fn: (service: SymbolService, ws: Workspace, root: string) => Promise<void>,
  options: ConstructorParameters<typeof SymbolService>[0] = {},
): Promise<void> {
  const root = await makeTree(files);
  const ws = Workspace.openSync({ root, noIgnore: false, allowSecrets: false });
  const service = new SymbolService({ workers: 1, ...options });
  try {
    await fn(service, ws, root);
  } finally {
    service.stop();
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("symbols: a file with syntax errors still gives its symbols, partial", async () => {
  await withService({
    "broken.c": "int good(void) { return 1; }\nint broken( { \nstruct later { int x; };\n",
    "broken.py": "def ok():\n    return 1\n\ndef bad(:\n    pass\n\nclass After:\n    pass\n",
  }, async (service, ws) => {
    const got = await service.symbols(ws, ["broken.c", "broken.py"], { signal, maxBytes: 1e6 });
    const c = got.get("broken.c");
    assert.ok(c?.ok);
    assert.equal(c.partial, true);
    assert.ok(c.symbols.some((s) => s.name === "good" && s.kind === "function"));
    const py = got.get("broken.py");
    assert.ok(py?.ok);
    assert.equal(py.partial, true);
    assert.deepEqual(
      py.symbols.filter((s) => s.name !== "bad").map((s) => `${s.kind} ${s.name}`),
      ["function ok", "class After"],
    );
  });
});

Deno.test("symbols: the line of a definition is the line of its name", async () => {
  await withService({
    "a.c": "static int\nadd(int a, int b)\n{\n\treturn a + b;\n}\n",
  }, async (service, ws) => {
    const got = await service.symbols(ws, ["a.c"], { signal, maxBytes: 1e6 });
    const a = got.get("a.c");
    assert.ok(a?.ok);
    assert.deepEqual(a.symbols.map((s) => [s.name, s.start_line, s.line, s.end_line]), [
      ["add", 1, 2, 5],
    ]);
  });
});

Deno.test("symbols: references skip comments, strings and longer identifiers", async () => {
  await withService({
    "r.ts": [
      "// total is counted here",
      'const label = "total";',
      "let total = 0;",
      "const totals = [total, subtotal];",
      "function add(n: number) { total += n; return `${total}`; }",
      "const o = { total };",
      "/* total */ export { total };",
      "",
    ].join("\n"),
    "m.c": [
      "#define TOTAL(x) (x + total) /* total */",
      '#define NAME "total"',
      "int total;",
      "",
    ].join("\n"),
  }, async (service, ws) => {
    const files = await service.references(ws, ["r.ts", "m.c"], { name: "total", context: 0 }, {
      signal,
      maxBytes: 1e6,
    });
    const refs = Object.fromEntries(files.map((f) => [f.path, f.ok ? f.references : null]));
    assert.deepEqual(refs["r.ts"], [
      [3, 5, true],
      [4, 17, false],
      [5, 27, false],
      [5, 49, false],
      [6, 13, false],
      [7, 22, false],
    ]);
    assert.deepEqual(refs["m.c"], [[1, 23, false], [3, 5, true]]);
  });
});

Deno.test("symbols: binary and over-limit files are refused, not parsed", async () => {
  await withService({
    "bin.c": new Uint8Array([105, 110, 116, 0, 120, 59]),
    "big.c": "int x;\n".repeat(2000),
  }, async (service, ws) => {
    const got = await service.symbols(ws, ["bin.c", "big.c"], { signal, maxBytes: 1000 });
    assert.deepEqual(got.get("bin.c"), { ok: false, reason: "binary", size: 6 });
    assert.deepEqual(got.get("big.c"), { ok: false, reason: "too-large", size: 14000 });
  });
});

Deno.test("symbols: a changed file is parsed again (cache by path, size and mtime)", async () => {
  await withService({ "c.py": "def one():\n    pass\n" }, async (service, ws, root) => {
    await service.symbols(ws, ["c.py"], { signal, maxBytes: 1e6 });
    assert.equal(service.cache.size, 1);
    const started = service.parsers.started;
    await Deno.writeTextFile(`${root}/c.py`, "def two():\n    pass\n\ndef three():\n    pass\n");
    const changed = await service.symbols(ws, ["c.py"], { signal, maxBytes: 1e6 });
    const outcome = changed.get("c.py");
    assert.ok(outcome?.ok);
    assert.deepEqual(outcome.symbols.map((s) => s.name), ["two", "three"]);
    assert.equal(service.parsers.started, started);
  });
});

Deno.test("symbols: a cache hit does not parse again", async () => {
  await withService({ "h.go": "package h\n\nfunc A() {}\n" }, async (service, ws) => {
    await service.symbols(ws, ["h.go"], { signal, maxBytes: 1e6 });
    // Stop the workers: a hit must not need them.
    service.parsers.stop();
    const hit = await service.symbols(ws, ["h.go"], { signal, maxBytes: 1e6 });
    const outcome = hit.get("h.go");
    assert.ok(outcome?.ok);
    assert.deepEqual(outcome.symbols.map((s) => s.name), ["A"]);
    assert.equal(service.parsers.started, 1);
  });
});

Deno.test("symbols: the cache stays within its byte budget", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 30; i++) files[`f${i}.py`] = `def f${i}():\n    pass\n`.repeat(20);
  await withService(files, async (service, ws) => {
    await service.symbols(ws, Object.keys(files), { signal, maxBytes: 1e6 });
    assert.ok(service.cache.bytes <= 20_000, `cache holds ${service.cache.bytes} bytes`);
    assert.ok(service.cache.size < 30 && service.cache.size > 0);
  }, { cacheBytes: 20_000 });
});

Deno.test("symbols: the parser worker is replaced after its parsed-bytes threshold", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 6; i++) files[`r${i}.rs`] = `fn f${i}() {}\n`.repeat(100);
  await withService(files, async (service, ws) => {
    for (const path of Object.keys(files)) {
      const got = await service.symbols(ws, [path], { signal, maxBytes: 1e6 });
      assert.ok(got.get(path)?.ok);
    }
    // Each file is ~1.3 KB and the threshold 2 KB: a new worker every second file.
    assert.equal(service.parsers.started, 3);
  }, { recycleBytes: 2000 });
});

/** A C table whose syntax tree grows tree-sitter's heap past its initial 32 MiB. */
const BIG_TABLE = `static const int table[] = {\n${
  "\t0x1, 0x2, 0x3, 0x4, 0x5, 0x6, 0x7, 0x8,\n".repeat(40_000)
}};\n`;
const MiB = 1024 * 1024;
/** 984,000 bytes: a tree that grows a heap past 33 MiB, in a file under ALONE_BYTES. */
const TABLE_UNDER_A_MIB = `static const int table[] = {\n${
  "\t0x1, 0x2, 0x3, 0x4, 0x5, 0x6, 0x7, 0x8,\n".repeat(24_000)
}};\n`;

function namesOf(outcome: FileOutcome | undefined): string[] | null {
  return outcome?.ok ? outcome.symbols.map((s) => s.name) : null;
}

Deno.test("symbols: a parser worker whose heap grew past its recycle size is replaced", async () => {
  await withService(
    { "small.go": "package s\n\nfunc A() {}\n", "big.c": BIG_TABLE },
    async (service, ws) => {
      await service.symbols(ws, ["small.go"], { signal, maxBytes: 4 * MiB });
      assert.ok(service.parsers.heapBytes <= 32 * MiB, `${service.parsers.heapBytes} bytes`);
      const big = await service.symbols(ws, ["big.c"], { signal, maxBytes: 4 * MiB });
      assert.deepEqual(namesOf(big.get("big.c")), [
        "table",
      ]);
      assert.equal(service.parsers.started, 1);
      // The grown worker is gone, and its heap with it; the next parse starts a fresh one.
      assert.equal(service.parsers.heapBytes, 0);
      await Deno.writeTextFile(`${ws.root}/small.go`, "package s\n\nfunc C() {}\n");
      const got = await service.symbols(ws, ["small.go"], { signal, maxBytes: 4 * MiB });
      assert.ok(got.get("small.go")?.ok);
      assert.equal(service.parsers.started, 2);
      assert.ok(service.parsers.heapBytes <= 33 * MiB, `${service.parsers.heapBytes} bytes`);
    },
    { heapRecycleBytes: 33 * MiB },
  );
});

Deno.test("symbols: a parser worker over its heap share gets no more batches of the same call", async () => {
  // Four files, each its own batch, each growing a fresh heap past the recycle size. The worker
  // holds at most two batches at once: it parses the two it was given, then a fresh worker takes
  // the next two. A pool that handed one worker all the batches of a call would parse all four
  // in one ever-grown heap (one worker started).
  // (Under a MiB each: a file of a MiB or more is parsed alone, see the next tests.)
  const files: Record<string, string> = {};
  for (let i = 0; i < 4; i++) files[`big${i}.c`] = TABLE_UNDER_A_MIB.replace("table", `table${i}`);
  await withService(files, async (service, ws) => {
    const got = await service.symbols(ws, Object.keys(files), { signal, maxBytes: 4 * MiB });
    for (let i = 0; i < 4; i++) assert.deepEqual(namesOf(got.get(`big${i}.c`)), [`table${i}`]);
    assert.equal(service.parsers.started, 2);
    assert.equal(service.parsers.heapBytes, 0, "every grown worker is gone");
  }, { heapRecycleBytes: 33 * MiB });
});

Deno.test("symbols: a parser worker whose JavaScript heap grew past its share is replaced", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 3; i++) files[`g${i}.go`] = `package g\n\nfunc F${i}() {}\n`;
  await withService(files, async (service, ws) => {
    // Any worker's V8 heap is over 1 MiB: each batch is the last of its worker.
    for (const path of Object.keys(files)) {
      const got = await service.symbols(ws, [path], { signal, maxBytes: 1e6 });
      assert.ok(got.get(path)?.ok);
    }
    assert.equal(service.parsers.started, 3);
  }, { v8RecycleBytes: 1024 * 1024 });
  await withService(files, async (service, ws) => {
    for (const path of Object.keys(files)) {
      await service.symbols(ws, [path], { signal, maxBytes: 1e6 });
    }
    assert.equal(service.parsers.started, 1, "within the default share one worker serves them all");
  });
});

Deno.test("symbols: a tree that needs more than the heap cap fails its file, not the session", async () => {
  await withService(
    { "small.go": "package s\n\nfunc A() {}\n", "big.c": BIG_TABLE },
    async (service, ws) => {
      const big = await service.symbols(ws, ["big.c", "small.go"], { signal, maxBytes: 4 * MiB });
      assert.deepEqual(big.get("big.c"), { ok: false, reason: "heap", size: BIG_TABLE.length });
      // The worker that ran out of heap is replaced: the next file parses.
      await Deno.writeTextFile(`${ws.root}/small.go`, "package s\n\nfunc C() {}\n");
      const got = await service.symbols(ws, ["small.go"], { signal, maxBytes: 4 * MiB });
      assert.deepEqual(namesOf(got.get("small.go")), [
        "C",
      ]);
      assert.ok(service.parsers.heapBytes <= 33 * MiB, `${service.parsers.heapBytes} bytes`);
    },
    { heapCapBytes: 33 * MiB },
  );
});

Deno.test("symbols: cutting C/C++ function bodies changes no definition", async () => {
  const fixtures = new URL("../testdata/symbols/", import.meta.url).pathname;
  const ws = Workspace.openSync({ root: fixtures, noIgnore: true, allowSecrets: false });
  const files = ["sample.c", "kernel_style.c", "sample.cpp"];
  const full = new SymbolService({ workers: 1 });
  const cut = new SymbolService({ workers: 1 });
  try {
    const a = await full.symbols(ws, files, { signal, maxBytes: 1e6 });
    const b = await cut.symbols(ws, files, { signal, maxBytes: 1e6, definitionsOnly: true });
    const shape = (o: typeof a extends Map<string, infer V> ? V : never) => {
      assert.ok(o.ok);
      const out: string[] = [];
      const visit = (list: typeof o.symbols) => {
        for (const s of list) {
          out.push(`${s.kind} ${s.name} ${s.start_line}-${s.end_line} @${s.line}`);
          if (s.children) visit(s.children);
        }
      };
      visit(o.symbols);
      return out;
    };
    for (const file of files) {
      assert.ok(shape(a.get(file)!).length > 10, file);
      assert.deepEqual(shape(b.get(file)!), shape(a.get(file)!), file);
    }
    // An entry parsed without bodies does not serve an outline: it parses the whole file.
    const parsed = cut.parsers.parsedFiles;
    await cut.symbols(ws, ["kernel_style.c"], { signal, maxBytes: 1e6, definitionsOnly: true });
    assert.equal(cut.parsers.parsedFiles, parsed);
    const again = await cut.symbols(ws, ["kernel_style.c"], { signal, maxBytes: 1e6 });
    assert.ok(again.get("kernel_style.c")?.ok);
    assert.equal(cut.parsers.parsedFiles, parsed + 1);
  } finally {
    full.stop();
    cut.stop();
  }
});

Deno.test("symbols: a cancelled parse rejects, and the next call still works", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 40; i++) files[`p${i}.py`] = `def f${i}():\n    return ${i}\n`.repeat(200);
  await withService(files, async (service, ws) => {
    const controller = new AbortController();
    const pending = service.symbols(ws, Object.keys(files), {
      signal: controller.signal,
      maxBytes: 1e6,
    });
    controller.abort(new Error("cancelled by the client"));
    await assert.rejects(pending, /cancelled by the client/);
    const got = await service.symbols(ws, ["p1.py"], { signal, maxBytes: 1e6 });
    const outcome = got.get("p1.py");
    assert.ok(outcome?.ok);
    assert.equal(outcome.symbols.length, 200);
  });
});

Deno.test("symbols: a C file that mentions the name only inside function bodies is not parsed for its definitions", async () => {
  await withService({
    "uses.c": "static int a(void)\n{\n\treturn kmalloc(1);\n}\n",
    "defines.c": "void *kmalloc(int n)\n{\n\treturn 0;\n}\nint b(void) { return kmalloc(2); }\n",
    "declares.h": "#define ALLOC(n) kmalloc(n)\n",
  }, async (service, ws) => {
    const definitionOf = { source: "\\bkmalloc\\b", flags: "" };
    const got = await service.symbols(ws, ["uses.c", "defines.c", "declares.h"], {
      signal,
      maxBytes: 1e6,
      definitionsOnly: true,
      definitionOf,
    });
    const names = (path: string) => {
      const o = got.get(path);
      assert.ok(o?.ok, path);
      return o.symbols.map((s) => `${s.kind} ${s.name}`);
    };
    assert.deepEqual(names("uses.c"), []);
    assert.deepEqual(names("defines.c"), ["function kmalloc", "function b"]);
    assert.deepEqual(names("declares.h"), ["macro ALLOC"]);
    // The pruned file's empty answer is not its outline: nothing of it was cached.
    assert.equal(service.cache.size, 2);
    const outline = await service.symbols(ws, ["uses.c"], { signal, maxBytes: 1e6 });
    assert.deepEqual(outline.get("uses.c")?.ok && outline.get("uses.c"), {
      ok: true,
      partial: false,
      symbols: [{ kind: "function", name: "a", start_line: 1, end_line: 4, line: 1, column: 12 }],
    });
  });
});

Deno.test("symbols: a file with thousands of symbols hands find_symbol only the wanted names, uncached", async () => {
  const lines = [];
  for (let i = 0; i < 5000; i++) lines.push(`#define REG_${i} ${i}`);
  lines.push("struct box { int wanted_field; };", "static int wanted_fn(void) { return 1; }");
  const header = lines.join("\n") + "\n";
  await withService({ "regs.h": header }, async (service, ws) => {
    const got: FileOutcome[] = [];
    const pattern = { source: "\\bwanted", flags: "u" };
    await service.eachFile(ws, ["regs.h"], {
      signal,
      maxBytes: 4 * MiB,
      definitionsOnly: true,
      definitionOf: pattern,
      keep: pattern,
    }, (_, outcome) => got.push(outcome));
    assert.equal(got.length, 1);
    const outcome = got[0];
    assert.ok(outcome.ok);
    assert.deepEqual(
      outcome.symbols.map((s) => [s.kind, s.name, s.line, s.container ?? null, s.children ?? null]),
      [["field", "wanted_field", 5001, "box", null], ["function", "wanted_fn", 5002, null, null]],
    );
    assert.equal(service.cache.size, 0, "a filtered answer is not the file's symbols");
    // The outline still gets every symbol.
    const whole = await service.symbols(ws, ["regs.h"], { signal, maxBytes: 4 * MiB });
    assert.equal(namesOf(whole.get("regs.h"))?.length, 5002);
  });
});

Deno.test("symbols: warming starts one parser worker, which the first batch uses", async () => {
  await withService({ "a.go": "package a\n\nfunc A() {}\n" }, async (service, ws) => {
    service.warm(ws);
    service.warm(ws);
    assert.equal(service.parsers.started, 1, "one worker is warmed, once");
    const got = await service.symbols(ws, ["a.go"], { signal, maxBytes: 1e6 });
    assert.deepEqual(namesOf(got.get("a.go")), ["A"]);
    assert.equal(service.parsers.started, 1, "the first parse used the warmed worker");
  }, { workers: 2 });
});

Deno.test("symbols: a call of several batches spreads them over a second worker", async () => {
  // 60 files are three batches of 24: the second goes to a second worker while the first parses.
  const files: Record<string, string> = {};
  for (let i = 0; i < 60; i++) files[`p${i}.go`] = `package p\n\nfunc F${i}() {}\n`;
  await withService(files, async (service, ws) => {
    service.warm(ws);
    const got = await service.symbols(ws, Object.keys(files), { signal, maxBytes: 1e6 });
    for (let i = 0; i < 60; i++) assert.deepEqual(namesOf(got.get(`p${i}.go`)), [`F${i}`]);
    assert.equal(service.parsers.started, 2);
  }, { workers: 2 });
});

Deno.test("symbols: a batch with a file of a MiB or more is parsed while no other batch is", async () => {
  // Batches: [a.go], [big.c] (1.6 MB, alone), [b.go, c.go]. Two batches in flight at once
  // would let b.go and c.go finish on the other worker while big.c parses.
  const files = {
    "a.go": "package a\n\nfunc A() {}\n",
    "big.c": BIG_TABLE,
    "b.go": "package b\n\nfunc B() {}\n",
    "c.go": "package c\n\nfunc C() {}\n",
  };
  await withService(files, async (service, ws) => {
    const order: string[] = [];
    await service.eachFile(ws, Object.keys(files), { signal, maxBytes: 4 * MiB }, (path) => {
      order.push(path);
    });
    assert.deepEqual(order, ["a.go", "big.c", "b.go", "c.go"]);
  }, { workers: 2 });
});

Deno.test("symbols: a parser worker whose heap a call grew is ended when the call is done", async () => {
  await withService(
    { "small.go": "package s\n\nfunc A() {}\n", "big.c": TABLE_UNDER_A_MIB },
    async (service, ws) => {
      await service.symbols(ws, ["small.go"], { signal, maxBytes: 4 * MiB });
      assert.ok(service.parsers.heapBytes > 0, "a worker that did not grow stays");
      const big = await service.symbols(ws, ["big.c"], { signal, maxBytes: 4 * MiB });
      assert.deepEqual(namesOf(big.get("big.c")), ["table"]);
      assert.equal(service.parsers.heapBytes, 0, "the grown worker is gone with its heap");
      await Deno.writeTextFile(`${ws.root}/small.go`, "package s\n\nfunc C() {}\n");
      const got = await service.symbols(ws, ["small.go"], { signal, maxBytes: 4 * MiB });
      assert.deepEqual(namesOf(got.get("small.go")), ["C"]);
      assert.equal(service.parsers.started, 2);
    },
  );
});

Deno.test("symbols: a file of a MiB or more hands find_symbol only the wanted names, however few", async () => {
  const header = [
    `/*${" padding of a generated header ".repeat(40_000)}*/`,
    "struct box {",
    "\tint wanted_field;",
    "\tstruct inner { int wanted_inner; int other; } in;",
    "};",
    "static int wanted_fn(void) { return 1; }",
    "static int other_fn(void) { return 2; }",
    "",
  ].join("\n");
  assert.ok(header.length >= MiB);
  await withService({ "big.h": header }, async (service, ws) => {
    const got: FileOutcome[] = [];
    const pattern = { source: "\\bwanted", flags: "u" };
    await service.eachFile(ws, ["big.h"], {
      signal,
      maxBytes: 4 * MiB,
      definitionsOnly: true,
      keep: pattern,
    }, (_, outcome) => got.push(outcome));
    const outcome = got[0];
    assert.ok(outcome.ok);
    assert.deepEqual(
      outcome.symbols.map((s) => [s.kind, s.name, s.line, s.container ?? null, s.children ?? null]),
      [
        ["field", "wanted_field", 3, "box", null],
        ["field", "wanted_inner", 4, "inner", null],
        ["function", "wanted_fn", 6, null, null],
      ],
    );
    assert.equal(service.cache.size, 0, "a filtered answer is not the file's symbols");
  });
});

Deno.test("symbols: a find_symbol over thousands of files parses on one worker, wanted names only", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 2100; i++) {
    files[`p/f${i}.go`] = `package p\n\nfunc Wanted${i}() {}\n\nfunc other${i}() {}\n`;
  }
  await withService(files, async (service, ws) => {
    const pattern = { source: "\\bWanted", flags: "u" };
    let ok = 0;
    await service.eachFile(ws, Object.keys(files), {
      signal,
      maxBytes: MiB,
      definitionsOnly: true,
      keep: pattern,
    }, (path, outcome) => {
      assert.ok(outcome.ok);
      const i = path.slice("p/f".length, -".go".length);
      assert.deepEqual(outcome.symbols.map((s) => s.name), [`Wanted${i}`]);
      ok++;
    });
    assert.equal(ok, 2100);
    assert.equal(service.parsers.started, 1, "one heap, not two");
    assert.equal(service.cache.size, 0, "the wanted names are not the files' symbols");
  }, { workers: 2 });
});
