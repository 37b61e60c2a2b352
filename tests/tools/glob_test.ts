import assert from "node:assert/strict";
import { globTool } from "../../lib/tools/glob.ts";
import { call, hasRipgrep, ripgrep, text, toolTest } from "./helpers.ts";

const TREE: Record<string, string> = {
  "a.ts": "a",
  "src/b.ts": "b",
  "src/c.tsx": "c",
  "src/deep/d.ts": "d",
  "src/.hidden.ts": "h",
  "docs/readme.md": "r",
  ".env": "SECRET=1",
  "server.key": "k",
  "upper.TS": "u",
};

function sc(result: { structuredContent?: Record<string, unknown> }) {
  return result.structuredContent as Record<string, unknown>;
}

async function setMtimes(root: string, order: string[]): Promise<void> {
  // order: newest first
  const now = Date.now() / 1000;
  for (let i = 0; i < order.length; i++) {
    await Deno.utime(`${root}/${order[i]}`, now - 1000 * i, now - 1000 * i);
  }
}

toolTest("glob: a pattern without / matches names at any depth", TREE, async (h) => {
  const r = await call(globTool, { pattern: "*.ts" }, h);
  assert.deepEqual([...(sc(r).files as string[])].sort(), [
    "a.ts",
    "src/.hidden.ts",
    "src/b.ts",
    "src/deep/d.ts",
  ]);
});

toolTest("glob: most recently modified first, ties by path", TREE, async (h) => {
  await setMtimes(h.root, ["src/deep/d.ts", "a.ts"]);
  const t = (Date.now() - 5_000_000) / 1000;
  await Deno.utime(`${h.root}/src/b.ts`, t, t);
  await Deno.utime(`${h.root}/src/.hidden.ts`, t, t);
  const r = await call(globTool, { pattern: "*.ts" }, h);
  assert.equal(text(r), "src/deep/d.ts\na.ts\nsrc/.hidden.ts\nsrc/b.ts");
});

toolTest("glob: a pattern with / matches the root-relative path, path or not", TREE, async (h) => {
  const r = await call(globTool, { pattern: "src/deep/*.ts", path: "src" }, h);
  assert.equal(text(r), "src/deep/d.ts");
});

toolTest("glob: ** and {a,b} work", TREE, async (h) => {
  const r = await call(globTool, { pattern: "src/**/*.{ts,tsx}" }, h);
  assert.equal(sc(r).total, 4);
});

toolTest("glob: matching is case-sensitive", TREE, async (h) => {
  const r = await call(globTool, { pattern: "*.TS" }, h);
  assert.equal(text(r), "upper.TS");
});

toolTest("glob: secret files are left out", TREE, async (h) => {
  const r = await call(globTool, { pattern: "*" }, h);
  const files = sc(r).files as string[];
  assert.equal(files.includes(".env"), false);
  assert.equal(files.includes("server.key"), false);
  assert.equal(files.includes("docs/readme.md"), true);
});

toolTest("glob: no match says so", TREE, async (h) => {
  const r = await call(globTool, { pattern: "*.rs" }, h);
  assert.equal(text(r), "No files found");
  assert.deepEqual(sc(r), { files: [], total: 0, offset: 0, truncated: false });
});

toolTest("glob: an invalid glob is an error", TREE, async (h) => {
  const r = await call(globTool, { pattern: "*.{ts" }, h);
  assert.equal(r.isError, true);
  assert.match(text(r), /unclosed/);
});

toolTest("glob: a path outside the root is refused", TREE, async (h) => {
  const r = await call(globTool, { pattern: "*", path: "/etc" }, h);
  assert.equal(r.isError, true);
  assert.match(text(r), /outside the workspace/);
});

const MANY: Record<string, string> = {};
for (let i = 0; i < 130; i++) MANY[`f/${String(i).padStart(3, "0")}.txt`] = "x";

toolTest("glob: head_limit defaults to 100 with a hint for the rest", MANY, async (h) => {
  const r = await call(globTool, { pattern: "*.txt" }, h);
  assert.equal((sc(r).files as string[]).length, 100);
  assert.equal(sc(r).total, 130);
  assert.equal(sc(r).next_offset, 100);
  assert.ok(text(r).endsWith("[... 30 more files; call again with offset=100]"));
});

toolTest("glob: offset continues where the page ended", MANY, async (h) => {
  const first = await call(globTool, { pattern: "*.txt" }, h);
  const second = await call(globTool, { pattern: "*.txt", offset: 100 }, h);
  const all = [...(sc(first).files as string[]), ...(sc(second).files as string[])];
  assert.equal(new Set(all).size, 130);
  assert.equal(sc(second).truncated, false);
});

toolTest("glob: the budget cuts a page before the default limit", MANY, async (h) => {
  h.ctx.config.maxOutputChars = 1000;
  const r = await call(globTool, { pattern: "*.txt" }, h);
  assert.ok(JSON.stringify(r.structuredContent).length <= 1000);
  assert.ok((sc(r).files as string[]).length < 100);
});

toolTest("glob: head_limit 0 lists every file", MANY, async (h) => {
  const r = await call(globTool, { pattern: "*.txt", head_limit: 0 }, h);
  assert.equal((sc(r).files as string[]).length, 130);
});

const RG = hasRipgrep();

toolTest(
  "glob: file sets agree with rg --files -g (needs rg)",
  TREE,
  async (h) => {
    for (const pattern of ["*.ts", "src/**/*.ts", "**/*.md", "*.{ts,tsx}", "!*.ts", "src/*"]) {
      const rg = ripgrep(h.root, ["--files", "--hidden", "-L", "-g", pattern])
        .split("\n").filter((l) => l !== "" && l !== ".env" && l !== "server.key").sort();
      const r = await call(globTool, { pattern, head_limit: 0 }, h);
      assert.deepEqual([...(sc(r).files as string[])].sort(), rg, pattern);
    }
  },
  {},
  !RG,
);

toolTest(
  "glob: ignored files are left out inside a git work tree",
  { ".git/HEAD": "ref", ".gitignore": "build/\n", "build/out.ts": "x", "src/a.ts": "a" },
  async (h) => {
    const r = await call(globTool, { pattern: "*.ts" }, h);
    assert.equal(text(r), "src/a.ts");
  },
);

const DEEP: Record<string, string> = {};
for (const a of ["p", "q"]) {
  for (const b of ["r", "s", "t"]) {
    for (const c of ["u", "v"]) DEEP[`${a}/${b}/${c}/deep/f.ts`] = "x";
    DEEP[`${a}/${b}/g.ts`] = "x";
  }
  DEEP[`${a}/h.ts`] = "x";
}
DEEP["top.ts"] = "x";

toolTest("glob: every file of a deep tree is found exactly once", DEEP, async (h) => {
  const r = await call(globTool, { pattern: "*.ts", head_limit: 0 }, h);
  const files = sc(r).files as string[];
  assert.equal(files.length, Object.keys(DEEP).length);
  assert.deepEqual([...files].sort(), Object.keys(DEEP).sort());
  const under = await call(globTool, { pattern: "p/r/**/*.ts", path: "p", head_limit: 0 }, h);
  assert.deepEqual([...(sc(under).files as string[])].sort(), [
    "p/r/g.ts",
    "p/r/u/deep/f.ts",
    "p/r/v/deep/f.ts",
  ]);
});

toolTest("glob: a missing path suggests the nearest served paths", TREE, async (h) => {
  const r = await call(globTool, { pattern: "*", path: "srx" }, h);
  assert.equal(r.isError, true);
  assert.match(text(r), /; did you mean src\/\?$/);
});
