/**
 * The process holds only the permissions its flags use (docs/protocol.md, "Permissions"): proven
 * from inside the real server, started with the start task's flags, by a preloaded probe.
 */

import assert from "node:assert/strict";
import { INIT } from "../helpers/memory_session.ts";
import { MAIN, serverFlags, testArgs } from "./harness.ts";

const PROBE = new URL("./permission_probe.ts", import.meta.url).pathname;

async function probe(
  flags: string[],
  options: { gitRepo?: boolean } = {},
): Promise<{ write: string; run: string; wrote: boolean }> {
  const root = await Deno.makeTempDir({ prefix: "shipcode-perm-" });
  try {
    if (options.gitRepo) {
      const init = new Deno.Command("git", { args: ["init", "-q"], cwd: root }).outputSync();
      assert.ok(init.success);
    }
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        ...(await serverFlags()),
        "--preload",
        PROBE,
        MAIN,
        ...testArgs(["--root", root, ...flags]),
      ],
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(INIT + "\n"));
    await writer.close();
    const out = await child.output();
    assert.equal(out.code, 0);
    const stderr = new TextDecoder().decode(out.stderr);
    const line = stderr.split("\n").find((l) => l.startsWith("probe: "));
    assert.ok(line !== undefined, `no probe report on stderr: ${stderr}`);
    const wrote = await Deno.stat(`${root}/probe-wrote-this.txt`).then(() => true, () => false);
    return { ...JSON.parse(line.slice("probe: ".length)), wrote };
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("permissions: a read-only session cannot write a file even from inside the process", async () => {
  const report = await probe([]);
  assert.equal(report.write, "NotCapable");
  assert.equal(report.wrote, false);
});

Deno.test("permissions: a session without git tools cannot spawn a program", async () => {
  const report = await probe(["--no-git"]);
  assert.equal(report.run, "NotCapable");
});

Deno.test("permissions: with --write the process keeps its write permission", async () => {
  const report = await probe(["--write"]);
  assert.equal(report.write, "done");
  assert.equal(report.wrote, true);
});

Deno.test("permissions: a root that is no git work tree cannot spawn a program either", async () => {
  const report = await probe([]);
  assert.equal(report.run, "NotCapable");
});

Deno.test("permissions: a git work tree keeps the permission to run git", async () => {
  const report = await probe([], { gitRepo: true });
  assert.equal(report.run, "done");
  const refused = await probe(["--no-git"], { gitRepo: true });
  assert.equal(refused.run, "NotCapable");
});
