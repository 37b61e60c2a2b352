/** The git runner's own contract: git's first stderr line, the output cap, cancellation. */
import assert from "node:assert/strict";
import { GitError, type GitRunner, type RunOptions } from "../../lib/git/runner.ts";
import { resolveCommits } from "../../lib/git/revision.ts";
import { decode, git, makeRepo, runnerFor } from "./fixture.ts";

Deno.test("git runner: a failure is git's first stderr line", async () => {
  const repo = makeRepo();
  try {
    await assert.rejects(
      runnerFor(repo.root).run(["rev-parse", "--verify", "nosuch"]),
      (e: Error) => e instanceof GitError && e.message === "fatal: Needed a single revision",
    );
  } finally {
    await repo.dispose();
  }
});

Deno.test("git runner: output past the cap is cut and the process killed", async () => {
  const repo = makeRepo({ "big.txt": "x".repeat(100_000) + "\n" });
  try {
    const r = await runnerFor(repo.root).run(["show", "HEAD:big.txt"], { capBytes: 1000 });
    assert.equal(r.capped, true);
    assert.equal(r.stdout.length, 1000);
    const full = await runnerFor(repo.root).run(["show", "HEAD:big.txt"]);
    assert.equal(full.capped, false);
    assert.equal(decode(full.stdout), "x".repeat(100_000) + "\n");
  } finally {
    await repo.dispose();
  }
});

Deno.test("git runner: a cancelled call throws an AbortError", async () => {
  const repo = makeRepo();
  try {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(
      runnerFor(repo.root).run(["log"], { signal: controller.signal }),
      (e: Error) => e.name === "AbortError",
    );
  } finally {
    await repo.dispose();
  }
});

Deno.test("git runner: the environment is cleared and the root is the work tree", async () => {
  const repo = makeRepo();
  try {
    const out = decode((await runnerFor(repo.root).run(["rev-parse", "--show-toplevel"])).stdout);
    assert.equal(out.trim(), repo.root);
    Deno.env.set("GIT_AUTHOR_NAME", "Leaky");
    const ident = decode((await runnerFor(repo.root).run(["var", "GIT_AUTHOR_IDENT"])).stdout);
    assert.match(ident, /^Ada <ada@example\.com> /);
  } finally {
    Deno.env.delete("GIT_AUTHOR_NAME");
    await repo.dispose();
  }
});

Deno.test("git revisions: base and target resolve in one git call, exactly", async () => {
  const repo = makeRepo();
  try {
    repo.write("b.txt", "b\n");
    repo.commit("second");
    const runner = runnerFor(repo.root);
    let calls = 0;
    const counting = {
      run: (args: readonly string[], options?: RunOptions) => {
        calls++;
        return runner.run(args, options);
      },
    } as unknown as GitRunner;
    const revs = [{ rev: "HEAD~1", what: "base" }, { rev: "HEAD", what: "target" }];
    const expected = [
      git(repo.root, "rev-parse", "HEAD~1").trim(),
      git(repo.root, "rev-parse", "HEAD").trim(),
    ];
    assert.deepEqual(await resolveCommits(counting, revs), expected);
    assert.equal(calls, 1);
    // A file named like an argument is printed back by rev-parse: resolved one by one instead.
    Deno.writeTextFileSync(`${repo.root}/HEAD^{commit}`, "");
    assert.deepEqual(await resolveCommits(counting, revs), expected);
    await assert.rejects(
      resolveCommits(counting, [{ rev: "HEAD", what: "base" }, { rev: "nosuch", what: "target" }]),
      /Unknown target "nosuch"/,
    );
  } finally {
    await repo.dispose();
  }
});
