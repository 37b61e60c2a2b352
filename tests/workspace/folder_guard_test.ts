/** The folder guard (lib/workspace/folder_guard.ts): what it records and what it catches. */
import assert from "node:assert/strict";
import { FolderGuard, FRESH_MS, isUnder } from "../../lib/workspace/folder_guard.ts";

async function settled(): Promise<string> {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "shipcode-guard-" }));
  await Deno.mkdir(`${base}/root/a/b`, { recursive: true });
  await Deno.mkdir(`${base}/outside/b`, { recursive: true });
  await new Promise((resolve) => setTimeout(resolve, FRESH_MS + 10));
  return base;
}

Deno.test("folder guard: a settled chain is recorded and verifies unchanged", async () => {
  const base = await settled();
  try {
    const guard = new FolderGuard(`${base}/root`);
    assert.equal(guard.enter(`${base}/root/a/b`), "ok");
    assert.deepEqual(guard.verify(), []);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("folder guard: a folder swapped for a link and back is caught by its parent's mtime", async () => {
  const base = await settled();
  try {
    const root = `${base}/root`;
    const guard = new FolderGuard(root);
    assert.equal(guard.enter(`${root}/a/b`), "ok");
    await Deno.rename(`${root}/a`, `${root}/a.away`);
    await Deno.symlink(`${base}/outside`, `${root}/a`);
    await Deno.remove(`${root}/a`);
    await Deno.rename(`${root}/a.away`, `${root}/a`);
    assert.deepEqual(guard.verify(), [root]);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("folder guard: a link on the path is bad, a folder changed just now is fresh", async () => {
  const base = await settled();
  try {
    const root = `${base}/root`;
    await Deno.symlink(`${base}/outside`, `${root}/link`);
    await new Promise((resolve) => setTimeout(resolve, FRESH_MS + 10));
    assert.equal(new FolderGuard(root).enter(`${root}/link/b`), "bad");
    await Deno.writeTextFile(`${root}/a/new.txt`, "x");
    assert.equal(new FolderGuard(root).enter(`${root}/a/b`), "fresh");
    await new Promise((resolve) => setTimeout(resolve, FRESH_MS + 10));
    assert.equal(new FolderGuard(root).enter(`${root}/a/b`), "ok");
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("folder guard: isUnder compares whole segments", () => {
  assert.equal(isUnder("/r/a/b", "/r/a"), true);
  assert.equal(isUnder("/r/a", "/r/a"), true);
  assert.equal(isUnder("/r/ab", "/r/a"), false);
  assert.equal(isUnder("/x", "/"), true);
});
