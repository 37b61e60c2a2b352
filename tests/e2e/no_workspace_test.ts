/** Started in / or the home folder without --root: the protocol works, nothing is served. */

import assert from "node:assert/strict";
import { INIT, INIT_ANSWER } from "../helpers/memory_session.ts";
import { ServerProcess } from "./harness.ts";

const NO_WORKSPACE = "No workspace: restart shipcode-mcp with --root DIR";

/** Deno's cache folder: moving HOME must not move it (the npm packages live there). */
async function denoDir(): Promise<string> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json"],
    stdout: "piped",
    stderr: "null",
  }).output();
  return JSON.parse(new TextDecoder().decode(out.stdout)).denoDir;
}

for (const where of ["/", "home"]) {
  Deno.test(`no workspace: started in ${where === "/" ? "/" : "the home folder"} without --root, it answers but serves nothing`, async () => {
    const home = await Deno.makeTempDir({ prefix: "shipcode-home-" });
    await Deno.writeTextFile(`${home}/diary.txt`, "private\n");
    const server = await ServerProcess.spawn([], {
      cwd: where === "/" ? "/" : home,
      env: { HOME: home, DENO_DIR: await denoDir() },
    });
    try {
      await server.send(INIT);
      assert.deepEqual(await server.read(1), [INIT_ANSWER]);
      assert.deepEqual((await server.request(2, "resources/list")).result, { resources: [] });
      const read = await server.request(3, "resources/read", { uri: `file://${home}/diary.txt` });
      assert.deepEqual(read.error, {
        code: -32002,
        message: "Resource not found",
        data: { uri: `file://${home}/diary.txt` },
      });
      for (
        const [id, name, args] of [
          [4, "grep", { pattern: "private" }],
          [5, "read_file", { path: "diary.txt" }],
          [6, "list_dir", {}],
          [7, "glob", { pattern: "*" }],
        ] as const
      ) {
        const called = await server.request(id, "tools/call", { name, arguments: args });
        assert.deepEqual(called.result, {
          content: [{ type: "text", text: NO_WORKSPACE }],
          isError: true,
        });
      }
      const end = await server.close();
      assert.equal(end.code, 0);
      assert.equal(end.stderr.trim().split("\n").filter((l) => l.includes(NO_WORKSPACE)).length, 1);
    } finally {
      await server.kill();
      await Deno.remove(home, { recursive: true });
    }
  });
}
