import assert from "node:assert/strict";
import { WorkspaceError } from "../../lib/workspace/workspace.ts";
import { makeTree, openWorkspaceAt, sh } from "../helpers/fixture.ts";

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

Deno.test("workspace.readFile: reads a whole file, sync and async alike", async () => {
  const t = await makeTree({ "src/a.ts": "hello", "empty.txt": "" });
  try {
    const ws = openWorkspaceAt(t.root);
    assert.equal(text(await ws.readFile("src/a.ts")), "hello");
    assert.equal(text(ws.readFileSync("src/a.ts")), "hello");
    assert.equal((await ws.readFile("empty.txt")).length, 0);
  } finally {
    await t.dispose();
  }
});

Deno.test("workspace.readFile: maxBytes reads only a prefix", async () => {
  const t = await makeTree({ "a.txt": "0123456789" });
  try {
    const ws = openWorkspaceAt(t.root);
    assert.equal(text(await ws.readFile("a.txt", { maxBytes: 4 })), "0123");
    assert.equal(text(ws.readFileSync("a.txt", { maxBytes: 4 })), "0123");
    assert.equal(text(ws.readFileSync("a.txt", { maxBytes: 100 })), "0123456789");
  } finally {
    await t.dispose();
  }
});

Deno.test("workspace.readFile: reads binary files byte for byte", async () => {
  const bytes = new Uint8Array([0, 255, 1, 0xc3, 0x28]);
  const t = await makeTree({ "b.bin": bytes });
  try {
    assert.deepEqual(await openWorkspaceAt(t.root).readFile("b.bin"), bytes);
  } finally {
    await t.dispose();
  }
});

Deno.test("workspace.readFile: refuses a folder as is-a-directory", async () => {
  const t = await makeTree({ "src/a.ts": "" });
  try {
    const ws = openWorkspaceAt(t.root);
    await assert.rejects(ws.readFile("src"), { reason: "is-a-directory" });
    assert.throws(() => ws.readFileSync("."), { reason: "is-a-directory" });
  } finally {
    await t.dispose();
  }
});

Deno.test("workspace.readFile: refuses a FIFO without blocking on it", async () => {
  const t = await makeTree({});
  try {
    await sh("mkfifo pipe && ln -s pipe pipe_link", t.root);
    const ws = openWorkspaceAt(t.root);
    await assert.rejects(ws.readFile("pipe"), { reason: "not-a-file" });
    assert.throws(() => ws.readFileSync("pipe_link"), { reason: "not-a-file" });
    await assert.rejects(ws.openFile("pipe"), { reason: "not-a-file" });
  } finally {
    await t.dispose();
  }
});

Deno.test("workspace.readFile: refuses outside, secret and symlink-out paths", async () => {
  const t = await makeTree({ ".env": "K=1" });
  try {
    await Deno.writeTextFile(`${t.base}/outside.txt`, "stolen");
    await Deno.symlink(`${t.base}/outside.txt`, `${t.root}/link`);
    const ws = openWorkspaceAt(t.root);
    await assert.rejects(ws.readFile("../outside.txt"), { reason: "outside" });
    await assert.rejects(ws.readFile(".env"), { reason: "secret" });
    await assert.rejects(ws.readFile("link"), { reason: "missing" });
    await assert.rejects(ws.readFile("link"), {
      message: 'Cannot read "link": no such file or folder in the workspace',
    });
  } finally {
    await t.dispose();
  }
});

Deno.test("workspace.openFile: returns a handle with the size and mtime of the checked file", async () => {
  const t = await makeTree({ "a.txt": "abc" });
  try {
    const { file, size, mtimeMs, rel } = await openWorkspaceAt(t.root).openFile(`${t.root}/a.txt`);
    try {
      assert.equal(size, 3);
      assert.ok(mtimeMs > 0);
      assert.equal(rel, "a.txt");
    } finally {
      file.close();
    }
  } finally {
    await t.dispose();
  }
});

Deno.test("workspace.readFile: a file swapped after the check is refused by the identity guard", async () => {
  const t = await makeTree({ "a.txt": "inside" });
  try {
    await Deno.writeTextFile(`${t.base}/outside.txt`, "stolen");
    const ws = openWorkspaceAt(t.root);
    // Swap the file for a symlink out between the checks and the open.
    const original = Deno.open;
    Deno.open = async (path, options) => {
      await Deno.remove(`${t.root}/a.txt`);
      await Deno.symlink(`${t.base}/outside.txt`, `${t.root}/a.txt`);
      return original(path, options);
    };
    try {
      await assert.rejects(ws.readFile("a.txt"), WorkspaceError);
    } finally {
      Deno.open = original;
    }
  } finally {
    await t.dispose();
  }
});

Deno.test("workspace.readFile: a file in a folder written a moment ago is read at once", async () => {
  const t = await makeTree({ "d/a.txt": "first" });
  try {
    const ws = openWorkspaceAt(t.root);
    // A write in the folder (as an edit's rename does) leaves its mtime within the clock tick.
    await Deno.writeTextFile(`${t.root}/d/b.txt`, "new");
    assert.equal(text(await ws.readFile("d/a.txt")), "first");
    await Deno.writeTextFile(`${t.root}/d/c.txt`, "new");
    assert.equal(text(ws.readFileSync("d/a.txt")), "first");
  } finally {
    await t.dispose();
  }
});

Deno.test("workspace.readFile: a folder written a moment ago and swapped for a link out is refused", async () => {
  const t = await makeTree({ "d/a.txt": "inside" });
  try {
    await Deno.mkdir(`${t.base}/out`);
    await Deno.writeTextFile(`${t.base}/out/a.txt`, "stolen");
    const ws = openWorkspaceAt(t.root);
    await Deno.writeTextFile(`${t.root}/d/b.txt`, "fresh");
    const original = Deno.open;
    Deno.open = async (path, options) => {
      await Deno.rename(`${t.root}/d`, `${t.root}/d-old`);
      await Deno.symlink(`${t.base}/out`, `${t.root}/d`);
      return original(path, options);
    };
    try {
      await assert.rejects(ws.readFile("d/a.txt"), WorkspaceError);
    } finally {
      Deno.open = original;
    }
  } finally {
    await t.dispose();
  }
});

Deno.test("workspace.readWalkedSync: reads a walked file into the caller's buffer", async () => {
  const t = await makeTree({ "src/a.ts": "hello walk", "big.txt": "x".repeat(100) });
  try {
    const ws = openWorkspaceAt(t.root);
    const scratch = new Uint8Array(64);
    const entries = [...ws.walk("")].filter((e) => !e.isDir);
    const small = entries.find((e) => e.rel === "src/a.ts")!;
    const got = ws.readWalkedSync(small.abs, scratch)!;
    assert.equal(text(got), "hello walk");
    assert.equal(got.buffer, scratch.buffer);
    const big = ws.readWalkedSync(entries.find((e) => e.rel === "big.txt")!.abs, scratch)!;
    assert.equal(text(big), "x".repeat(100));
    assert.notEqual(big.buffer, scratch.buffer);
  } finally {
    await t.dispose();
  }
});

Deno.test("workspace.readWalkedSync: a walked file swapped for a symlink to an outside file reads nothing", async () => {
  const t = await makeTree({ "a.txt": "inside" });
  const outside = await Deno.makeTempFile({ prefix: "shipcode-outside-" });
  await Deno.writeTextFile(outside, "outside secret");
  try {
    const ws = openWorkspaceAt(t.root);
    const entry = [...ws.walk("")].find((e) => e.rel === "a.txt")!;
    await Deno.remove(entry.abs);
    await Deno.symlink(outside, entry.abs);
    assert.equal(ws.readWalkedSync(entry.abs, new Uint8Array(64)), null);
    assert.equal(ws.readWalkedSync(outside, new Uint8Array(64)), null);
    const name = outside.slice(outside.lastIndexOf("/") + 1);
    await Deno.copyFile(outside, `${t.base}/${name}`);
    assert.equal(ws.readWalkedSync(`${t.root}/../${name}`, new Uint8Array(64)), null);
  } finally {
    await t.dispose();
    await Deno.remove(outside);
  }
});

Deno.test("workspace.readWalkedSync: a file that vanished since the walk reads nothing", async () => {
  const t = await makeTree({ "gone.txt": "soon gone" });
  try {
    const ws = openWorkspaceAt(t.root);
    const entry = [...ws.walk("")].find((e) => e.rel === "gone.txt")!;
    await Deno.remove(entry.abs);
    assert.equal(ws.readWalkedSync(entry.abs, new Uint8Array(64)), null);
  } finally {
    await t.dispose();
  }
});
