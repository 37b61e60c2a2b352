/** Blanking C function bodies keeps every position and every definition outside the bodies. */
import assert from "node:assert/strict";
import { skipFunctionBodies } from "../../lib/c_source/skip_bodies.ts";

Deno.test("skip bodies: a function body keeps only its line breaks; struct bodies stay", () => {
  const text =
    "struct s { int a; };\nint f(int x)\n{\n\tif (x) { return 1; }\n\treturn 0;\n}\nint y;\n";
  const out = skipFunctionBodies(text);
  assert.equal(out, "struct s { int a; };\nint f(int x)\n{\n\n\n}\nint y;\n");
  assert.equal(out.split("\n").length, text.split("\n").length);
});

Deno.test("skip bodies: braces in comments, strings, chars and #define lines do not count", () => {
  const text = [
    "#define OPEN { /* } */ \\",
    "\t}",
    "/* { */",
    "int g(void) { char c = '}'; const char *s = \"{\"; return 0; } // }",
    "int h;",
    "",
  ].join("\n");
  const out = skipFunctionBodies(text);
  assert.equal(out.split("\n")[3], "int g(void) {} // }");
  assert.equal(out.split("\n")[4], "int h;");
});

Deno.test("skip bodies: unbalanced braces (an #ifdef'd head) leave the text as it is", () => {
  const text = "#ifdef A\nvoid f(void) {\n#else\nvoid f(int x) {\n#endif\n\treturn;\n}\n";
  assert.equal(skipFunctionBodies(text), text);
});

Deno.test("skip bodies: initializers and nested struct bodies are kept", () => {
  const text = "static int t[] = { 1, 2 };\nstruct o { struct { int x; } in; };\n";
  assert.equal(skipFunctionBodies(text), text);
});
