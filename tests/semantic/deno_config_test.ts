/**
 * A Deno workspace through the real server: specifiers its root `deno.json(c)` maps to its own
 * files (workspace members by name and export, relative `imports` entries and prefixes) resolve
 * to those files; `jsr:`/`npm:` targets and targets leading outside the root stay unresolved; an
 * edit to the config is seen by the next call.
 */
import assert from "node:assert/strict";
import { SemanticServer } from "./server.ts";

async function write(root: string, files: Record<string, string>): Promise<void> {
  for (const [rel, text] of Object.entries(files)) {
    const slash = rel.lastIndexOf("/");
    if (slash > 0) await Deno.mkdir(`${root}/${rel.slice(0, slash)}`, { recursive: true });
    await Deno.writeTextFile(`${root}/${rel}`, text);
  }
}

const FILES: Record<string, string> = {
  "deno.jsonc": `{
    // a Deno workspace, with comments and trailing commas
    "workspace": ["./packages/*", "./tools"],
    "imports": {
      "@/": "./app/",
      "config": "./app/config.ts",
      "std-remote": "jsr:@std/assert@^1",
      "outside": "../outside.ts",
    },
  }`,
  "packages/assert/deno.json": JSON.stringify({
    name: "@demo/assert",
    exports: { ".": "./mod.ts", "./equals": "./equals.ts" },
  }),
  "packages/assert/mod.ts": 'export { assertEquals } from "./equals.ts";\n',
  "packages/assert/equals.ts": "export function assertEquals(a: unknown, b: unknown): void {}\n",
  "tools/deno.json": JSON.stringify({ name: "@demo/tools", exports: "./run.ts" }),
  "tools/run.ts": "export const runTool = (name: string): string => name;\n",
  "app/config.ts": "export const port = 8080;\n",
  "app/util/strings.ts": "export function shout(s: string): string {\n  return s;\n}\n",
  "app/main.ts": [
    'import { assertEquals } from "@demo/assert";',
    'import { assertEquals as eq } from "@demo/assert/equals";',
    'import { runTool } from "@demo/tools";',
    'import { port } from "config";',
    'import { shout } from "@/util/strings.ts";',
    'import { remote } from "std-remote";',
    'import { away } from "outside";',
    "assertEquals(runTool(shout('a')), eq);",
    "console.log(port, remote, away);",
    "",
  ].join("\n"),
};

Deno.test("semantic tools: a Deno workspace's own specifiers resolve to its files", async () => {
  const base = await Deno.makeTempDir();
  const root = `${base}/root`;
  await Deno.mkdir(root);
  await Deno.writeTextFile(`${base}/outside.ts`, "export const away = 'OUTSIDE_Q7';\n");
  await write(root, FILES);
  const server = await SemanticServer.start(root);
  try {
    const definition = async (line: number, name: string) => {
      const got = await server.ok("go_to_definition", { path: "app/main.ts", line, name });
      return (got.structured.definitions as Array<{ path: string; line: number }>).map((d) =>
        `${d.path}:${d.line}`
      );
    };
    assert.deepEqual(await definition(8, "assertEquals"), ["packages/assert/equals.ts:1"]);
    assert.deepEqual(await definition(2, "assertEquals"), ["packages/assert/equals.ts:1"]);
    assert.deepEqual(await definition(8, "runTool"), ["tools/run.ts:1"]);
    assert.deepEqual(await definition(9, "port"), ["app/config.ts:1"]);
    assert.deepEqual(await definition(8, "shout"), ["app/util/strings.ts:1"]);

    // References from the definition reach the importing file through the member's name.
    const refs = await server.ok("find_references", {
      path: "packages/assert/equals.ts",
      line: 1,
      name: "assertEquals",
      head_limit: 0,
    });
    assert.match(refs.text, /^app\/main\.ts:8:1:/m);

    // jsr: and outside targets stay unresolved modules; nothing outside is read.
    const diagnostics = await server.ok("diagnostics", { path: "app/main.ts", head_limit: 0 });
    assert.match(diagnostics.text, /app\/main\.ts:6:\d+: error TS2307: .*std-remote/);
    assert.match(diagnostics.text, /app\/main\.ts:7:\d+: error TS2307: .*outside/);
    assert.doesNotMatch(diagnostics.text, /@demo\/|config|@\/util/);
    assert.ok(!JSON.stringify(diagnostics).includes("OUTSIDE_Q7"));

    // The config is read again once it changes: the member's new name is what resolves now.
    await Deno.writeTextFile(
      `${root}/tools/deno.json`,
      JSON.stringify({ name: "@demo/renamed", exports: "./run.ts" }),
    );
    const after = await server.ok("diagnostics", { path: "app/main.ts", head_limit: 0 });
    assert.match(after.text, /app\/main\.ts:3:\d+: error TS2307: .*@demo\/tools/);
  } finally {
    await server.close();
    await Deno.remove(base, { recursive: true });
  }
});
