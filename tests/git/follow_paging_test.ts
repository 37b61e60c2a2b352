/**
 * git_log with follow: true pages one `git log --follow` list (git's --skip does not work with
 * --follow): on a repository of 150 commits where one file has 75 commits under three names,
 * with other files' commits between them, the pages are disjoint, their union is git's list in
 * order, and an offset past the end ends.
 */
import assert from "node:assert/strict";
import { gitLogTool } from "../../lib/tools/git_log.ts";
import { call, text } from "../tools/helpers.ts";
import { gitHarness, makeRepo, naive } from "./fixture.ts";

const NAMES = ["algo.go", "src/algo.go", "src/algo/algo.go"];
const FILE = NAMES[NAMES.length - 1];

/** A `git fast-import` stream: 150 commits on main after the fixture's first one. */
function history(parent: string): string {
  const body = (k: number) =>
    Array.from({ length: 40 }, (_, i) => `line ${i} ${i === k % 40 ? `edit ${k}` : ""}`)
      .join("\n") + "\n";
  const out: string[] = [];
  let name = NAMES[0];
  let mark = 0;
  let time = 1_700_000_000;
  const commit = (message: string, ops: string[]) => {
    mark++;
    time += 60;
    out.push(
      "commit refs/heads/main",
      `mark :${mark}`,
      `author Ada <ada@example.com> ${time} +0000`,
      `committer Ada <ada@example.com> ${time} +0000`,
      `data ${message.length}`,
      message,
      mark === 1 ? `from ${parent}` : `from :${mark - 1}`,
      ...ops,
      "",
    );
  };
  const blob = (content: string) => [`M 100644 inline ${name}`, `data ${content.length}`, content];
  for (let k = 0; k < 150; k++) {
    if (k % 2 === 1) {
      const other = `other ${k}\n`;
      commit(`other ${k}`, [`M 100644 inline notes.txt`, `data ${other.length}`, other]);
    } else if (k === 50 || k === 100) {
      const from = name;
      name = NAMES[k / 50];
      commit(`move to ${name}`, [`R ${from} ${name}`]);
    } else {
      commit(`edit ${k}`, blob(body(k)));
    }
  }
  return out.join("\n") + "\n";
}

function shorts(commits: unknown): string[] {
  return (commits as string[]).map((c) => c.split(" ")[0]);
}

Deno.test({
  name:
    "git_log follow: pages are cut from one --follow list: disjoint, whole, and a far offset ends",
  fn: async () => {
    const repo = makeRepo({ "README.md": "fixture\n" });
    const stream = new TextEncoder().encode(history("refs/heads/main^0"));
    const imported = new Deno.Command("git", {
      args: ["fast-import", "--quiet"],
      cwd: repo.root,
      stdin: "piped",
      stdout: "null",
      stderr: "piped",
    }).spawn();
    const writer = imported.stdin.getWriter();
    await writer.write(stream);
    await writer.close();
    const status = await imported.output();
    assert.equal(status.code, 0, new TextDecoder().decode(status.stderr));
    assert.equal(naive(repo.root, ["reset", "-q", "--hard", "main"]).code, 0);
    const expected = naive(repo.root, ["log", "--follow", "--format=%h", "--", FILE]).stdout
      .trim().split("\n");
    assert.equal(expected.length, 75, "the fixture's file has 75 commits under three names");
    const h = await gitHarness(repo);
    try {
      const seen: string[] = [];
      let offset = 0;
      for (let page = 0; page < 10; page++) {
        const r = await call(gitLogTool, { path: FILE, follow: true, head_limit: 20, offset }, h);
        assert.equal(r.isError, undefined, text(r));
        const s = r.structuredContent!;
        seen.push(...shorts(s.commits));
        if (s.truncated === false) break;
        assert.equal(s.next_offset, offset + 20);
        assert.equal(s.total, 75);
        offset = s.next_offset as number;
      }
      assert.deepEqual(seen, expected);
      const far = await call(gitLogTool, { path: FILE, follow: true, offset: 1000 }, h);
      assert.deepEqual(far.structuredContent!.commits, []);
      assert.equal(far.structuredContent!.truncated, false);
      assert.equal(text(far), "No more commits");
      const last = await call(gitLogTool, { path: FILE, follow: true, offset: 70 }, h);
      assert.deepEqual(shorts(last.structuredContent!.commits), expected.slice(70));
    } finally {
      h.ctx.session.close();
      await repo.dispose();
    }
  },
});
