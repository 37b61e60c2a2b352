/**
 * Answers never show where the root lives: TypeScript names a module by its absolute path
 * (`"/home/me/app/lib/application"`) and prints types as `import("/home/me/app/a")`; the
 * semantic tools give those paths root-relative.
 */
import assert from "node:assert/strict";
import { SemanticServer } from "./server.ts";

Deno.test("semantic tools: module names and diagnostics name paths relative to the root", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir());
  await Deno.mkdir(`${root}/lib`);
  await Deno.writeTextFile(
    `${root}/lib/application.js`,
    "'use strict';\nvar app = exports = module.exports = {};\napp.name = 'app';\n",
  );
  await Deno.writeTextFile(
    `${root}/main.js`,
    "var proto = require('./lib/application');\nproto.name;\n",
  );
  await Deno.writeTextFile(`${root}/a.ts`, "export const value = 1;\n");
  await Deno.writeTextFile(
    `${root}/b.ts`,
    'declare const m: typeof import("./a.ts");\nexport const n: number = m;\n',
  );
  const server = await SemanticServer.start(root);
  try {
    const definition = await server.ok("go_to_definition", {
      path: "main.js",
      line: 1,
      name: "proto",
    });
    const names = (definition.structured.definitions as Array<{ name: string; path: string }>)
      .map((d) => `${d.path} ${d.name}`);
    assert.deepEqual(names, ['lib/application.js "lib/application"']);
    assert.ok(!definition.text.includes(root), definition.text);

    const diagnostics = await server.ok("diagnostics", { path: "b.ts", head_limit: 0 });
    assert.match(diagnostics.text, /typeof import\("a"\)/);
    assert.ok(!diagnostics.text.includes(root), diagnostics.text);
    assert.ok(!JSON.stringify(diagnostics.structured).includes(root));
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
});
