/**
 * Hostile repositories and arguments (issue 8) through the real process: every case keeps `ping`
 * answered and the process ends on EOF (watchdog.ts), and gives the answer docs/limits.md
 * section describes.
 */
import assert from "node:assert/strict";
import { call, exitsOnEof, started, whilePinged } from "./watchdog.ts";

const CATASTROPHIC = "*a*a*a*a*a*a*a*a*a*a*a*c";
const LONG_NAME = "a".repeat(100);

async function tree(files: Record<string, string>): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "shipcode-hostile-" });
  for (const [rel, text] of Object.entries(files)) {
    const abs = `${root}/${rel}`;
    await Deno.mkdir(abs.slice(0, abs.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(abs, text);
  }
  return root;
}

Deno.test("hostile #1: a backtracking .ignore line beside a 100-character name freezes nothing", async () => {
  const root = await tree({ ".ignore": `${CATASTROPHIC}\n`, [LONG_NAME]: "x\n", "ok.txt": "y\n" });
  const server = await started(root);
  try {
    const answer = await whilePinged(
      server,
      server.request(2, "resources/list").then((m) =>
        m.result as { resources: { name: string }[] }
      ),
    );
    assert.deepEqual(answer.resources.map((r) => r.name).sort(), [".ignore", LONG_NAME, "ok.txt"]);
    await exitsOnEof(server);
  } finally {
    await server.kill();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("hostile #3: catastrophic globs in glob and grep answer at once; {,} thirty times is refused", async () => {
  const root = await tree({ [LONG_NAME]: "needle\n", "b.c": "needle\n" });
  const server = await started(root);
  try {
    await whilePinged(
      server,
      (async () => {
        let id = 10;
        const cases: [string, string[]][] = [
          [CATASTROPHIC, []],
          ["*".repeat(30) + "c", ["b.c"]],
          [`${"a*".repeat(40)}c`, []],
          [`${"a*".repeat(40)}`, [LONG_NAME]],
        ];
        for (const [pattern, files] of cases) {
          const globbed = await call(server, id++, "glob", { pattern });
          assert.equal(globbed.isError, undefined, globbed.content[0].text);
          assert.deepEqual((globbed.structuredContent as { files: string[] }).files, files);
          const grepped = await call(server, id++, "grep", { pattern: "needle", glob: pattern });
          assert.deepEqual(
            (grepped.structuredContent as { files?: string[] }).files ?? [],
            files,
          );
        }
        const braces = await call(server, id++, "glob", { pattern: "{,}".repeat(30) + "c" });
        assert.equal(braces.isError, true);
        assert.match(braces.content[0].text, /braces expand to more than 256 patterns/);
        const nested = "{".repeat(20_000) + "a" + "}".repeat(20_000);
        const deep = await call(server, id++, "glob", { pattern: nested });
        assert.equal(deep.isError, true);
        assert.doesNotMatch(deep.content[0].text, /call stack/);
        // Later searches still work.
        const after = await call(server, id++, "grep", { pattern: "needle" });
        assert.deepEqual((after.structuredContent as { files: string[] }).files, [
          LONG_NAME,
          "b.c",
        ]);
      })(),
    );
    await exitsOnEof(server);
  } finally {
    await server.kill();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("hostile #1: a 3 MB .gitignore in a subfolder stalls nothing and hides what it governs", async () => {
  const rules = [...Array(150_000)].map((_, i) => `*x${i}*y*z\n`).join("");
  const root = await tree({
    "sub/.gitignore": rules,
    "sub/kept.txt": "needle\n",
    "top.txt": "needle\n",
  });
  await Deno.mkdir(`${root}/.git`);
  const server = await started(root);
  try {
    const found = await whilePinged(server, call(server, 2, "grep", { pattern: "needle" }));
    assert.deepEqual((found.structuredContent as { files: string[] }).files, ["top.txt"]);
    const read = await whilePinged(server, call(server, 3, "read_file", { path: "sub/kept.txt" }));
    assert.equal(read.isError, true);
    const { stderr } = await server.close();
    assert.match(stderr, /Hiding what ".*sub\/\.gitignore" governs: ignore files over 1 MiB/);
  } finally {
    await server.kill();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("hostile #6: names with a newline or other control characters are never listed", async () => {
  const root = await tree({
    "c\n7": "needle\n",
    "README.md": "needle\n",
    "x\u2028y.txt": "needle\n",
    "tab\there": "needle\n",
  });
  const server = await started(root);
  try {
    const grep = await call(server, 2, "grep", { pattern: "needle", output_mode: "content" });
    assert.equal(grep.content[0].text, "README.md:1:needle");
    const list = await call(server, 3, "list_dir", {});
    assert.deepEqual((list.structuredContent as { entries: string[] }).entries.length, 1);
    const { stderr } = await server.close();
    assert.match(stderr, /Skipped names that are not valid UTF-8 or hold control characters/);
  } finally {
    await server.kill();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("hostile #6: a million unknown argument keys are refused at once in one short sentence", async () => {
  const root = await tree({ "a.txt": "needle\n" });
  const server = await started(root);
  try {
    const args: Record<string, unknown> = { pattern: "needle" };
    for (let i = 0; i < 1_000_000; i++) args[`k${i}`] = i;
    const line = JSON.stringify({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "grep", arguments: args },
    });
    const refused = await whilePinged(
      server,
      server.send(line).then(() => server.take((l) => l.startsWith('{"jsonrpc":"2.0","id":2,'))),
    );
    assert.equal(
      refused,
      '{"jsonrpc":"2.0","id":2,"error":{"code":-32600,"message":"Request too large"}}',
    );
    const thousand: Record<string, unknown> = { pattern: "needle" };
    for (let i = 0; i < 1000; i++) thousand[`k${i}`] = i;
    const result = await whilePinged(server, call(server, 4, "grep", thousand));
    assert.equal(result.isError, true);
    assert.match(result.content[0].text, /^The arguments of grep have more than 64 keys/);
    assert.ok(result.content[0].text.length < 300);
    const twelve: Record<string, unknown> = { pattern: "needle" };
    for (let i = 0; i < 12; i++) twelve[`unknown${i}`] = i;
    const named = await call(server, 3, "grep", twelve);
    assert.match(named.content[0].text, /"unknown9" and 2 more for grep; valid parameters/);
    assert.doesNotMatch(named.content[0].text, /unknown10/);
    await exitsOnEof(server);
  } finally {
    await server.kill();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("hostile #6: 30,000 nested groups and [[:constructor:]] get one sentence each", async () => {
  const root = await tree({ "a.txt": "needle\n" });
  const server = await started(root);
  try {
    const nested = "(".repeat(30_000) + "a" + ")".repeat(30_000);
    const deep = await whilePinged(server, call(server, 2, "grep", { pattern: nested }));
    assert.equal(deep.isError, true);
    assert.doesNotMatch(deep.content[0].text, /call stack/);
    const eightK = "(".repeat(8_000) + "a" + ")".repeat(8_000);
    const deeper = await call(server, 4, "grep", { pattern: eightK });
    assert.equal(deeper.isError, true);
    assert.match(deeper.content[0].text, /nests groups or classes deeper than|nested too deeply/);
    const posix = await call(server, 3, "grep", { pattern: "[[:constructor:]]" });
    assert.equal(posix.isError, true);
    assert.doesNotMatch(posix.content[0].text, /native code|function/);
    await exitsOnEof(server);
  } finally {
    await server.kill();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("hostile #6: a 30-level symlink web is walked in bounded time", async () => {
  const root = await Deno.makeTempDir({ prefix: "shipcode-web-" });
  for (let k = 0; k < 30; k++) {
    await Deno.mkdir(`${root}/L${k}`);
    await Deno.writeTextFile(`${root}/L${k}/f.txt`, "needle\n");
  }
  for (let k = 0; k < 29; k++) {
    await Deno.symlink(`../L${k + 1}`, `${root}/L${k}/a`);
    await Deno.symlink(`../L${k + 1}`, `${root}/L${k}/b`);
  }
  const server = await started(root);
  try {
    const found = await whilePinged(
      server,
      call(server, 2, "grep", { pattern: "needle", output_mode: "count" }),
    );
    const total = (found.structuredContent as { total_files: number }).total_files;
    // Unbounded, L29 alone is reached through 2^29 paths.
    assert.ok(total >= 30 && total < 5000, `total_files ${total}`);
    const { stderr } = await server.close();
    assert.match(stderr, /Stopped following folder links to "L\d+": entered 16 times in one walk/);
  } finally {
    await server.kill();
    await Deno.remove(root, { recursive: true });
  }
});
