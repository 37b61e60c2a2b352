/**
 * The trigram index in the real process (docs/index.md): with the server's own permissions
 * (read only) it builds, watches the tree, and greps use it; answers equal --no-index's.
 */
import assert from "node:assert/strict";
import { INIT } from "../helpers/memory_session.ts";
import { ServerProcess } from "./harness.ts";

async function tree(): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "shipcode-e2e-index-" });
  await Deno.mkdir(`${root}/src`);
  for (let i = 0; i < 50; i++) {
    await Deno.writeTextFile(`${root}/src/f${i}.c`, `int value_${i};\nstatic int helper_${i};\n`);
  }
  await Deno.writeTextFile(`${root}/src/hit.c`, "void wanted_token(void);\n");
  return root;
}

async function grepText(server: ServerProcess, id: number, pattern: string): Promise<string> {
  const answer = await server.request(id, "tools/call", {
    name: "grep",
    arguments: { pattern, output_mode: "count" },
  });
  const result = answer.result as { content: { text: string }[] };
  return result.content[0].text;
}

Deno.test("e2e index: greps use the index once built, and see a file created meanwhile", async () => {
  const root = await tree();
  const server = await ServerProcess.spawn(["--root", root, "--log-level", "debug"]);
  const plain = await ServerProcess.spawn(["--root", root, "--no-index"]);
  try {
    await server.send(INIT);
    await server.read(1);
    await plain.send(INIT);
    await plain.read(1);
    // Grep for 10 s (the index starts 500 ms after the handshake and builds in milliseconds here;
    // the stderr lines checked below say whether it answered).
    let id = 10;
    const until = Date.now() + 10_000;
    let text = "";
    while (Date.now() < until) {
      text = await grepText(server, id++, "wanted_token");
      await new Promise((r) => setTimeout(r, 500));
    }
    assert.equal(text, "src/hit.c:1");
    await Deno.writeTextFile(`${root}/src/late.c`, "int wanted_token;\n");
    const fresh = await grepText(server, id++, "wanted_token");
    assert.equal(fresh, await grepText(plain, 2, "wanted_token"));
    assert.equal(fresh, "src/hit.c:1\nsrc/late.c:1");
    const end = await server.close();
    assert.match(end.stderr, /debug: index ready/);
    assert.match(end.stderr, /grep \/wanted_token\/: \d+ files from the index/);
  } finally {
    await server.kill();
    await plain.close();
    await Deno.remove(root, { recursive: true });
  }
});
