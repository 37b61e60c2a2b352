/**
 * The git tools agree with the git CLI on a repository with real history (renames, a merge, a
 * binary file, unicode and space names, staged/unstaged/untracked state): status entries, log
 * pages, diffs byte for byte, numstat, show and blame.
 */
import assert from "node:assert/strict";
import { gitBlameTool } from "../../lib/tools/git_blame.ts";
import { gitDiffTool } from "../../lib/tools/git_diff.ts";
import { gitLogTool } from "../../lib/tools/git_log.ts";
import { gitShowTool } from "../../lib/tools/git_show.ts";
import { gitStatusTool } from "../../lib/tools/git_status.ts";
import type { Config } from "../../lib/config.ts";
import { call, type Harness, text } from "../tools/helpers.ts";
import { git as cliGit, gitHarness, historyRepo, type Repo } from "./fixture.ts";

/** The git CLI with the one forced setting that changes output: names are not octal-quoted. */
function git(root: string, ...args: string[]): string {
  return cliGit(root, "-c", "core.quotePath=false", ...args);
}

let shared: Repo | null = null;
addEventListener("unload", () => {
  if (shared !== null) Deno.removeSync(shared.base, { recursive: true });
});

function parityTest(
  name: string,
  fn: (h: Harness, repo: Repo) => Promise<void>,
  config: Partial<Config> = { allowSecrets: true },
): void {
  Deno.test(name, async () => {
    shared ??= historyRepo();
    const h = await gitHarness(shared, config);
    try {
      await fn(h, shared);
    } finally {
      h.ctx.session.close();
    }
  });
}

function sc(result: { structuredContent?: Record<string, unknown> }): Record<string, unknown> {
  assert.ok(result.structuredContent !== undefined, "a structured result");
  return result.structuredContent;
}

/** `git status --porcelain -z` as `XY path` (`XY from -> path`) entries, unquoted. */
function cliStatus(root: string): string[] {
  const fields = git(root, "status", "--porcelain", "-z").split("\0");
  const out: string[] = [];
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i];
    if (f === "") continue;
    const renamed = f[0] === "R" || f[0] === "C";
    out.push(renamed ? `${f.slice(0, 3)}${fields[++i]} -> ${f.slice(3)}` : f);
  }
  return out;
}

parityTest("git_status: entries equal git status --porcelain", async (h, repo) => {
  const r = await call(gitStatusTool, {}, h);
  assert.deepEqual(sc(r).entries, cliStatus(repo.root));
  const statuses = (sc(r).entries as string[]).map((e) => e.slice(0, 2)).sort();
  assert.deepEqual(statuses, [" D", " M", " M", "??", "M ", "M "]);
  assert.equal(sc(r).branch, "main");
  const first = git(repo.root, "status", "-sb").split("\n")[0];
  assert.equal(text(r).split("\n")[0], first);
});

parityTest("git_status: path narrows to a folder or file", async (h, repo) => {
  const r = await call(gitStatusTool, { path: "sp ace.txt" }, h);
  assert.deepEqual(sc(r).entries, [" M sp ace.txt"]);
  assert.equal(text(r), `${git(repo.root, "status", "-sb").split("\n")[0]}\n M sp ace.txt`);
});

parityTest("git_log: pages concatenated equal the full log", async (h, repo) => {
  const full = git(repo.root, "log", "--format=%h %as %an %s").trim().split("\n");
  assert.ok(full.length > 28);
  const seen: string[] = [];
  let offset = 0;
  for (let guard = 0; guard < 20; guard++) {
    const r = await call(gitLogTool, { head_limit: 7, offset }, h);
    seen.push(...sc(r).commits as string[]);
    if (sc(r).truncated === false) break;
    offset = sc(r).next_offset as number;
  }
  assert.deepEqual(seen, full);
});

parityTest(
  "git_log: entries are the text lines: short id, author date, author, subject",
  async (h, repo) => {
    const r = await call(gitLogTool, { head_limit: 1, revision: "HEAD" }, h);
    const [entry] = sc(r).commits as string[];
    const cli = git(repo.root, "log", "-1", "--format=%h%n%s").split("\n");
    assert.equal(entry, `${cli[0]} 2024-01-02 Ada ${cli[1]}`);
    assert.equal(text(r).split("\n")[0], entry);
  },
);

parityTest("git_log: path, grep and author filter like git log -F -i", async (h, repo) => {
  const byPath = await call(gitLogTool, { path: "src/core.ts", head_limit: 200 }, h);
  assert.deepEqual(
    sc(byPath).commits,
    git(repo.root, "log", "--format=%h %as %an %s", "--", "src/core.ts").trim().split("\n"),
  );
  const byGrep = await call(gitLogTool, { grep: "MERGE FEATURE", head_limit: 200 }, h);
  assert.deepEqual(
    (sc(byGrep).commits as string[]).map((c) => c.replace(/^\S+ \S+ Ada /, "")),
    ["merge feature"],
  );
  const none = await call(gitLogTool, { author: "nobody", grep: "x.*" }, h);
  assert.equal(text(none), "No commits found");
});

parityTest("git_diff: worktree diff is byte-equal to git diff", async (h, repo) => {
  const r = await call(gitDiffTool, { head_limit: 0 }, h);
  const lines = sc(r).lines as string[];
  assert.equal(lines.join("\n") + "\n", git(repo.root, "diff", "--no-ext-diff", "--no-textconv"));
});

parityTest("git_diff: staged diff is byte-equal to git diff --cached", async (h, repo) => {
  const r = await call(gitDiffTool, { target: "staged", head_limit: 0 }, h);
  assert.equal(
    (sc(r).lines as string[]).join("\n") + "\n",
    git(repo.root, "diff", "--cached", "--no-ext-diff", "--no-textconv"),
  );
});

parityTest("git_diff: base..target over a rename, a merge and a binary file", async (h, repo) => {
  const r = await call(gitDiffTool, { base: "HEAD~28", target: "HEAD", head_limit: 0 }, h);
  const cli = git(repo.root, "diff", "--no-ext-diff", "--no-textconv", "HEAD~28", "HEAD");
  assert.match(cli, /^rename from src\/lib\.ts$/m);
  assert.match(cli, /^Binary files a\/img\.png and b\/img\.png differ$/m);
  assert.equal((sc(r).lines as string[]).join("\n") + "\n", cli);
});

parityTest("git_diff: a revision target is what that commit changed", async (h, repo) => {
  const merge = git(repo.root, "rev-parse", "HEAD~25").trim();
  const r = await call(gitDiffTool, { target: merge, context: 0, head_limit: 0 }, h);
  assert.equal(
    (sc(r).lines as string[]).join("\n") + "\n",
    git(repo.root, "diff", "--no-ext-diff", "--no-textconv", "-U0", `${merge}^1`, merge),
  );
  const root = git(repo.root, "rev-list", "--max-parents=0", "HEAD").trim();
  const first = await call(gitDiffTool, { target: root, head_limit: 0 }, h);
  assert.equal(
    (sc(first).lines as string[]).join("\n") + "\n",
    git(repo.root, "show", "--format=", "--no-ext-diff", "--no-textconv", root),
  );
});

parityTest("git_diff: stat_only equals git diff --numstat", async (h, repo) => {
  const r = await call(gitDiffTool, { base: "HEAD~28", target: "HEAD", stat_only: true }, h);
  const cli = git(repo.root, "diff", "--numstat", "HEAD~28", "HEAD").trim().split("\n");
  // git shortens a rename to its changed part; ours names both paths whole.
  const ours = (sc(r).files as string[]).map((f) =>
    f.replace("src/lib.ts => src/core.ts", "src/{lib.ts => core.ts}")
  );
  assert.deepEqual(ours, cli);
});

parityTest("git_show: message and diff equal git show", async (h, repo) => {
  for (const rev of ["HEAD~25", "HEAD~26", "HEAD~28"]) {
    const r = await call(gitShowTool, { revision: rev, head_limit: 0 }, h);
    const cli = git(repo.root, "show", "--format=", "--no-ext-diff", "--no-textconv", rev);
    const lines = sc(r).lines as string[];
    assert.equal(lines.length === 0 ? "" : lines.join("\n") + "\n", cli.replace(/^\n/, ""));
    assert.equal(sc(r).message, git(repo.root, "log", "-1", "--format=%B", rev).replace(/\n$/, ""));
  }
  const merge = await call(gitShowTool, { revision: "HEAD~25" }, h);
  assert.match(text(merge), /^commit [0-9a-f]{40}\nMerge: [0-9a-f]{7} [0-9a-f]{7}\nAuthor: Ada/);
});

parityTest("git_show: a file at a revision is numbered like read_file", async (h, repo) => {
  const r = await call(gitShowTool, { revision: "HEAD~28", path: "src/lib.ts", limit: 3 }, h);
  const cli = git(repo.root, "show", "HEAD~28:src/lib.ts").split("\n").slice(0, 3);
  assert.equal(
    sc(r).text,
    cli.map((line, i) => `${String(i + 1).padStart(6)}\t${line}`).join("\n"),
  );
  assert.equal(sc(r).total_lines, 12);
  assert.equal(sc(r).next_offset, 4);
  const uni = await call(gitShowTool, { revision: "HEAD", path: "ünïcödé name.txt" }, h);
  assert.equal(text(uni), "     1\tunicode");
});

parityTest("git_blame: line commits and groups equal git blame", async (h, repo) => {
  const r = await call(gitBlameTool, { path: "a.txt", revision: "HEAD", limit: 500 }, h);
  const cli = git(repo.root, "blame", "-l", "-s", "HEAD", "--", "a.txt").trim().split("\n");
  // A boundary commit prints as "^" and 39 hex digits.
  const commits = cli.map((line) => line.startsWith("^") ? line.slice(1, 40) : line.slice(0, 40));
  const groups = sc(r).groups as { commit: string; start_line: number; end_line: number }[];
  const expanded: string[] = [];
  for (const g of groups) {
    for (let n = g.start_line; n <= g.end_line; n++) {
      expanded.push(commits[n - 1].length === 39 ? g.commit.slice(0, 39) : g.commit);
    }
  }
  assert.deepEqual(expanded, commits);
  assert.deepEqual(
    sc(r).lines,
    git(repo.root, "show", "HEAD:a.txt").replace(/\n$/, "").split("\n"),
  );
  for (let i = 1; i < groups.length; i++) assert.notEqual(groups[i].commit, groups[i - 1].commit);
});
