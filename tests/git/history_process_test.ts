/**
 * History that follows the file, through the real server (docs/tools.md "Git tools"), on a small
 * repository with a move (`requests/` -> `src/requests/`), a formatting commit named by the
 * root's `.git-blame-ignore-revs`, and a commit whose committer date differs from its author
 * date; every answer is checked against the git CLI.
 */
import assert from "node:assert/strict";
import { naive } from "./fixture.ts";
import { ToolProcess } from "../helpers/tool_process.ts";

const FILE = "src/requests/sessions.py";
const OLD = "requests/sessions.py";

interface History {
  base: string;
  root: string;
  /** Commit ids by name: first, edit, move, format, ignore. */
  oid: Record<string, string>;
  git(...args: string[]): string;
  dispose(): Promise<void>;
}

function makeHistory(): History {
  const base = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "shipcode_history_" }));
  const root = `${base}/repo`;
  Deno.mkdirSync(`${root}/requests`, { recursive: true });
  const run = (env: Record<string, string>, ...args: string[]) => {
    const r = naive(root, args, {
      GIT_AUTHOR_NAME: "Ada",
      GIT_AUTHOR_EMAIL: "ada@example.com",
      GIT_COMMITTER_NAME: "Ada",
      GIT_COMMITTER_EMAIL: "ada@example.com",
      ...env,
    });
    assert.equal(r.code, 0, `git ${args.join(" ")}: ${r.stderr}`);
    return r.stdout;
  };
  const git = (...args: string[]) => run({}, ...args);
  const commit = (message: string, author: string, committer = author) => {
    run({}, "add", "-A");
    run({ GIT_AUTHOR_DATE: author, GIT_COMMITTER_DATE: committer }, "commit", "-q", "-m", message);
    return git("rev-parse", "HEAD").trim();
  };
  git("init", "-q", "-b", "main");
  const lines = Array.from({ length: 20 }, (_, i) => `line_${i + 1} = ${i + 1}`);
  const write = (rel: string, text: string) => Deno.writeTextFileSync(`${root}/${rel}`, text);
  write(OLD, lines.join("\n") + "\n");
  write("README.md", "# requests\n");
  const oid: Record<string, string> = {};
  oid.first = commit("first", "2024-01-01T10:00:00Z");
  lines[2] = "line_3 = 'three'";
  write(OLD, lines.join("\n") + "\n");
  oid.edit = commit("edit line 3", "2024-02-01T10:00:00Z");
  git("tag", "v1");
  Deno.mkdirSync(`${root}/src`);
  git("mv", "requests", "src/requests");
  lines[19] = "line_20 = 'twenty'";
  write(FILE, lines.join("\n") + "\n");
  oid.move = commit("move to src", "2024-03-01T10:00:00Z");
  git("tag", "v2");
  write(FILE, lines.map((l) => l.replace(" = ", "=")).join("\n") + "\n");
  // Authored in April, committed in June: since/until see June.
  oid.format = commit("format", "2024-04-01T10:00:00Z", "2024-06-01T10:00:00Z");
  write(".git-blame-ignore-revs", `# formatting\n${oid.format}\n`);
  oid.ignore = commit("ignore the formatting commit", "2024-07-01T10:00:00Z");
  git("tag", "v3");
  return { base, root, oid, git, dispose: () => Deno.remove(base, { recursive: true }) };
}

async function withHistory(
  fn: (p: ToolProcess, h: History) => Promise<void>,
  flags: string[] = [],
): Promise<void> {
  const h = makeHistory();
  const p = await ToolProcess.start(h.root, flags);
  try {
    await fn(p, h);
  } finally {
    await p.stop();
    await h.dispose();
  }
}

const short = (oid: string) => oid.slice(0, 7);

Deno.test("git_diff process: a path renamed in the range gets the rename diff its stat describes", async () => {
  await withHistory(async (p, h) => {
    const stat = await p.call("git_diff", { base: "v1", target: "v2", stat_only: true });
    assert.deepEqual(
      stat.structured!.files,
      [`0\t0\tREADME.md`].slice(1).concat([`1\t1\t${OLD} => ${FILE}`]),
    );
    const r = await p.call("git_diff", { base: "v1", target: "v2", path: FILE });
    assert.equal(r.isError, false, r.text);
    const expected = h.git(
      "-c",
      "core.quotePath=false",
      "diff",
      "--no-ext-diff",
      "--no-textconv",
      "v1",
      "v2",
      "--",
      FILE,
      OLD,
    ).replace(/\n$/, "");
    assert.equal(r.text, expected);
    assert.match(r.text, /^rename from requests\/sessions\.py$/m);
    assert.deepEqual(r.structured!.rename_paths, [OLD]);
    // The old side works the same way.
    const old = await p.call("git_diff", { base: "v1", target: "v2", path: OLD });
    assert.equal(old.text, expected);
    const statPath = await p.call("git_diff", {
      base: "v1",
      target: "v2",
      path: FILE,
      stat_only: true,
    });
    assert.deepEqual(statPath.structured!.files, [`1\t1\t${OLD} => ${FILE}`]);
  });
});

Deno.test("git_diff process: an empty work-tree diff names the untracked files under path", async () => {
  await withHistory(async (p, h) => {
    Deno.writeTextFileSync(`${h.root}/src/new.py`, "x = 1\n");
    const r = await p.call("git_diff", { path: "src" });
    assert.equal(
      r.text,
      "No changes to tracked files; 1 untracked file under src is not in a diff until added " +
        "(git_status lists them): src/new.py",
    );
    assert.equal(r.structured!.note, r.text);
    assert.equal(h.git("ls-files", "--others", "--exclude-standard", "--", "src"), "src/new.py\n");
    const none = await p.call("git_diff", { path: "README.md" });
    assert.equal(none.text, "No changes");
  });
});

Deno.test("git_log process: base and A..B list the range git lists", async () => {
  await withHistory(async (p, h) => {
    const expected = h.git("log", "--format=%h", "v1..v3").trim().split("\n");
    const range = await p.call("git_log", { revision: "v1..v3" });
    assert.equal(range.isError, false, range.text);
    assert.deepEqual((range.structured!.commits as string[]).map((c) => c.split(" ")[0]), expected);
    const based = await p.call("git_log", { base: "v1", revision: "v3" });
    assert.deepEqual(based.structured!.commits, range.structured!.commits);
    const both = await p.call("git_log", { base: "v1", revision: "v1..v3" });
    assert.equal(both.text, "Give either base or a range revision such as A..B, not both");
  });
});

Deno.test("git_log process: a path's history says where it continues, and follow follows it", async () => {
  await withHistory(async (p, h) => {
    const r = await p.call("git_log", { path: FILE });
    const lines = r.text.split("\n");
    assert.deepEqual(
      lines.slice(0, -1).map((l) => l.split(" ")[0]),
      h.git("log", "--format=%h", "--", FILE).trim().split("\n"),
    );
    assert.equal(
      lines[lines.length - 1],
      `[history continues as ${OLD} before ${short(h.oid.move)}; call git_log with that path ` +
        "(or set follow: true)]",
    );
    assert.match(r.structured!.note as string, /^history continues as requests\/sessions\.py/);
    const followed = await p.call("git_log", { path: FILE, follow: true });
    assert.deepEqual(
      (followed.structured!.commits as string[]).map((c) => c.split(" ")[0]),
      h.git("log", "--follow", "--format=%h", "--", FILE).trim().split("\n"),
    );
    assert.equal(followed.structured!.note, undefined);
    const noPath = await p.call("git_log", { follow: true });
    assert.equal(
      noPath.text,
      "follow needs path: the one file whose history to follow across renames",
    );
  });
});

Deno.test("git_log process: the history-continues line stays when author, grep, since or until is given", async () => {
  await withHistory(async (p, h) => {
    const line = `[history continues as ${OLD} before ${short(h.oid.move)}; call git_log with ` +
      "that path (or set follow: true)]";
    for (
      const filter of [
        { author: "ada" },
        { grep: "FORMAT" },
        { since: "2024-05-01" },
        { until: "2024-12-31" },
      ]
    ) {
      const r = await p.call("git_log", { path: FILE, ...filter });
      assert.equal(r.isError, false, r.text);
      const [key, value] = Object.entries(filter)[0];
      const option = key === "author" || key === "grep"
        ? [`--${key}=${value}`, "-i", "-F"]
        : [`--${key}=${value}`];
      const expected = h.git("log", ...option, "--format=%h", "--", FILE).trim().split("\n");
      const commits = (r.structured!.commits as string[]).map((c) => c.split(" ")[0]);
      assert.deepEqual(commits, expected, JSON.stringify(filter));
      assert.equal(r.text.split("\n").pop(), line, JSON.stringify(filter));
    }
    // A page with more after it is not the last: no line yet.
    const first = await p.call("git_log", { path: FILE, author: "ada", head_limit: 1 });
    assert.doesNotMatch(first.text, /history continues/);
  });
});

Deno.test("git_log process: the paging hint counts the commits left, and since/until say which date filters", async () => {
  await withHistory(async (p, h) => {
    const total = Number(h.git("rev-list", "--count", "HEAD").trim());
    const page = await p.call("git_log", { head_limit: 2 });
    assert.equal(
      page.text.split("\n").pop(),
      `[... ${total - 2} more commits; call again with offset=2]`,
    );
    assert.equal(page.structured!.total, total);
    const since = await p.call("git_log", { since: "2024-05-01" });
    const lines = since.text.split("\n");
    assert.deepEqual(
      lines.slice(0, -1).map((l) => l.split(" ")[0]),
      h.git("log", "--since=2024-05-01", "--format=%h").trim().split("\n"),
    );
    // The formatting commit is in (committed in June) though its line shows April.
    assert.match(since.text, new RegExp(`^${short(h.oid.format)} 2024-04-01 Ada format$`, "m"));
    assert.equal(
      lines[lines.length - 1],
      "[dates shown are author dates; since/until filter on committer dates]",
    );
  });
});

Deno.test("git_blame process: the root's .git-blame-ignore-revs is used by default, groups name the older path", async () => {
  await withHistory(async (p, h) => {
    const r = await p.call("git_blame", { path: FILE });
    assert.equal(r.isError, false, r.text);
    const porcelain = h.git(
      "blame",
      "--porcelain",
      `--ignore-revs-file=${h.root}/.git-blame-ignore-revs`,
      "--",
      FILE,
    );
    const expected = [...porcelain.matchAll(/^([0-9a-f]{40}) \d+ (\d+)/gm)].map((m) => m[1]);
    const groups = r.structured!.groups as {
      commit: string;
      start_line: number;
      end_line: number;
      path?: string;
    }[];
    const byLine: string[] = [];
    for (const g of groups) for (let n = g.start_line; n <= g.end_line; n++) byLine.push(g.commit);
    assert.deepEqual(byLine, expected);
    assert.ok(!byLine.includes(h.oid.format), "the formatting commit is skipped");
    const fromOld = groups.filter((g) => g.path === OLD);
    assert.ok(fromOld.length > 0 && fromOld.every((g) => g.commit !== h.oid.move));
    assert.equal(r.structured!.ignore_revs_file, ".git-blame-ignore-revs");
    assert.match(
      r.text,
      /\[commits listed in \.git-blame-ignore-revs are skipped; ignore_revs: false blames them too\]/,
    );
    const off = await p.call("git_blame", { path: FILE, ignore_revs: false });
    const plain = [
      ...h.git("blame", "--porcelain", "--", FILE).matchAll(/^([0-9a-f]{40}) \d+ (\d+)/gm),
    ]
      .map((m) => m[1]);
    assert.deepEqual(plain, Array(20).fill(h.oid.format));
    assert.deepEqual(
      (off.structured!.groups as { commit: string }[]).map((g) => g.commit),
      [h.oid.format],
    );
    assert.equal(off.structured!.ignore_revs_file, undefined);
  });
});

Deno.test("git_blame process: the paging hint counts the lines left", async () => {
  await withHistory(async (p) => {
    const r = await p.call("git_blame", { path: FILE, limit: 5, ignore_revs: false });
    assert.match(r.text, /\n\[\.\.\. 15 more lines \(20 in all\); call again with offset=6\]$/);
    assert.equal(r.structured!.total_lines, 20);
  });
});

Deno.test("git_blame process: a path missing at the revision because the file moved names its path there", async () => {
  await withHistory(async (p, h) => {
    // git itself answers only "fatal: no such path ... in <oid>".
    const raw = naive(h.root, ["blame", "--porcelain", `${h.oid.move}^`, "--", FILE]);
    assert.notEqual(raw.code, 0);
    const older = await p.call("git_blame", { path: FILE, revision: `${h.oid.move}^` });
    assert.equal(older.isError, true);
    assert.equal(
      older.text,
      `No file "${FILE}" at revision "${h.oid.move}^": there it is named ${OLD} (renamed to ${FILE} in ${
        h.oid.move.slice(0, 8)
      }); call git_blame with that path`,
    );
    const there = await p.call("git_blame", { path: OLD, revision: `${h.oid.move}^` });
    assert.equal(there.isError, false, there.text);
    assert.equal((there.structured!.lines as string[]).length, 20);
    const newer = await p.call("git_blame", { path: OLD, revision: "v3" });
    assert.equal(
      newer.text,
      `No file "${OLD}" at revision "v3": it was moved to ${FILE} in ${
        h.oid.move.slice(0, 8)
      }; call git_blame with that path`,
    );
    const folder = await p.call("git_blame", { path: "src", revision: "v3" });
    assert.equal(folder.text, `"src" at revision "v3" is a tree, not a file`);
    const never = await p.call("git_blame", { path: "nothing.py", revision: "v3" });
    assert.equal(
      never.text,
      `No file "nothing.py" at revision "v3"; git_log with this path and follow: true lists the ` +
        "revisions that have it",
    );
  });
});

Deno.test("git_show process: a path missing because the file moved names its other path", async () => {
  await withHistory(async (p, h) => {
    const older = await p.call("git_show", { revision: "v1", path: FILE });
    assert.equal(
      older.text,
      `No file "${FILE}" at revision "v1": there it is named ${OLD} (renamed to ${FILE} in ${
        h.oid.move.slice(0, 8)
      }); call git_show with that path`,
    );
    const newer = await p.call("git_show", { revision: "v3", path: OLD });
    assert.equal(
      newer.text,
      `No file "${OLD}" at revision "v3": it was moved to ${FILE} in ${
        h.oid.move.slice(0, 8)
      }; call git_show with that path`,
    );
  });
});

Deno.test("git_show process: raw gives the exact text, and write_file restores the file from it in one call", async () => {
  await withHistory(async (p, h) => {
    const expected = h.git("show", `v1:${OLD}`);
    const raw = await p.call("git_show", { revision: "v1", path: OLD, raw: true });
    assert.equal(raw.structured!.text, expected);
    assert.equal(raw.structured!.total_chars, expected.length);
    assert.equal(raw.structured!.truncated, false);
    const paged = await p.call("git_show", {
      revision: "v1",
      path: OLD,
      raw: true,
      offset: 10,
      limit: 7,
    });
    assert.equal(paged.structured!.text, expected.slice(10, 17));
    assert.equal(paged.structured!.next_offset, 17);
    await p.call("read_file", { path: FILE });
    const restored = await p.call("write_file", { path: FILE, content: raw.structured!.text });
    assert.equal(restored.isError, false, restored.text);
    assert.equal(Deno.readTextFileSync(`${h.root}/${FILE}`), expected);
  }, ["--write"]);
});

Deno.test("git_show process: a parameter the mode does not use is refused in one sentence", async () => {
  await withHistory(async (p) => {
    const a = await p.call("git_show", { revision: "v1", path: OLD, head_limit: 5 });
    assert.equal(a.isError, true);
    assert.equal(
      a.text,
      "head_limit pages a commit's diff; with path, page the file with offset and limit",
    );
    const b = await p.call("git_show", { revision: "v1", limit: 5 });
    assert.equal(b.text, "limit pages a file (with path); page a commit's diff with head_limit");
    const c = await p.call("git_show", { revision: "v1", raw: true });
    assert.equal(c.text, "raw shows a file's exact text: give path too");
  });
});
