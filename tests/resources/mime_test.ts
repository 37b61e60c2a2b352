import assert from "node:assert/strict";
import { loadMimeLibrary, mimeTypeOf, mimeTypeOrFallback } from "../../lib/resources/mime.ts";

Deno.test("mimeTypeOf: TypeScript is text/typescript, not video/mp2t", async () => {
  await loadMimeLibrary();
  for (const name of ["a.ts", "A.TS", "b.mts", "c.cts", "d.tsx"]) {
    assert.equal(mimeTypeOf(name), "text/typescript");
  }
});

Deno.test("mimeTypeOf: source files come from our table", async () => {
  await loadMimeLibrary();
  assert.equal(mimeTypeOf("main.rs"), "text/x-rust");
  assert.equal(mimeTypeOf("main.go"), "text/x-go");
  assert.equal(mimeTypeOf("x.py"), "text/x-python");
  assert.equal(mimeTypeOf("x.c"), "text/x-c");
  assert.equal(mimeTypeOf("x.h"), "text/x-c");
  assert.equal(mimeTypeOf("x.cpp"), "text/x-c++");
  assert.equal(mimeTypeOf("x.md"), "text/markdown");
  assert.equal(mimeTypeOf("x.json"), "application/json");
  assert.equal(mimeTypeOf("x.dts"), "text/x-devicetree");
});

Deno.test("mimeTypeOf: well-known names without extension", async () => {
  await loadMimeLibrary();
  assert.equal(mimeTypeOf("Makefile"), "text/x-makefile");
  assert.equal(mimeTypeOf("Dockerfile"), "text/x-dockerfile");
  assert.equal(mimeTypeOf("constructor"), undefined);
  assert.equal(mimeTypeOf("ts"), undefined);
});

Deno.test("mimeTypeOf: other extensions come from the mime library", async () => {
  await loadMimeLibrary();
  assert.equal(mimeTypeOf("logo.png"), "image/png");
  assert.equal(mimeTypeOf("doc.pdf"), "application/pdf");
});

Deno.test("mimeTypeOrFallback: unknown names are text/plain or application/octet-stream", () => {
  assert.equal(mimeTypeOrFallback("NOTES", true), "text/plain");
  assert.equal(mimeTypeOrFallback("data.unknownext", false), "application/octet-stream");
});
