/**
 * File-system failures are results (docs/tools.md, "Errors from the file system"): the codes this
 * machine can provoke for real (ENAMETOOLONG, ELOOP, EISDIR, ENOTDIR) through every tool family
 * of the real process, with --write and in a git work tree, are one-sentence isError results and
 * never -32603. The other codes (EROFS, ENOSPC, EDQUOT, EACCES as root, EXDEV, EMFILE) are
 * pinned by the mapping's unit test.
 */
import assert from "node:assert/strict";
import { INIT } from "../helpers/memory_session.ts";
import { ServerProcess } from "./harness.ts";

const LONG = "n".repeat(300);

async function fixture(): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "shipcode-fserr-" });
  await Deno.writeTextFile(`${root}/f.txt`, "hello\n");
  await Deno.mkdir(`${root}/dir`);
  await Deno.symlink("loop-b", `${root}/loop-a`);
  await Deno.symlink("loop-a", `${root}/loop-b`);
  const git = await new Deno.Command("git", {
    args: ["init", "-q", root],
    stdout: "null",
    stderr: "null",
  }).output();
  assert.ok(git.success);
  return root;
}

Deno.test("fs errors: real ENAMETOOLONG, ELOOP, EISDIR and ENOTDIR are isError sentences for every tool family", async () => {
  const root = await fixture();
  const server = await ServerProcess.spawn(["--root", root, "--write", "--no-index"]);
  try {
    await server.send(INIT);
    await server.read(1);
    const list = await server.request(2, "tools/list");
    const offered = new Set(
      (list.result as { tools: { name: string }[] }).tools.map((t) => t.name),
    );
    const paths = [
      LONG,
      `dir/${LONG}`,
      `${LONG}/x.txt`,
      "loop-a",
      "loop-a/x.txt",
      "f.txt/x.txt",
      "dir",
    ];
    const calls: [string, (p: string) => Record<string, unknown>][] = [
      ["read_file", (p) => ({ path: p })],
      ["grep", (p) => ({ pattern: "x", path: p, output_mode: "content" })],
      ["glob", (p) => ({ pattern: "*", path: p })],
      ["list_dir", (p) => ({ path: p })],
      ["outline", (p) => ({ path: p })],
      ["find_symbol", (p) => ({ name: "x", path: p })],
      ["write_file", (p) => ({ path: p, content: "x\n" })],
      ["edit_file", (p) => ({ path: p, old_string: "", new_string: "x\n" })],
      ["delete_file", (p) => ({ path: p })],
      ["move_file", (p) => ({ source: "f.txt", destination: p })],
      ["git_log", (p) => ({ path: p })],
      ["git_blame", (p) => ({ path: p })],
      ["git_diff", (p) => ({ path: p })],
    ];
    let id = 10;
    let ran = 0;
    for (const [name, args] of calls) {
      if (!offered.has(name)) continue;
      for (const path of paths) {
        const answer = await server.request(id++, "tools/call", { name, arguments: args(path) });
        assert.equal(
          answer.error,
          undefined,
          `${name} ${path.slice(0, 20)}: ${JSON.stringify(answer.error)}`,
        );
        const result = answer.result as { isError?: boolean; content: { text: string }[] };
        ran++;
        if (result.isError !== true) continue; // a folder is a fine path for grep, glob, list_dir
        const text = result.content[0].text;
        assert.doesNotMatch(text, /\n/, `${name}: one sentence, got ${text}`);
        assert.doesNotMatch(text, /os error|\.$/, `${name}: ${text}`);
        assert.ok(!text.includes(root), `${name} names the absolute root: ${text}`);
      }
    }
    assert.ok(offered.has("write_file") && offered.has("git_log"), "the --write and git tools run");
    assert.ok(ran >= 70, `${ran} calls`);
    // The defect: write_file with a last segment longer than the file system allows.
    const write = await server.request(id++, "tools/call", {
      name: "write_file",
      arguments: { path: LONG, content: "x\n" },
    });
    assert.match(
      (write.result as { content: { text: string }[] }).content[0].text,
      /^Cannot write "n+…": a name in the path is longer than the file system allows \(ENAMETOOLONG\); use a shorter name$/,
    );
    const end = await server.close();
    assert.equal(end.code, 0);
    assert.doesNotMatch(end.stderr, /failed: /, "no handler failure reached the log");
  } finally {
    await server.kill();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("fs errors: resources/read of a real ENAMETOOLONG, ELOOP, EISDIR or ENOTDIR path is -32002, never -32603", async () => {
  const root = await fixture();
  const server = await ServerProcess.spawn(["--root", root, "--no-index"]);
  try {
    await server.send(INIT);
    await server.read(1);
    let id = 10;
    for (
      const path of [LONG, `dir/${LONG}`, `${LONG}/x.txt`, "loop-a", "loop-a/x", "f.txt/x", "dir"]
    ) {
      const uri = new URL(`file://${root}/${path}`).href;
      const answer = await server.request(id++, "resources/read", { uri });
      const error = answer.error as { code: number; message: string; data: { uri: string } };
      assert.deepEqual([error.code, error.message, error.data.uri], [
        -32002,
        "Resource not found",
        uri,
      ], path.slice(0, 20));
    }
    const end = await server.close();
    assert.equal(end.code, 0);
    assert.doesNotMatch(end.stderr, /failed: /, "no handler failure reached the log");
  } finally {
    await server.kill();
    await Deno.remove(root, { recursive: true });
  }
});
