/**
 * The git tools' own rules: secrets withheld, paging and budgets, refusals and git's error line,
 * and the hostile vectors that reach a tool's parameters (option-like revisions, paths).
 */
import assert from "node:assert/strict";
import { gitBlameTool } from "../../lib/tools/git_blame.ts";
import { gitDiffTool } from "../../lib/tools/git_diff.ts";
import { gitLogTool } from "../../lib/tools/git_log.ts";
import { gitShowTool } from "../../lib/tools/git_show.ts";
import { gitStatusTool } from "../../lib/tools/git_status.ts";
import { toolsFor } from "../../lib/tools/index.ts";
import type { Config } from "../../lib/config.ts";
import { call, type Harness, text } from "../tools/helpers.ts";
import { canary, git, gitHarness, makeRepo, naive, type Repo } from "./fixture.ts";

const WITHHELD = "[secret file: content withheld]";

function gitTest(
  name: string,
  files: Record<string, string | Uint8Array>,
  fn: (h: Harness, repo: Repo) => Promise<void>,
  config: Partial<Config> = {},
): void {
  Deno.test(name, async () => {
    const repo = makeRepo(files);
    const h = await gitHarness(repo, config);
    try {
      await fn(h, repo);
    } finally {
      h.ctx.session.close();
      await repo.dispose();
    }
  });
}

function sc(result: { structuredContent?: Record<string, unknown> }): Record<string, unknown> {
  assert.ok(result.structuredContent !== undefined, "a structured result");
  return result.structuredContent;
}

const SECRET_TREE = { "a.txt": "one\n", ".env": "API_KEY=hunter2\n", "keys/id_rsa": "PRIVATE\n" };

function changeSecrets(repo: Repo): void {
  repo.write(".env", "API_KEY=hunter3\n");
  repo.write("keys/id_rsa", "PRIVATE2\n");
  repo.write("a.txt", "two\n");
}

gitTest(
  "git tools: a committed .env is listed but its content never shown",
  SECRET_TREE,
  async (h, repo) => {
    changeSecrets(repo);
    assert.match(naive(repo.root, ["diff"]).stdout, /hunter3/, "naive git diff shows the secret");
    const status = await call(gitStatusTool, {}, h);
    assert.match(text(status), /^ M \.env$/m);
    const diff = await call(gitDiffTool, {}, h);
    assert.doesNotMatch(text(diff), /hunter|PRIVATE/);
    assert.match(
      text(diff),
      /^diff --git a\/\.env b\/\.env\n(?:.*\n){3}\[secret file: content withheld\]$/m,
    );
    assert.match(text(diff), /^\+two$/m, "other files keep their content");
    repo.commit("change secrets");
    const show = await call(gitShowTool, { revision: "HEAD" }, h);
    assert.doesNotMatch(text(show), /hunter|PRIVATE/);
    assert.equal(text(show).split(WITHHELD).length, 3);
    const file = await call(gitShowTool, { revision: "HEAD~1", path: ".env" }, h);
    assert.equal(text(file), WITHHELD);
    const blame = await call(gitBlameTool, { path: "keys/id_rsa" }, h);
    assert.doesNotMatch(text(blame), /PRIVATE/);
    assert.deepEqual(sc(blame).lines, [WITHHELD]);
    const log = await call(gitLogTool, { path: ".env" }, h);
    assert.equal((sc(log).commits as unknown[]).length, 2);
  },
);

gitTest("git tools: --allow-secrets shows secret content", SECRET_TREE, async (h, repo) => {
  changeSecrets(repo);
  assert.match(text(await call(gitDiffTool, {}, h)), /^\+API_KEY=hunter3$/m);
  assert.equal(
    text(await call(gitShowTool, { revision: "HEAD", path: ".env" }, h)),
    "     1\tAPI_KEY=hunter2",
  );
}, { allowSecrets: true });

gitTest("git_diff: pages of whole lines concatenate to the full diff", {
  "big.txt": Array.from({ length: 3000 }, (_, i) => `line ${i}`).join("\n") + "\n",
}, async (h, repo) => {
  repo.write("big.txt", Array.from({ length: 3000 }, (_, i) => `LINE ${i}`).join("\n") + "\n");
  const full = naive(repo.root, ["diff"]).stdout;
  const first = await call(gitDiffTool, {}, h);
  assert.ok(text(first).length <= 20_000, "an unlimited call stays under the budget");
  assert.match(text(first), /\[\.\.\. \d+ more lines; call again with offset=\d+\]$/);
  const seen: string[] = [];
  let offset = 0;
  for (let guard = 0; guard < 100; guard++) {
    const r = await call(gitDiffTool, { offset }, h);
    seen.push(...sc(r).lines as string[]);
    if (sc(r).truncated === false) break;
    offset = sc(r).next_offset as number;
  }
  assert.equal(seen.join("\n") + "\n", full);
  const exact = await call(gitDiffTool, { head_limit: 5, offset: 2 }, h);
  assert.deepEqual(sc(exact).lines, full.split("\n").slice(2, 7));
});

gitTest("git_diff: a 300,000-line diff of one file pages like any other", {
  "huge.txt": "a\n".repeat(300_000),
}, async (h, repo) => {
  repo.write("huge.txt", "b\n".repeat(300_000));
  const r = await call(gitDiffTool, { offset: 599_990, head_limit: 100 }, h);
  assert.equal(sc(r).total, 600_005);
  assert.deepEqual(sc(r).lines, Array.from({ length: 15 }, () => "+b"));
  assert.equal(sc(r).truncated, false);
});

gitTest(
  "git tools: a revision that looks like an option is refused",
  { "a.txt": "x\n" },
  async (h, repo) => {
    const target = `${repo.base}/pwned.txt`;
    for (
      const [tool, args] of [
        [gitLogTool, { revision: `--output=${target}` }],
        [gitDiffTool, { target: `--output=${target}` }],
        [gitDiffTool, { base: "-p" }],
        [gitDiffTool, { base: "HEAD", target: `--output=${target}` }],
        [gitShowTool, { revision: `--output=${target}` }],
        [gitBlameTool, { path: "a.txt", revision: `--output=${target}` }],
      ] as const
    ) {
      const r = await call(tool, args, h);
      assert.equal(r.isError, true);
      assert.match(text(r), /cannot start with "-"/);
    }
    assert.throws(() => Deno.statSync(target));
  },
);

gitTest(
  "git tools: paths outside the root or in .git are refused",
  { "a.txt": "x\n" },
  async (h, repo) => {
    Deno.writeTextFileSync(`${repo.base}/outside.txt`, "outside\n");
    for (const path of ["../outside.txt", `${repo.base}/outside.txt`, ".git/config"]) {
      for (
        const [tool, args] of [
          [gitLogTool, { path }],
          [gitDiffTool, { path }],
          [gitStatusTool, { path }],
          [gitShowTool, { revision: "HEAD", path }],
          [gitBlameTool, { path }],
        ] as const
      ) {
        const r = await call(tool, args, h);
        assert.equal(r.isError, true, `${tool.name} ${path}`);
        assert.match(text(r), /outside the workspace|\.git folder is not served/);
      }
    }
  },
);

gitTest("git tools: an unknown revision says so", { "a.txt": "x\n" }, async (h) => {
  const r = await call(gitLogTool, { revision: "nosuch" }, h);
  assert.equal(r.isError, true);
  assert.equal(
    text(r),
    'Unknown revision "nosuch": it names no commit; give a branch, tag, commit id or HEAD~N',
  );
  const both = await call(gitDiffTool, { base: "HEAD", target: "nosuch" }, h);
  assert.equal(
    text(both),
    'Unknown target revision "nosuch": it names no commit; give a branch, tag, commit id or HEAD~N',
  );
});

gitTest("git tools: a git failure is git's first stderr line", { "a.txt": "x\ny\n" }, async (h) => {
  const r = await call(gitBlameTool, { path: "a.txt", offset: 9 }, h);
  assert.equal(r.isError, true);
  assert.equal(text(r), "fatal: file a.txt has only 2 lines");
  const missing = await call(gitShowTool, { revision: "HEAD", path: "nope.txt" }, h);
  assert.equal(missing.isError, true);
  assert.match(text(missing), /^No file "nope\.txt" at revision "HEAD"/);
});

gitTest(
  "git_blame: refused when blame.ignoreRevsFile points outside",
  { "a.txt": "x\n" },
  async (h, repo) => {
    Deno.writeTextFileSync(`${repo.base}/revs.txt`, "TOPSECRET\n");
    git(repo.root, "config", "blame.ignoreRevsFile", `${repo.base}/revs.txt`);
    assert.match(naive(repo.root, ["blame", "a.txt"]).stderr, /TOPSECRET/, "naive blame read it");
    const r = await call(gitBlameTool, { path: "a.txt" }, h);
    assert.equal(r.isError, true);
    assert.match(text(r), /blame\.ignoreRevsFile/);
    assert.doesNotMatch(text(r), /TOPSECRET/);
  },
);

gitTest(
  "git tools: a hostile config runs nothing through any tool",
  { "a.txt": "one\n" },
  async (h, repo) => {
    const evil = canary(repo.base, "all", { filter: true });
    repo.write(".gitattributes", "*.txt filter=evil diff=evil\n");
    for (
      const [key, value] of [
        ["core.fsmonitor", evil.path],
        ["filter.evil.clean", evil.path],
        ["filter.evil.smudge", evil.path],
        ["diff.external", evil.path],
        ["diff.evil.command", evil.path],
        ["diff.evil.textconv", evil.path],
        ["gpg.program", evil.path],
        ["log.showSignature", "true"],
        ["core.pager", evil.path],
      ]
    ) git(repo.root, "config", key, value);
    repo.write("a.txt", "uno\n");
    Deno.utimeSync(`${repo.root}/a.txt`, 1_500_000, 1_500_000);
    naive(repo.root, ["-p", "diff"]);
    assert.ok(evil.fired(), "naive git diff ran the hostile config");
    await call(gitStatusTool, {}, h);
    await call(gitDiffTool, {}, h);
    await call(gitDiffTool, { target: "HEAD", stat_only: true }, h);
    await call(gitLogTool, {}, h);
    await call(gitShowTool, { revision: "HEAD" }, h);
    await call(gitShowTool, { revision: "HEAD", path: "a.txt" }, h);
    await call(gitBlameTool, { path: "a.txt" }, h);
    assert.equal(evil.fired(), false);
  },
);

gitTest(
  "git_status: branch, upstream and ahead/behind like git status -sb",
  { "a.txt": "x\n" },
  async (h, repo) => {
    git(repo.root, "branch", "upstream");
    git(repo.root, "branch", "--set-upstream-to=upstream");
    repo.write("a.txt", "y\n");
    repo.commit("ahead");
    const r = await call(gitStatusTool, {}, h);
    assert.equal(text(r), "## main...upstream [ahead 1]\nnothing to commit, working tree clean");
    assert.deepEqual(sc(r), {
      branch: "main",
      upstream: "upstream",
      ahead: 1,
      behind: 0,
      entries: [],
      total: 0,
      offset: 0,
      truncated: false,
    });
  },
);

Deno.test("git_log: a repository without commits has an empty history", async () => {
  const repo = makeRepo();
  git(repo.root, "checkout", "-q", "--orphan", "unborn");
  const h = await gitHarness(repo);
  try {
    const r = await call(gitLogTool, {}, h);
    assert.equal(text(r), "No commits found");
    const named = await call(gitLogTool, { revision: "unborn" }, h);
    assert.equal(named.isError, true);
  } finally {
    h.ctx.session.close();
    await repo.dispose();
  }
});

Deno.test("git tools: listed only when git is available", () => {
  const names = (git: boolean) =>
    toolsFor({ write: false, git }).map((t) => t.name).filter((n) => n.startsWith("git_"));
  assert.deepEqual(names(false), []);
  assert.deepEqual(names(true), ["git_blame", "git_diff", "git_log", "git_show", "git_status"]);
});

gitTest(
  "git_show: offset or limit on an image at a revision is said, not silently ignored",
  {
    "img.png": new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 1]),
  },
  async (h) => {
    const r = await call(gitShowTool, { revision: "HEAD", path: "img.png", offset: 3 }, h);
    assert.equal(r.content[0].type, "image");
    const note = "offset does not apply to an image: the whole image/png image is shown";
    assert.deepEqual(r.content[1], { type: "text", text: `[${note}]` });
    assert.equal(sc(r).note, note);
    const plain = await call(gitShowTool, { revision: "HEAD", path: "img.png" }, h);
    assert.equal(plain.content.length, 1);
    assert.equal(sc(plain).note, undefined);
  },
);
