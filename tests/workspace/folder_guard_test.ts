/** The folder guard (lib/workspace/folder_guard.ts): what it records and what it catches. */
import assert from "node:assert/strict";
import { FolderGuard, FRESH_MS, isUnder } from "../../lib/workspace/folder_guard.ts";
import { Workspace } from "../../lib/workspace/workspace.ts";

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

Deno.test("folder guard: a walk's record of a listed file's folder holds only until the file is swapped for a link", async () => {
  const base = await settled();
  try {
    const root = `${base}/root`;
    await Deno.writeTextFile(`${root}/a/b/plain.txt`, "inside\n");
    await Deno.writeTextFile(`${base}/outside/secret.txt`, "outside\n");
    await Deno.symlink(`${root}/a/b/plain.txt`, `${root}/a/linked.txt`);
    await new Promise((resolve) => setTimeout(resolve, FRESH_MS + 10));
    const ws = Workspace.openSync({ root, noIgnore: true, allowSecrets: false });
    const entries = [...ws.walk("", { folders: true })];
    const plain = entries.find((e) => e.rel === "a/b/plain.txt")!;
    const linked = entries.find((e) => e.rel === "a/linked.txt")!;
    assert.ok(plain.folder !== undefined, "a plain file carries its folder's record");
    assert.equal(linked.folder, undefined, "a file reached through a link carries none");
    const unchanged = new FolderGuard(root);
    assert.equal(unchanged.enter(`${root}/a/b`), "ok");
    assert.ok(unchanged.matches(`${root}/a/b`, plain.folder!));
    // Swapped for a link to an outside file: the folder's record no longer matches, so the file is
    // opened with its own lstat (which refuses the link), never on the walk's word.
    await Deno.remove(`${root}/a/b/plain.txt`);
    await Deno.symlink(`${base}/outside/secret.txt`, `${root}/a/b/plain.txt`);
    await new Promise((resolve) => setTimeout(resolve, FRESH_MS + 10));
    const swapped = new FolderGuard(root);
    assert.equal(swapped.enter(`${root}/a/b`), "ok");
    assert.equal(swapped.matches(`${root}/a/b`, plain.folder!), false);
    assert.equal(ws.openWalkedSync(plain.abs), null);
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
