/**
 * The hostile-repository suite (docs/tools.md, "Git tools: the security model"). Each test plants
 * one attack in a repository, proves it LIVE against naive git (the command a careless server
 * would run), then shows the runner blocks it. A pass means "blocked", not "fixture broken".
 */
import assert from "node:assert/strict";
import { detectGit } from "../../lib/git/availability.ts";
import { gitPath } from "../../lib/git/pathspec.ts";
import { resolveRevision } from "../../lib/git/revision.ts";
import { GitError, type GitRunner } from "../../lib/git/runner.ts";
import { Workspace } from "../../lib/workspace/workspace.ts";
import { canary, decode, git, makeRepo, naive, type Repo, runnerFor } from "./fixture.ts";

function repoTest(name: string, fn: (repo: Repo) => Promise<void> | void): void {
  Deno.test(name, async () => {
    const repo = makeRepo({ "a.txt": "one\n", "b.txt": "bee\n" });
    try {
      await fn(repo);
    } finally {
      await repo.dispose();
    }
  });
}

async function run(runner: GitRunner, args: string[]): Promise<string> {
  return decode((await runner.run(args)).stdout);
}

/**
 * Changes `a.txt` without changing its size and gives it an mtime far from the index's, so status
 * and diff must read (and filter) its content to know, however slow the machine is.
 */
function dirty(repo: Repo): void {
  repo.write("a.txt", "uno\n");
  Deno.utimeSync(`${repo.root}/a.txt`, 1_500_000, 1_500_000);
}

repoTest("git hostile: core.fsmonitor runs nothing", async (repo) => {
  const evil = canary(repo.base, "fsmonitor");
  git(repo.root, "config", "core.fsmonitor", evil.path);
  naive(repo.root, ["status"]);
  assert.ok(evil.fired(), "naive git status ran core.fsmonitor");
  const out = await run(runnerFor(repo.root), ["status", "--porcelain=v2", "-z"]);
  assert.equal(evil.fired(), false);
  assert.equal(out, "");
});

repoTest("git hostile: a clean filter runs nothing", async (repo) => {
  const evil = canary(repo.base, "clean", { filter: true });
  repo.write(".gitattributes", "*.txt filter=evil\n");
  git(repo.root, "config", "filter.evil.clean", evil.path);
  dirty(repo);
  naive(repo.root, ["status"]);
  assert.ok(evil.fired(), "naive git status ran the clean filter");
  const runner = runnerFor(repo.root);
  await run(runner, ["status", "--porcelain=v2", "-z"]);
  await run(runner, ["diff", "--no-ext-diff", "--no-textconv"]);
  assert.equal(evil.fired(), false);
  naive(repo.root, ["status"]);
  assert.ok(evil.fired(), "the attack was still armed when the runner ran");
});

repoTest("git hostile: a filter named x=y runs nothing (-c would not stop it)", async (repo) => {
  const evil = canary(repo.base, "xy", { filter: true });
  repo.write(".gitattributes", "*.txt filter=x=y\n");
  git(repo.root, "config", "filter.x=y.clean", evil.path);
  dirty(repo);
  naive(repo.root, ["-c", "filter.x=y.clean=", "status"]);
  assert.ok(evil.fired(), "naive git with -c filter.x=y.clean= still ran the filter");
  await run(runnerFor(repo.root), ["status", "--porcelain=v2", "-z"]);
  assert.equal(evil.fired(), false);
  naive(repo.root, ["status"]);
  assert.ok(evil.fired(), "the attack was still armed when the runner ran");
});

repoTest("git hostile: a long-running filter process runs nothing", async (repo) => {
  const evil = canary(repo.base, "process");
  repo.write(".gitattributes", "*.txt filter=lfsish\n");
  git(repo.root, "config", "filter.lfsish.process", evil.path);
  dirty(repo);
  naive(repo.root, ["status"]);
  assert.ok(evil.fired(), "naive git status started the filter process");
  await run(runnerFor(repo.root), ["status", "--porcelain=v2", "-z"]);
  assert.equal(evil.fired(), false);
  naive(repo.root, ["status"]);
  assert.ok(evil.fired(), "the attack was still armed when the runner ran");
});

repoTest("git hostile: the guard runs again when .git/config changes", async (repo) => {
  const runner = runnerFor(repo.root);
  await run(runner, ["status", "--porcelain=v2", "-z"]); // guard cached on a clean config
  const evil = canary(repo.base, "later", { filter: true });
  repo.write(".gitattributes", "*.txt filter=later\n");
  git(repo.root, "config", "filter.later.clean", evil.path);
  dirty(repo);
  naive(repo.root, ["status"]);
  assert.ok(evil.fired(), "naive git status ran the filter added later");
  await run(runner, ["status", "--porcelain=v2", "-z"]);
  assert.equal(evil.fired(), false);
  naive(repo.root, ["status"]);
  assert.ok(evil.fired(), "the attack was still armed when the runner ran");
});

repoTest("git hostile: a filter defined in an included file runs nothing", async (repo) => {
  const evil = canary(repo.base, "included", { filter: true });
  repo.write(".gitattributes", "*.txt filter=inc\n");
  Deno.writeTextFileSync(`${repo.root}/.git/extra.cfg`, `[filter "inc"]\n\tclean = ${evil.path}\n`);
  git(repo.root, "config", "include.path", "extra.cfg");
  dirty(repo);
  naive(repo.root, ["status"]);
  assert.ok(evil.fired(), "naive git status ran the included filter");
  await run(runnerFor(repo.root), ["status", "--porcelain=v2", "-z"]);
  assert.equal(evil.fired(), false);
  naive(repo.root, ["status"]);
  assert.ok(evil.fired(), "the attack was still armed when the runner ran");
});

repoTest("git hostile: hooks run nothing (post-index-change on status)", async (repo) => {
  const evil = canary(repo.base, "hook");
  Deno.copyFileSync(evil.path, `${repo.root}/.git/hooks/post-index-change`);
  Deno.chmodSync(`${repo.root}/.git/hooks/post-index-change`, 0o755);
  // The hook is a copy: it marks the canary's file all the same. A new mtime on unchanged
  // content makes status refresh the entry, which writes the index (and runs the hook).
  Deno.utimeSync(`${repo.root}/b.txt`, 1_000_000, 1_000_000);
  naive(repo.root, ["status"]);
  assert.ok(evil.fired(), "naive git status ran the post-index-change hook");
  Deno.utimeSync(`${repo.root}/b.txt`, 2_000_000, 2_000_000);
  await run(runnerFor(repo.root), ["status", "--porcelain=v2", "-z"]);
  assert.equal(evil.fired(), false);
  naive(repo.root, ["status"]);
  assert.ok(evil.fired(), "the attack was still armed when the runner ran");
});

repoTest("git hostile: diff.external runs nothing", async (repo) => {
  const evil = canary(repo.base, "external");
  git(repo.root, "config", "diff.external", evil.path);
  dirty(repo);
  naive(repo.root, ["diff"]);
  assert.ok(evil.fired(), "naive git diff ran diff.external");
  const out = await run(runnerFor(repo.root), ["diff", "--no-ext-diff", "--no-textconv"]);
  assert.equal(evil.fired(), false);
  assert.match(out, /^\+uno$/m);
});

repoTest("git hostile: a diff driver command runs nothing", async (repo) => {
  const evil = canary(repo.base, "driver");
  repo.write(".gitattributes", "*.txt diff=evil\n");
  git(repo.root, "config", "diff.evil.command", evil.path);
  dirty(repo);
  naive(repo.root, ["diff"]);
  assert.ok(evil.fired(), "naive git diff ran the diff driver");
  await run(runnerFor(repo.root), ["diff", "--no-ext-diff", "--no-textconv"]);
  assert.equal(evil.fired(), false);
});

repoTest("git hostile: textconv runs nothing (diff and blame)", async (repo) => {
  const evil = canary(repo.base, "textconv", { filter: true });
  repo.write(".gitattributes", "*.txt diff=conv\n");
  git(repo.root, "config", "diff.conv.textconv", evil.path);
  repo.commit("attributes");
  dirty(repo);
  naive(repo.root, ["diff"]);
  assert.ok(evil.fired(), "naive git diff ran textconv");
  naive(repo.root, ["blame", "a.txt"]);
  assert.ok(evil.fired(), "naive git blame ran textconv");
  const runner = runnerFor(repo.root);
  await run(runner, ["diff", "--no-ext-diff", "--no-textconv"]);
  await run(runner, ["blame", "--porcelain", "--no-textconv", "--", "a.txt"]);
  assert.equal(evil.fired(), false);
});

/** Points main at a commit carrying a (fake) PGP signature. */
function signedCommit(repo: Repo): string {
  const tree = git(repo.root, "rev-parse", "HEAD^{tree}").trim();
  const parent = git(repo.root, "rev-parse", "HEAD").trim();
  const body = `tree ${tree}\nparent ${parent}\nauthor Ada <ada@example.com> 1700000000 +0000\n` +
    "committer Ada <ada@example.com> 1700000000 +0000\n" +
    "gpgsig -----BEGIN PGP SIGNATURE-----\n \n abc\n -----END PGP SIGNATURE-----\n\nsigned\n";
  const path = `${repo.base}/commit.txt`;
  Deno.writeTextFileSync(path, body);
  const oid = git(repo.root, "hash-object", "-t", "commit", "-w", path).trim();
  git(repo.root, "update-ref", "refs/heads/main", oid);
  return oid;
}

repoTest(
  "git hostile: gpg.program runs nothing (log.showSignature, signed commit)",
  async (repo) => {
    const evil = canary(repo.base, "gpg");
    const oid = signedCommit(repo);
    git(repo.root, "config", "log.showSignature", "true");
    git(repo.root, "config", "gpg.program", evil.path);
    naive(repo.root, ["log", "-1"]);
    assert.ok(evil.fired(), "naive git log ran gpg.program");
    naive(repo.root, ["show", oid]);
    assert.ok(evil.fired(), "naive git show ran gpg.program");
    const runner = runnerFor(repo.root);
    await run(runner, ["log", "-1", "--format=%H%x00%s", "-z"]);
    await run(runner, ["show", "--no-ext-diff", "--no-textconv", oid]);
    assert.equal(evil.fired(), false);
  },
);

repoTest("git hostile: an ext:: promisor remote never fetches lazily", async (repo) => {
  const evil = canary(repo.base, "promisor");
  git(repo.root, "config", "core.repositoryformatversion", "1");
  git(repo.root, "config", "extensions.partialClone", "origin");
  git(repo.root, "config", "remote.origin.promisor", "true");
  git(repo.root, "config", "remote.origin.url", `ext::sh -c ${evil.path}`);
  git(repo.root, "config", "protocol.ext.allow", "always");
  const missing = "1234567890123456789012345678901234567890";
  naive(repo.root, ["cat-file", "-p", missing]);
  assert.ok(evil.fired(), "naive git cat-file fetched through the ext:: remote");
  const runner = runnerFor(repo.root);
  assert.equal(await resolveRevision(runner, missing, { optional: true }), null);
  await assert.rejects(run(runner, ["show", "--no-ext-diff", missing]), GitError);
  assert.equal(evil.fired(), false);
});

repoTest("git hostile: core.worktree cannot move the work tree outside the root", async (repo) => {
  const outside = `${repo.base}/elsewhere`;
  Deno.mkdirSync(outside);
  Deno.writeTextFileSync(`${outside}/outside-secret.txt`, "x\n");
  git(repo.root, "config", "core.worktree", outside);
  const seen = naive(repo.root, ["status", "--porcelain"]).stdout;
  assert.match(seen, /outside-secret\.txt/, "naive git status listed the outside folder");
  const out = await run(runnerFor(repo.root), ["status", "--porcelain=v2", "-z"]);
  assert.doesNotMatch(out, /outside-secret/);
});

repoTest(
  "git hostile: blame.ignoreRevsFile outside the root is reported, never read",
  async (repo) => {
    Deno.writeTextFileSync(`${repo.base}/revs.txt`, "TOPSECRET\n");
    git(repo.root, "config", "blame.ignoreRevsFile", `${repo.base}/revs.txt`);
    const seen = naive(repo.root, ["blame", "a.txt"]).stderr;
    assert.match(seen, /TOPSECRET/, "naive git blame read the outside file");
    const runner = runnerFor(repo.root);
    assert.deepEqual(await runner.ignoreRevsFiles(), [`${repo.base}/revs.txt`]);
  },
);

repoTest("git hostile: a revision that looks like an option is refused", async (repo) => {
  const target = `${repo.base}/written-by-git.txt`;
  naive(repo.root, ["log", `--output=${target}`]);
  assert.ok(Deno.statSync(target).isFile, "naive git log wrote a file outside the root");
  Deno.removeSync(target);
  const runner = runnerFor(repo.root);
  await assert.rejects(
    resolveRevision(runner, `--output=${target}`),
    (e: Error) => e instanceof GitError && /cannot start with "-"/.test(e.message),
  );
  // A ref whose name is option-like is resolved to its id, never passed on as text.
  git(repo.root, "update-ref", "refs/tags/x--output=y", "HEAD");
  const oid = await resolveRevision(runner, "x--output=y");
  assert.equal(oid, git(repo.root, "rev-parse", "HEAD").trim());
  assert.throws(() => Deno.statSync(target));
});

repoTest("git hostile: pathspec magic is literal text", async (repo) => {
  repo.write(".env", "API_KEY=hunter2\n");
  repo.commit("add env");
  const magic = ":(glob)**/.en[v]";
  const seen = naive(repo.root, ["log", "-p", "--", magic]).stdout;
  assert.match(seen, /hunter2/, "naive git log -p matched .env through pathspec magic");
  const ws = Workspace.openSync({ root: repo.root, noIgnore: false, allowSecrets: false });
  const rel = gitPath(ws, magic);
  const out = await run(runnerFor(repo.root), ["log", "-p", "--no-ext-diff", "--", rel]);
  assert.equal(out, "");
});

repoTest("git hostile: .. and absolute paths outside the root are refused", (repo) => {
  Deno.writeTextFileSync(`${repo.base}/outside.txt`, "OUTSIDE CONTENT\n");
  const up = naive(repo.root, ["diff", "../outside.txt", "a.txt"]).stdout;
  assert.match(up, /OUTSIDE CONTENT/, "naive git diff read a .. path outside the repository");
  const abs = naive(repo.root, ["diff", `${repo.base}/outside.txt`, "a.txt"]).stdout;
  assert.match(abs, /OUTSIDE CONTENT/, "naive git diff read an absolute path outside");
  const ws = Workspace.openSync({ root: repo.root, noIgnore: false, allowSecrets: false });
  assert.throws(() => gitPath(ws, "../outside.txt"), /outside the workspace/);
  assert.throws(() => gitPath(ws, `${repo.base}/outside.txt`), /outside the workspace/);
  assert.throws(() => gitPath(ws, ".git/config"), /\.git folder is not served/);
  assert.equal(gitPath(ws, `${repo.root}/a.txt`), "a.txt");
});

repoTest(
  "git hostile: GIT_* variables in the server's environment never reach git",
  async (repo) => {
    const evil = canary(repo.base, "envfilter", { filter: true });
    repo.write(".gitattributes", "*.txt filter=envf\n");
    dirty(repo);
    const vars: Record<string, string> = {
      GIT_CONFIG_COUNT: "1",
      GIT_CONFIG_KEY_0: "filter.envf.clean",
      GIT_CONFIG_VALUE_0: evil.path,
      GIT_DIR: `${repo.base}/nowhere`,
    };
    for (const [name, value] of Object.entries(vars)) Deno.env.set(name, value);
    try {
      naive(repo.root, ["status"], { GIT_DIR: `${repo.root}/.git` });
      assert.ok(evil.fired(), "naive git status ran a filter set by GIT_CONFIG_* variables");
      const runner = runnerFor(repo.root);
      await run(runner, ["status", "--porcelain=v2", "-z"]);
      const out = await run(runner, ["diff", "--no-ext-diff", "--no-textconv"]);
      assert.equal(evil.fired(), false);
      assert.match(out, /^\+uno$/m);
    } finally {
      for (const name of Object.keys(vars)) Deno.env.delete(name);
    }
  },
);

repoTest("git hostile: a .git gitfile pointing outside the root gets no git tools", (repo) => {
  const outside = `${repo.base}/other`;
  Deno.mkdirSync(outside);
  git(outside, "init", "-q", "-b", "main");
  git(outside, "commit", "-q", "--allow-empty", "-m", "outside history");
  const root = `${repo.base}/served`;
  Deno.mkdirSync(root);
  Deno.writeTextFileSync(`${root}/.git`, `gitdir: ${outside}/.git\n`);
  assert.match(naive(root, ["log", "--oneline"]).stdout, /outside history/);
  const found = detectGit(root, { enabled: true });
  assert.equal(found.ok, false);
  assert.match(found.ok ? "" : found.reason, /git folder is outside the root/);
});

repoTest("git hostile: a root inside a repository's subfolder gets no git tools", (repo) => {
  Deno.mkdirSync(`${repo.root}/sub`);
  assert.match(naive(`${repo.root}/sub`, ["log", "--oneline"]).stdout, /first/);
  const found = detectGit(`${repo.root}/sub`, { enabled: true });
  assert.equal(found.ok, false);
  assert.match(found.ok ? "" : found.reason, /subfolder of the git work tree/);
});

repoTest("git hostile: objects borrowed from outside (alternates) get no git tools", (repo) => {
  const clone = `${repo.base}/shared-clone`;
  git(repo.base, "clone", "-q", "--shared", repo.root, clone);
  Deno.removeSync(`${clone}/.git/objects/pack`, { recursive: true });
  assert.match(naive(clone, ["log", "--oneline"]).stdout, /first/);
  const found = detectGit(clone, { enabled: true });
  assert.equal(found.ok, false);
  assert.match(found.ok ? "" : found.reason, /alternate store outside the root/);
});

repoTest(
  "git hostile: a linked work tree whose common folder is outside gets no git tools",
  (repo) => {
    const linked = `${repo.base}/linked`;
    git(repo.root, "worktree", "add", "-q", linked);
    assert.match(naive(linked, ["log", "--oneline"]).stdout, /first/);
    const found = detectGit(linked, { enabled: true });
    assert.equal(found.ok, false);
    assert.match(found.ok ? "" : found.reason, /outside the root/);
  },
);

repoTest("git hostile: --no-git offers no git tools", (repo) => {
  assert.equal(detectGit(repo.root, { enabled: false }).ok, false);
  assert.equal(detectGit(repo.root, { enabled: true }).ok, true);
});
