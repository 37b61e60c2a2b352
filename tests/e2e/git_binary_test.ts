/**
 * Finding git (docs/tools.md, "Git tools"): `--allow-run=git` grants the `git` that PATH names,
 * and on many machines that entry is a link (Homebrew's /opt/homebrew/bin/git leads into its
 * Cellar). The server must still offer its git tools there, and run the binary it was allowed to.
 */
import assert from "node:assert/strict";
import { INIT } from "../helpers/memory_session.ts";
import { ServerProcess } from "./harness.ts";

function whichGit(): string {
  const out = new Deno.Command("sh", { args: ["-c", "command -v git"] }).outputSync();
  assert.ok(out.success, "git is on PATH");
  return Deno.realPathSync(new TextDecoder().decode(out.stdout).trim());
}

Deno.test("git binary: a git reached through a linked PATH entry still gives the git tools", async () => {
  const base = await Deno.makeTempDir({ prefix: "shipcode-gitlink-" });
  const bin = `${base}/bin`;
  const root = `${base}/repo`;
  await Deno.mkdir(bin);
  await Deno.mkdir(root);
  await Deno.symlink(whichGit(), `${bin}/git`);
  const init = new Deno.Command("git", { args: ["init", "-q"], cwd: root }).outputSync();
  assert.ok(init.success);
  await Deno.writeTextFile(`${root}/a.txt`, "one\n");
  // The linked folder comes first, so Deno's --allow-run=git names the link, not the binary.
  const server = await ServerProcess.spawn(["--root", root], {
    env: { PATH: `${bin}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}` },
  });
  try {
    await server.send(INIT);
    await server.take((line) => line.startsWith('{"jsonrpc":"2.0","id":1,'));
    await server.send('{"jsonrpc":"2.0","id":2,"method":"tools/list"}');
    const listed = JSON.parse(
      await server.take((line) => line.startsWith('{"jsonrpc":"2.0","id":2,')),
    );
    const names = listed.result.tools.map((tool: { name: string }) => tool.name);
    assert.ok(names.includes("git_status"), `git tools missing: ${names.join(", ")}`);
    await server.send(
      '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"git_status","arguments":{}}}',
    );
    const status = JSON.parse(
      await server.take((line) => line.startsWith('{"jsonrpc":"2.0","id":3,')),
    );
    assert.equal(status.result.isError, undefined, JSON.stringify(status));
    assert.match(status.result.content[0].text, /\?\? a\.txt/);
  } finally {
    await server.kill();
    await Deno.remove(base, { recursive: true });
  }
});
