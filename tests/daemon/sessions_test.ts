/**
 * Sessions of one workspace key share one daemon (docs/architecture.md, "The shared daemon"),
 * and nothing of one session reaches another: answers, ids, what was read. Real processes.
 */

import assert from "node:assert/strict";
import { INIT_ANSWER } from "../helpers/memory_session.ts";
import { call, content, DaemonWorld } from "./helpers.ts";

const FILES = {
  "alpha.txt": "alpha one\nalpha two\n",
  "beta.txt": "beta one\n",
  "src/gamma.ts": "export const gamma = 1;\n",
};

Deno.test("daemon: two sessions on one root share one daemon, and their answers never cross", async () => {
  const world = await DaemonWorld.create(FILES);
  try {
    const a = await world.session();
    const b = await world.session();
    assert.equal((await world.daemons()).length, 1);
    // The same ids in both sessions, different questions.
    await a.send(call(7, "grep", { pattern: "alpha" }), call(8, "glob", { pattern: "**/*.ts" }));
    await b.send(call(7, "grep", { pattern: "beta" }), call(8, "glob", { pattern: "*.txt" }));
    const a7 = content(await a.take((l) => JSON.parse(l).id === 7));
    const b7 = content(await b.take((l) => JSON.parse(l).id === 7));
    const a8 = content(await a.take((l) => JSON.parse(l).id === 8));
    const b8 = content(await b.take((l) => JSON.parse(l).id === 8));
    assert.deepEqual(a7.files, ["alpha.txt"]);
    assert.deepEqual(b7.files, ["beta.txt"]);
    assert.deepEqual(a8.files, ["src/gamma.ts"]);
    assert.deepEqual((b8.files as string[]).sort(), ["alpha.txt", "beta.txt"]);
    assert.deepEqual(a.unread, []);
    assert.deepEqual(b.unread, []);
    assert.equal((await world.daemons()).length, 1);
  } finally {
    await world.dispose();
  }
});

Deno.test("daemon: four sessions at once, each gets exactly its own answers and progress", async () => {
  const world = await DaemonWorld.create(FILES);
  try {
    const sessions = await Promise.all([0, 1, 2, 3].map(() => world.session()));
    const words = ["alpha", "beta", "gamma", "one"];
    const expected = [["alpha.txt"], ["beta.txt"], ["src/gamma.ts"], ["alpha.txt", "beta.txt"]];
    for (let round = 0; round < 3; round++) {
      await Promise.all(sessions.map((s, i) =>
        s.send(JSON.stringify({
          jsonrpc: "2.0",
          id: 100 + round,
          method: "tools/call",
          params: {
            name: "grep",
            arguments: { pattern: words[i] },
            _meta: { progressToken: `s${i}` },
          },
        }))
      ));
    }
    for (const [i, s] of sessions.entries()) {
      for (let round = 0; round < 3; round++) {
        const line = await s.take((l) => JSON.parse(l).id === 100 + round);
        assert.deepEqual((content(line).files as string[]).sort(), expected[i]);
      }
      // Whatever else came is this session's own progress.
      for (const line of s.unread) {
        assert.equal(JSON.parse(line).params?.progressToken, `s${i}`, line);
      }
    }
    assert.equal((await world.daemons()).length, 1);
  } finally {
    await world.dispose();
  }
});

Deno.test("daemon: one session's read does not let another edit", async () => {
  const world = await DaemonWorld.create(FILES);
  try {
    const reader = await world.session(["--write"]);
    const other = await world.session(["--write"]);
    content(
      await reader.request(2, "tools/call", {
        name: "read_file",
        arguments: { path: "alpha.txt" },
      }).then(JSON.stringify),
    );
    const edit = { path: "alpha.txt", old_string: "alpha one", new_string: "ALPHA ONE" };
    const refused = await other.request(3, "tools/call", { name: "edit_file", arguments: edit });
    const result = refused.result as { isError?: boolean; content: Array<{ text: string }> };
    assert.equal(result.isError, true, JSON.stringify(refused));
    assert.match(result.content[0].text, /read/i);
    assert.equal(await Deno.readTextFile(`${world.root}/alpha.txt`), FILES["alpha.txt"]);
    const done = await reader.request(3, "tools/call", { name: "edit_file", arguments: edit });
    assert.equal((done.result as { isError?: boolean }).isError, undefined, JSON.stringify(done));
    assert.equal(await Deno.readTextFile(`${world.root}/alpha.txt`), "ALPHA ONE\nalpha two\n");
    assert.equal((await world.daemons()).length, 1);
  } finally {
    await world.dispose();
  }
});

Deno.test("daemon: a session's --tools is its own; the initialize answer is the one of --no-daemon", async () => {
  const world = await DaemonWorld.create(FILES);
  try {
    const narrow = await world.spawn(["--tools", "grep"]);
    await narrow.send(
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"tests","version":"1"}}}',
    );
    assert.equal((await narrow.read(1))[0], INIT_ANSWER);
    await narrow.send('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    const wide = await world.session();
    const names = async (s: typeof wide) =>
      ((await s.request(2, "tools/list")).result as { tools: Array<{ name: string }> }).tools
        .map((t) => t.name);
    assert.deepEqual(await names(narrow), ["grep"]);
    assert.ok((await names(wide)).length > 5);
    // Both relays may have started a daemon at once; the one that finds the other listening
    // leaves, so one daemon remains.
    await world.waitForDaemons(1);
  } finally {
    await world.dispose();
  }
});

Deno.test("daemon: a key difference (--no-ignore, --allow-secrets, --write) means another daemon", async () => {
  const world = await DaemonWorld.create(FILES);
  try {
    await world.session();
    await world.session();
    await world.waitForDaemons(1);
    await world.session(["--no-ignore"]);
    await world.waitForDaemons(2);
    await world.session(["--allow-secrets"]);
    await world.waitForDaemons(3);
    await world.session(["--write"]);
    await world.waitForDaemons(4);
    // A session's own flag is no key difference.
    await world.session(["--max-output-chars", "100", "--tools", "grep"]);
    assert.equal((await world.daemons()).length, 4);
  } finally {
    await world.dispose();
  }
});

Deno.test("daemon: one session's burst of heavy calls does not hold another session's call behind all of it", async () => {
  // 1,500 files and no index: every grep reads them all, so the burst is still queued when the
  // other session's call comes.
  const files: Record<string, string> = {};
  for (let i = 0; i < 1500; i++) files[`d${i % 30}/f${i}.txt`] = `line ${i}\n`.repeat(40);
  files["other.txt"] = "the other session's word\n";
  const world = await DaemonWorld.create(files);
  try {
    const heavy = await world.session(["--no-index"]);
    const light = await world.session(["--no-index"]);
    assert.equal((await world.daemons()).length, 1);
    const burst = Array.from({ length: 16 }, (_, i) => call(i + 10, "grep", { pattern: "l.ne" }));
    await heavy.send(...burst);
    await light.send(call(99, "grep", { pattern: "other session" }));
    const order: string[] = [];
    const waits = [
      ...Array.from(
        { length: 16 },
        (_, i) =>
          heavy.take((l) => JSON.parse(l).id === i + 10, 120_000).then(() => order.push(`h${i}`)),
      ),
      light.take((l) => JSON.parse(l).id === 99, 120_000).then(() => order.push("light")),
    ];
    await Promise.all(waits);
    // Served in turn, the light call waits behind a few of the burst, never behind all of it.
    assert.ok(order.indexOf("light") < 8, order.join(" "));
  } finally {
    await world.dispose();
  }
});

Deno.test("daemon: every session lists the resources as they are when it asks", async () => {
  const world = await DaemonWorld.create(FILES);
  try {
    const list = (id: number) => JSON.stringify({ jsonrpc: "2.0", id, method: "resources/list" });
    const names = (line: string) =>
      (JSON.parse(line).result.resources as { name: string }[]).map((r) => r.name).sort();
    const a = await world.session();
    await a.send(list(1));
    assert.deepEqual(names(await a.take((l) => JSON.parse(l).id === 1)), [
      "alpha.txt",
      "beta.txt",
      "src/gamma.ts",
    ]);
    await Deno.writeTextFile(`${world.root}/delta.txt`, "delta one\n");
    // A session that starts now, and the one that listed before: each sees the file.
    const b = await world.session();
    await b.send(list(1));
    await a.send(list(2));
    const all = ["alpha.txt", "beta.txt", "delta.txt", "src/gamma.ts"];
    assert.deepEqual(names(await b.take((l) => JSON.parse(l).id === 1)), all);
    assert.deepEqual(names(await a.take((l) => JSON.parse(l).id === 2)), all);
    assert.equal((await world.daemons()).length, 1);
  } finally {
    await world.dispose();
  }
});

Deno.test("daemon: a relay whose host closes stdin writes the answers of its calls in the daemon, then exits 0; the daemon serves on", async () => {
  const world = await DaemonWorld.create(FILES);
  try {
    const other = await world.session();
    const leaving = await world.session();
    const [daemon] = await world.waitForDaemons(1);
    await leaving.send(
      call(2, "grep", { pattern: "alpha" }),
      call(3, "glob", { pattern: "*.txt" }),
    );
    const done = await leaving.close();
    assert.equal(done.code, 0, done.stderr);
    const answers = new Map(done.lines.map((l) => [JSON.parse(l).id, l]));
    assert.deepEqual(content(answers.get(2)!).files, ["alpha.txt"]);
    assert.deepEqual((content(answers.get(3)!).files as string[]).sort(), [
      "alpha.txt",
      "beta.txt",
    ]);
    // The session that stays is served by the same daemon.
    const answer = await other.request(2, "tools/call", {
      name: "grep",
      arguments: { pattern: "beta" },
    });
    assert.deepEqual(content(JSON.stringify(answer)).files, ["beta.txt"]);
    assert.deepEqual(await world.daemons(), [daemon]);
  } finally {
    await world.dispose();
  }
});
