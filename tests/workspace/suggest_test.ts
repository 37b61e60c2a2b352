import assert from "node:assert/strict";
import { makeTree, openWorkspaceAt, type Tree } from "../helpers/fixture.ts";
import { didYouMean, nameDistance } from "../../lib/workspace/suggest.ts";
import type { Workspace } from "../../lib/workspace/workspace.ts";

const KERNEL: Tree = {
  "kernel/sched/core.c": "",
  "kernel/sched/core.h": "",
  "kernel/sched/fair.c": "",
  "kernel/fork.c": "",
  "drivers/base/core.c": "",
  "drivers/net/loopback.c": "",
  "mm/slab.c": "",
  "README": "",
  ".git/HEAD": "ref: refs/heads/main\n",
  ".git/config.c": "",
  ".gitignore": "build/\n",
  "build/core.c": "",
  ".env": "SECRET=1\n",
  "kernel/.env": "SECRET=1\n",
};

async function withTree(
  tree: Tree,
  fn: (ws: Workspace, root: string) => void | Promise<void>,
): Promise<void> {
  const t = await makeTree(tree);
  try {
    await fn(openWorkspaceAt(t.root), t.root);
  } finally {
    await t.dispose();
  }
}

Deno.test("suggest: a typo in the last segment finds the sibling", () =>
  withTree(KERNEL, (ws) => {
    assert.deepEqual(ws.suggest("kernel/sched/cor.c"), [
      "kernel/sched/core.c",
      "kernel/sched/core.h",
    ]);
  }));

Deno.test("suggest: typos in several segments are followed level by level", () =>
  withTree(KERNEL, (ws) => {
    assert.equal(ws.suggest("kernal/shed/core.c")[0], "kernel/sched/core.c");
  }));

Deno.test("suggest: a missing leading folder is found below the deepest existing one", () =>
  withTree(KERNEL, (ws) => {
    assert.equal(ws.suggest("sched/core.c")[0], "kernel/sched/core.c");
    assert.deepEqual(ws.suggest("net/loopback.c"), ["drivers/net/loopback.c"]);
  }));

Deno.test("suggest: at most three, nearest first", () =>
  withTree(KERNEL, (ws) => {
    const got = ws.suggest("kernel/sched/cxre.x");
    assert.ok(got.length <= 3);
    assert.deepEqual(ws.suggest("core.c").slice(0, 2), [
      "drivers/base/core.c",
      "kernel/sched/core.c",
    ]);
  }));

Deno.test("suggest: absolute paths and file URIs inside the root work", () =>
  withTree(KERNEL, (ws, root) => {
    assert.equal(ws.suggest(`${root}/kernel/fork.cc`)[0], "kernel/fork.c");
    assert.equal(ws.suggest(`file://${root}/mm/slub.c`)[0], "mm/slab.c");
  }));

Deno.test("suggest: ignored, secret and .git paths are never suggested", () =>
  withTree(KERNEL, (ws) => {
    const all = [
      ...ws.suggest("build/core.c"),
      ...ws.suggest(".git/config.c"),
      ...ws.suggest("kernel/.envv"),
      ...ws.suggest(".enw"),
      ...ws.suggest("bild/core.c"),
    ];
    for (const path of all) {
      assert.doesNotMatch(path, /(^|\/)(\.git|build|\.env)(\/|$)/, path);
    }
  }));

Deno.test("suggest: a path outside the root or far from every name gets none", () =>
  withTree(KERNEL, (ws) => {
    assert.deepEqual(ws.suggest("/etc/passwd"), []);
    assert.deepEqual(ws.suggest("../kernel/fork.c"), []);
    assert.deepEqual(ws.suggest("zzzzzzzzzz/qqqqqqqq.py"), []);
  }));

Deno.test("suggest: folders are suggested with a trailing slash", () =>
  withTree(KERNEL, (ws) => {
    assert.equal(ws.suggest("driver")[0], "drivers/");
  }));

Deno.test("suggest: the search below the deepest folder is bounded by entries listed", async () => {
  const tree: Tree = {};
  for (let i = 0; i < 150; i++) tree[`wide/d${String(i).padStart(3, "0")}/f.txt`] = "";
  tree["zz/target/deep.txt"] = "";
  await withTree(tree, (ws) => {
    // Breadth first: the wide level is listed before zz/target is reached.
    assert.deepEqual(ws.suggest("target/deep.txt", { maxListed: 400 }), ["zz/target/deep.txt"]);
    assert.deepEqual(ws.suggest("target/deep.txt", { maxListed: 100 }), []);
  });
});

Deno.test("suggest: name distance is Levenshtein with case differences cheap", () => {
  assert.equal(nameDistance("core.c", "core.c"), 0);
  assert.equal(nameDistance("Core.c", "core.c"), 0.25);
  assert.equal(nameDistance("cor.c", "core.c"), 1);
  assert.equal(nameDistance("kernal", "kernel"), 1);
});

Deno.test("suggest: the sentence names one, two or three paths", () => {
  assert.equal(didYouMean([]), "");
  assert.equal(didYouMean(["a.c"]), "; did you mean a.c?");
  assert.equal(didYouMean(["a.c", "b.c", "c.c"]), "; did you mean a.c, b.c or c.c?");
});
