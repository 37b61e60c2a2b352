import assert from "node:assert/strict";
import { defaultConfig } from "../../lib/config.ts";
import { chooseRoot, NO_WORKSPACE } from "../../lib/workspace/root.ts";
import { makeTree } from "../helpers/fixture.ts";

Deno.test("chooseRoot: serves an explicit --root", async () => {
  const t = await makeTree({ "a.txt": "" });
  try {
    const config = { ...defaultConfig(), root: t.root, rootExplicit: true };
    assert.deepEqual(chooseRoot(config), { root: t.root });
  } finally {
    await t.dispose();
  }
});

Deno.test("chooseRoot: a relative --root is taken from the current folder", async () => {
  const t = await makeTree({ "sub/a.txt": "" });
  try {
    const config = { ...defaultConfig(), root: "sub", rootExplicit: true };
    assert.deepEqual(inCwd(t.root, () => chooseRoot(config)), {
      root: `${Deno.realPathSync(t.root)}/sub`,
    });
  } finally {
    await t.dispose();
  }
});

Deno.test("chooseRoot: an explicit --root that is missing throws the one stderr line", () => {
  const config = { ...defaultConfig(), root: "/nonexistent/shipcode", rootExplicit: true };
  assert.throws(() => chooseRoot(config), {
    message: 'Cannot serve --root "/nonexistent/shipcode": no such folder',
  });
});

Deno.test("chooseRoot: an explicit --root that is a file throws the one stderr line", async () => {
  const t = await makeTree({ "a.txt": "" });
  try {
    const config = { ...defaultConfig(), root: `${t.root}/a.txt`, rootExplicit: true };
    assert.throws(() => chooseRoot(config), {
      message: `Cannot serve --root "${t.root}/a.txt": not a folder`,
    });
  } finally {
    await t.dispose();
  }
});

function inCwd<T>(dir: string, fn: () => T): T {
  const before = Deno.cwd();
  Deno.chdir(dir);
  try {
    return fn();
  } finally {
    Deno.chdir(before);
  }
}

Deno.test("chooseRoot: without --root serves the current folder", async () => {
  const t = await makeTree({ "a.txt": "" });
  try {
    const { root } = inCwd(t.root, () => chooseRoot(defaultConfig()));
    assert.equal(root, await Deno.realPath(t.root));
  } finally {
    await t.dispose();
  }
});

Deno.test("chooseRoot: without --root, / is not served", () => {
  const result = inCwd("/", () => chooseRoot(defaultConfig()));
  assert.deepEqual(result, { root: null, notice: NO_WORKSPACE });
  assert.equal(NO_WORKSPACE, "No workspace: restart shipcode-mcp with --root DIR");
});

Deno.test("chooseRoot: without --root, the home folder is not served", async () => {
  const t = await makeTree({});
  const home = Deno.env.get("HOME");
  Deno.env.set("HOME", t.root);
  try {
    const result = inCwd(t.root, () => chooseRoot(defaultConfig()));
    assert.deepEqual(result, { root: null, notice: NO_WORKSPACE });
  } finally {
    if (home === undefined) Deno.env.delete("HOME");
    else Deno.env.set("HOME", home);
    await t.dispose();
  }
});
