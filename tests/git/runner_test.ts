/** The git runner's own contract: git's first stderr line, the output cap, cancellation. */
import assert from "node:assert/strict";
import { GitError } from "../../lib/git/runner.ts";
import { decode, makeRepo, runnerFor } from "./fixture.ts";

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
