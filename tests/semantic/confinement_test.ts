/**
 * Confinement and lifecycle: nothing outside the root, no secret and no plugin reaches an answer
 * (an outside file's unique token never appears, an `extends` leading out is reported once on
 * stderr as missing, a symlink leading out is absent, the plugin's code never runs); pings are
 * answered while a program builds; the worker ends when idle and starts again on the next call.
 */
import assert from "node:assert/strict";
import { makeProject, OUTSIDE_TOKEN, PLUGIN_MARK } from "./fixture.ts";
import { SemanticServer } from "./server.ts";
import { typescriptEngine } from "../../lib/semantic/typescript/engine.ts";
import { Workspace } from "../../lib/workspace/workspace.ts";

Deno.test("semantic confinement: no outside, secret or plugin text in any answer, outside extends reported once", async () => {
  const { base, root, dispose } = await makeProject();
  // A symlink that leads out, and files that import it and the outside file directly.
  Deno.symlinkSync(`${base}/outside/secret.ts`, `${root}/src/link.ts`);
  await Deno.writeTextFile(
    `${root}/src/leak.ts`,
    'import * as a from "./link";\n' +
      'import * as b from "../../outside/secret";\n' +
      "export const leaked = [a, b];\n",
  );
  const server = await SemanticServer.start(root, ["--write"]);
  const answers: string[] = [];
  try {
    const calls: Array<[string, Record<string, unknown>]> = [
      ["go_to_definition", { path: "src/leak.ts", line: 1, name: "a" }],
      ["go_to_definition", { path: "src/leak.ts", line: 3, name: "a" }],
      ["go_to_definition", { path: "src/leak.ts", line: 3, name: "b" }],
      ["find_references", { path: "src/leak.ts", line: 1, name: "a" }],
      ["find_references", { path: "src/leak.ts", line: 3, name: "b" }],
      ["find_references", { path: "other/a.ts", line: 1, name: "otherValue" }],
      ["go_to_definition", { path: "other/a.ts", line: 2, name: "otherValue" }],
      ["rename_symbol", { path: "src/leak.ts", line: 3, name: "leaked", new_name: "kept" }],
      ["diagnostics", { head_limit: 0 }],
      ["diagnostics", { path: "other", head_limit: 0 }],
      ["find_references", { name: "leaked" }],
    ];
    for (const [name, args] of calls) {
      const got = await server.call(name, args);
      answers.push(got.text, JSON.stringify(got.structured));
    }
    const unresolved = answers.filter((a) => /^src\/leak\.ts:[12]:\d+: error TS2307: /m.test(a));
    assert.ok(unresolved.length > 0, "the imports leading out are unresolved modules");
  } finally {
    const stderr = await server.close();
    await dispose();
    for (const answer of answers) {
      assert.ok(!answer.includes(OUTSIDE_TOKEN), answer);
      assert.ok(!answer.includes("SECRET_TOKEN_z8x1"), answer);
      assert.ok(!answer.includes(`${base}/outside`), answer);
      assert.ok(!answer.includes("writeFileSync"), answer);
    }
    // The outside extends is a config problem, said once on stderr.
    const told = stderr.split("\n").filter((l) => l.includes("other/tsconfig.json"));
    assert.equal(told.length, 1, stderr);
    assert.match(told[0], /TS5083/);
  }
});

Deno.test("semantic confinement: a plugin in tsconfig is never loaded, its answers come without it", async () => {
  const { root, dispose } = await makeProject();
  const server = await SemanticServer.start(root);
  try {
    await server.ok("go_to_definition", { path: "src/use.ts", line: 7, name: "Circle" });
    await server.ok("diagnostics", {});
    assert.throws(() => Deno.statSync(`${root}/${PLUGIN_MARK}`), Deno.errors.NotFound);
  } finally {
    await server.close();
    await dispose();
  }
});

Deno.test("semantic worker: pings are answered while a program builds", async () => {
  const { root, dispose } = await makeProject();
  const server = await SemanticServer.start(root);
  try {
    const process = server.process;
    await process.send(JSON.stringify({
      jsonrpc: "2.0",
      id: "diag",
      method: "tools/call",
      params: { name: "diagnostics", arguments: {} },
    }));
    const order: string[] = [];
    for (let k = 0; k < 5; k++) {
      await process.send(JSON.stringify({ jsonrpc: "2.0", id: `ping${k}`, method: "ping" }));
      const line = await process.readUntil((l) => {
        const id = JSON.parse(l).id;
        return id === `ping${k}` || id === "diag";
      });
      order.push(JSON.parse(line).id);
      if (order.includes("diag")) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.ok(order[0] === "ping0" && order[1] === "ping1", `pings waited for the build: ${order}`);
  } finally {
    await server.close();
    await dispose();
  }
});

Deno.test("semantic worker: ends when idle and starts again on the next question", async () => {
  const { root, dispose } = await makeProject();
  const service = typescriptEngine({ idleMs: 300 });
  const ws = Workspace.openSync({ root, noIgnore: false, allowSecrets: false });
  const signal = new AbortController().signal;
  try {
    const first = await service.ask(ws, {
      kind: "definition",
      at: { path: "src/use.ts", line: 7, name: "Circle" },
    }, { signal });
    assert.equal(first.kind, "definition");
    assert.equal(service.running, true);
    await new Promise((resolve) => setTimeout(resolve, 800));
    assert.equal(service.running, false, "the worker is ended after idleMs");
    const again = await service.ask(ws, {
      kind: "definition",
      at: { path: "src/use.ts", line: 7, name: "Circle" },
    }, { signal });
    assert.deepEqual(again, first);
    assert.equal(service.started, 2);
  } finally {
    service.stop();
    await dispose();
  }
});
