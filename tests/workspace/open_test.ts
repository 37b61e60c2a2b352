import assert from "node:assert/strict";
import { defaultConfig } from "../../lib/config.ts";
import { NO_WORKSPACE, openWorkspace } from "../../lib/workspace/open.ts";
import { makeTree } from "./fixture.ts";

Deno.test("openWorkspace: serves an explicit --root as its real path", async () => {
  const t = await makeTree({ "a.txt": "" });
  try {
    const config = { ...defaultConfig(), root: t.root, rootExplicit: true, allowSecrets: true };
    const { workspace, notice } = await openWorkspace(config);
    assert.equal(workspace?.root, await Deno.realPath(t.root));
    assert.equal(workspace?.options.allowSecrets, true);
    assert.equal(notice, undefined);
  } finally {
    await t.dispose();
  }
});

Deno.test("openWorkspace: an explicit --root that is missing throws the one stderr line", async () => {
  const config = { ...defaultConfig(), root: "/nonexistent/shipcode", rootExplicit: true };
  await assert.rejects(openWorkspace(config), {
    message: 'Cannot serve --root "/nonexistent/shipcode": no such folder',
  });
});

Deno.test("openWorkspace: an explicit --root that is a file throws the one stderr line", async () => {
  const t = await makeTree({ "a.txt": "" });
  try {
    const config = { ...defaultConfig(), root: `${t.root}/a.txt`, rootExplicit: true };
    await assert.rejects(openWorkspace(config), {
      message: `Cannot serve --root "${t.root}/a.txt": not a folder`,
    });
  } finally {
    await t.dispose();
  }
});

async function inCwd<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  const before = Deno.cwd();
  Deno.chdir(dir);
  try {
    return await fn();
  } finally {
    Deno.chdir(before);
  }
}

Deno.test("openWorkspace: without --root serves the current folder", async () => {
  const t = await makeTree({ "a.txt": "" });
  try {
    const { workspace } = await inCwd(t.root, () => openWorkspace(defaultConfig()));
    assert.equal(workspace?.root, await Deno.realPath(t.root));
  } finally {
    await t.dispose();
  }
});

Deno.test("openWorkspace: without --root, / is not served", async () => {
  const result = await inCwd("/", () => openWorkspace(defaultConfig()));
  assert.deepEqual(result, { workspace: null, notice: NO_WORKSPACE });
  assert.equal(NO_WORKSPACE, "No workspace: restart shipcode-mcp with --root DIR");
});

Deno.test("openWorkspace: without --root, the home folder is not served", async () => {
  const t = await makeTree({});
  const home = Deno.env.get("HOME");
  Deno.env.set("HOME", t.root);
  try {
    const result = await inCwd(t.root, () => openWorkspace(defaultConfig()));
    assert.deepEqual(result, { workspace: null, notice: NO_WORKSPACE });
  } finally {
    if (home === undefined) Deno.env.delete("HOME");
    else Deno.env.set("HOME", home);
    await t.dispose();
  }
});
