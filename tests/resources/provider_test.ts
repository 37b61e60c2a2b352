import assert from "node:assert/strict";
import { defaultConfig } from "../../lib/config.ts";
import type { Resource } from "../../lib/resources/resource.ts";
import { RpcError } from "../../lib/jsonrpc/errors.ts";
import { createResourceProvider } from "../../lib/resources/provider.ts";
import { limitText } from "../../lib/byte_sizes.ts";
import { pathToFileUri } from "../../lib/workspace/uri.ts";
import { makeTree, openWorkspaceAt } from "../helpers/fixture.ts";

const signal = new AbortController().signal;

function provider(
  root: string,
  options: { pageSize?: number; maxReadBytes?: number } = {},
) {
  const config = {
    ...defaultConfig(),
    ...(options.maxReadBytes ? { maxReadBytes: options.maxReadBytes } : {}),
  };
  return createResourceProvider(openWorkspaceAt(root), config, {
    pageSize: options.pageSize,
  });
}

async function listAll(
  p: ReturnType<typeof provider>,
): Promise<{ names: string[]; pages: number }> {
  const names: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await p.list(cursor, signal);
    names.push(...page.resources.map((r) => r.name));
    cursor = page.nextCursor;
    pages++;
  } while (cursor !== undefined);
  return { names, pages };
}

async function rpcError(promise: Promise<unknown>): Promise<RpcError> {
  try {
    await promise;
  } catch (e) {
    if (e instanceof RpcError) return e;
    throw e;
  }
  assert.fail("no RpcError");
}

Deno.test("resources/list: one Resource per served file with uri, name, mimeType, size in that order", async () => {
  const t = await makeTree({ "src/main.ts": "let x = 1;\n", "sp ace é.md": "# t", ".env": "K=1" });
  try {
    const root = await Deno.realPath(t.root);
    const page = await provider(t.root).list(undefined, signal);
    assert.deepEqual(page, {
      resources: [
        {
          uri: `file://${root}/sp%20ace%20%C3%A9.md`,
          name: "sp ace é.md",
          mimeType: "text/markdown",
          size: 3,
        },
        {
          uri: `file://${root}/src/main.ts`,
          name: "src/main.ts",
          mimeType: "text/typescript",
          size: 11,
        },
      ],
    });
    assert.deepEqual(Object.keys(page.resources[0]), ["uri", "name", "mimeType", "size"]);
  } finally {
    await t.dispose();
  }
});

Deno.test("resources/list: pages by pageSize with nextCursor only while more exist", async () => {
  const t = await makeTree({ "a": "", "b": "", "c": "", "d/e": "", "d/f": "" });
  try {
    const p = provider(t.root, { pageSize: 2 });
    const first = await p.list(undefined, signal);
    assert.deepEqual(first.resources.map((r) => r.name), ["a", "b"]);
    assert.equal(typeof first.nextCursor, "string");
    const second = await p.list(first.nextCursor, signal);
    assert.deepEqual(second.resources.map((r) => r.name), ["c", "d/e"]);
    const third = await p.list(second.nextCursor, signal);
    assert.deepEqual(third, { resources: [third.resources[0]] });
    assert.equal(third.resources[0].name, "d/f");
  } finally {
    await t.dispose();
  }
});

Deno.test("resources/list: no nextCursor when the last page is exactly full", async () => {
  const t = await makeTree({ "a": "", "b": "" });
  try {
    const page = await provider(t.root, { pageSize: 2 }).list(undefined, signal);
    assert.equal(page.resources.length, 2);
    assert.equal("nextCursor" in page, false);
  } finally {
    await t.dispose();
  }
});

Deno.test("resources/list: forged, altered and foreign cursors are -32602 Invalid cursor", async () => {
  const t = await makeTree({ "a": "", "b": "", "c": "" });
  try {
    const p = provider(t.root, { pageSize: 1 });
    const { nextCursor } = await p.list(undefined, signal);
    assert.ok(nextCursor);
    const [payload, mac] = nextCursor.split(".");
    const forged = `${btoa("b").replace(/=+$/, "")}.${mac}`;
    for (
      const bad of [
        "",
        "x",
        "a.b",
        forged,
        `${payload}.${mac.slice(1)}A`,
        `${payload}x.${mac}`,
        "é".repeat(20_000),
      ]
    ) {
      const e = await rpcError(p.list(bad, signal));
      assert.deepEqual(e.toJSON(), { code: -32602, message: "Invalid cursor" }, bad.slice(0, 20));
    }
  } finally {
    await t.dispose();
  }
});

Deno.test("resources/list: a page resumes after the cursor's path, whatever changed before it", async () => {
  const t = await makeTree({ "b": "", "c": "", "d": "" });
  try {
    const p = provider(t.root, { pageSize: 2 });
    const first = await p.list(undefined, signal);
    assert.deepEqual(first.resources.map((r) => r.name), ["b", "c"]);
    await Deno.writeTextFile(`${t.root}/a`, "");
    await Deno.remove(`${t.root}/c`);
    const second = await p.list(first.nextCursor, signal);
    assert.deepEqual(second.resources.map((r) => r.name), ["d"]);
  } finally {
    await t.dispose();
  }
});

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

Deno.test("resources/list: no path twice, and every path that exists throughout exactly once, under churn", async () => {
  for (let seed = 1; seed <= 8; seed++) {
    // Seeds 6 to 8 resume every page afresh from its cursor (a new provider keeps no walk).
    const fresh = seed >= 6;
    const rand = random(seed);
    const tree: Record<string, string> = {};
    const names = () => `${"abcdef"[Math.floor(rand() * 6)]}${Math.floor(rand() * 4)}`;
    for (let i = 0; i < 60; i++) tree[`${names()}/${names()}/${names()}`] = "";
    const t = await makeTree(tree);
    try {
      const pageSize = 1 + Math.floor(rand() * 7);
      let p = provider(t.root, { pageSize });
      const initial = new Set((await listAll(p)).names);
      const removed = new Set<string>();
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        if (fresh) {
          p.close();
          p = provider(t.root, { pageSize });
        }
        const page = await p.list(cursor, signal);
        seen.push(...page.resources.map((r) => r.name));
        cursor = page.nextCursor;
        // Churn between pages: add new files, delete existing ones.
        for (let k = 0; k < 3; k++) {
          const path = `${names()}/${names()}/${names()}`;
          if (rand() < 0.5) {
            if (initial.has(path) && !removed.has(path)) {
              removed.add(path);
              await Deno.remove(`${t.root}/${path}`);
            }
          } else if (!initial.has(path)) {
            await Deno.mkdir(`${t.root}/${path.slice(0, path.lastIndexOf("/"))}`, {
              recursive: true,
            });
            await Deno.writeTextFile(`${t.root}/${path}`, "");
          }
        }
      } while (cursor !== undefined);
      assert.equal(new Set(seen).size, seen.length, `seed ${seed}: a path appeared twice`);
      const seenSet = new Set(seen);
      for (const path of initial) {
        if (!removed.has(path)) assert.ok(seenSet.has(path), `seed ${seed}: ${path} missing`);
      }
    } finally {
      await t.dispose();
    }
  }
});

Deno.test("resources/list: paging through 2500 files with the default page size gives each once, in walk order", async () => {
  const tree: Record<string, string> = {};
  for (let i = 0; i < 2500; i++) tree[`d${i % 7}/f${i}`] = "";
  const t = await makeTree(tree);
  try {
    const p = createResourceProvider(openWorkspaceAt(t.root), defaultConfig());
    const { names, pages } = await listAll(p as ReturnType<typeof provider>);
    assert.equal(pages, 3);
    const walked = [...openWorkspaceAt(t.root).walk("")].map((e) => e.rel);
    assert.deepEqual(names, walked);
  } finally {
    await t.dispose();
  }
});

Deno.test("resources/list: no workspace lists nothing", async () => {
  const p = createResourceProvider(null, defaultConfig());
  assert.deepEqual(await p.list(undefined, signal), { resources: [] });
  assert.deepEqual(p.templates(), []);
});

Deno.test("resources/templates/list: one file template under the root", async () => {
  const t = await makeTree({});
  try {
    const [template, ...rest] = provider(t.root).templates();
    assert.equal(rest.length, 0);
    assert.equal(template.uriTemplate, `${pathToFileUri(await Deno.realPath(t.root))}/{+path}`);
    assert.deepEqual(Object.keys(template), ["uriTemplate", "name", "title", "description"]);
  } finally {
    await t.dispose();
  }
});

Deno.test("resources/read: a text file is text with its MIME type, echoing the client's uri", async () => {
  const t = await makeTree({ "src/main.ts": "const é = 1;\n" });
  try {
    const uri = `file://localhost${t.root}/src/main.ts`;
    assert.deepEqual(await provider(t.root).read(uri, signal), {
      contents: [{ uri, mimeType: "text/typescript", text: "const é = 1;\n" }],
    });
  } finally {
    await t.dispose();
  }
});

Deno.test("resources/read: the uri from resources/list reads back, spaces and accents included", async () => {
  const t = await makeTree({ "sp ace é.txt": "hi", "100%#?.txt": "pct" });
  try {
    const p = provider(t.root);
    const { resources } = await p.list(undefined, signal);
    for (const r of resources as Resource[]) {
      const { contents } = await p.read(r.uri, signal);
      assert.equal(contents[0].uri, r.uri);
      assert.ok("text" in contents[0]);
    }
  } finally {
    await t.dispose();
  }
});

Deno.test("resources/read: binary files (NUL or invalid UTF-8) are base64 blobs", async () => {
  const t = await makeTree({
    "nul.txt": new Uint8Array([104, 0, 105]),
    "latin1.txt": new Uint8Array([0xe9, 0x74, 0xe9]),
    "img.png": new Uint8Array([0x89, 0x50, 0x4e, 0x47]),
    "blob": new Uint8Array([0xff, 0xfe]),
  });
  try {
    const p = provider(t.root);
    const read = async (name: string) =>
      (await p.read(`file://${t.root}/${name}`, signal)).contents[0];
    assert.deepEqual(await read("nul.txt"), {
      uri: `file://${t.root}/nul.txt`,
      mimeType: "text/plain",
      blob: "aABp",
    });
    assert.ok("blob" in await read("latin1.txt"));
    assert.deepEqual(await read("img.png"), {
      uri: `file://${t.root}/img.png`,
      mimeType: "image/png",
      blob: "iVBORw==",
    });
    assert.equal((await read("blob")).mimeType, "application/octet-stream");
  } finally {
    await t.dispose();
  }
});

Deno.test("resources/read: an empty file is empty text", async () => {
  const t = await makeTree({ "empty": "" });
  try {
    const { contents } = await provider(t.root).read(`file://${t.root}/empty`, signal);
    assert.deepEqual(contents, [{
      uri: `file://${t.root}/empty`,
      mimeType: "text/plain",
      text: "",
    }]);
  } finally {
    await t.dispose();
  }
});

Deno.test("resources/read: over the size cap is -32602 Resource too large", async () => {
  const t = await makeTree({ "big.txt": "x".repeat(2000) });
  try {
    const e = await rpcError(
      provider(t.root, { maxReadBytes: 1024 }).read(`file://${t.root}/big.txt`, signal),
    );
    assert.deepEqual(e.toJSON(), {
      code: -32602,
      message:
        "Resource too large: 2000 bytes exceeds the 1 KiB limit of --max-read-bytes; use read_file with offset and limit",
    });
  } finally {
    await t.dispose();
  }
});

Deno.test("resources/read: a binary file whose base64 would pass the 6 MiB message cap is refused", async () => {
  // 4.6 MiB of bytes are 6.1 MiB of base64.
  const bytes = new Uint8Array(4.6 * 1024 * 1024);
  bytes[0] = 0;
  bytes[1] = 0xff;
  const t = await makeTree({ "blob.bin": bytes, "ok.bin": bytes.subarray(0, 4 * 1024 * 1024) });
  try {
    const e = await rpcError(provider(t.root).read(`file://${t.root}/blob.bin`, signal));
    assert.equal(e.code, -32602);
    assert.equal(
      e.message,
      `Resource too large: ${bytes.length} bytes (${
        Math.ceil(bytes.length / 3) * 4
      } once encoded) would pass the 6 MiB limit of one message; use read_file with offset and limit`,
    );
    // 4 MiB of bytes (5.3 MiB of base64) fit.
    const { contents } = await provider(t.root).read(`file://${t.root}/ok.bin`, signal);
    assert.equal((contents[0] as { blob: string }).blob.length, Math.ceil(4 * 1024 * 1024 / 3) * 4);
  } finally {
    await t.dispose();
  }
});

Deno.test("resources/read: text that JSON escapes grow past the message cap is refused", async () => {
  // 3.5 MiB of quotes and backslashes are 7 MiB inside a JSON string.
  const text = '"\\'.repeat(1.75 * 1024 * 1024);
  const t = await makeTree({ "quotes.txt": text, "plain.txt": "x".repeat(5.5 * 1024 * 1024) });
  try {
    const e = await rpcError(provider(t.root).read(`file://${t.root}/quotes.txt`, signal));
    assert.equal(e.code, -32602);
    assert.match(
      e.message,
      /^Resource too large: 3670016 bytes \(7340032 once encoded\) would pass/,
    );
    const { contents } = await provider(t.root).read(`file://${t.root}/plain.txt`, signal);
    assert.equal((contents[0] as { text: string }).text.length, 5.5 * 1024 * 1024);
    const e2 = await rpcError(
      provider(t.root).read(`file://${t.root}/plain.txt`, signal).then(() =>
        provider(t.root, { maxReadBytes: 1024 }).read(`file://${t.root}/plain.txt`, signal)
      ),
    );
    assert.match(e2.message, /--max-read-bytes/);
  } finally {
    await t.dispose();
  }
});

Deno.test("resources/read: the default cap reads 10 MiB in the message", () => {
  assert.equal(limitText(defaultConfig().maxReadBytes), "10 MiB");
  assert.equal(limitText(1536 * 1024), "1.5 MiB");
});

Deno.test("resources/read: outside the root is -32002 with data.uri and no reason", async () => {
  const t = await makeTree({ "a.txt": "" });
  try {
    await Deno.mkdir(`${t.base}/root_evil`);
    await Deno.writeTextFile(`${t.base}/root_evil/secret.txt`, "stolen");
    const p = provider(t.root);
    for (
      const uri of [
        `file://${t.base}/root_evil/secret.txt`,
        `file://${t.root}/../root_evil/secret.txt`,
        "file:///etc/passwd",
        "file:///nonexistent/x",
        "https://example.com/a.txt",
        `file://other-host${t.root}/a.txt`,
        "a.txt",
      ]
    ) {
      const e = await rpcError(p.read(uri, signal));
      assert.deepEqual(
        e.toJSON(),
        { code: -32002, message: "Resource not found", data: { uri } },
        uri,
      );
    }
  } finally {
    await t.dispose();
  }
});

Deno.test("resources/read: inside the root, -32002 names the rule in data.reason", async () => {
  const t = await makeTree({
    ".env": "K",
    "src/a.ts": "",
    ".git/config": "",
    ".ignore": "*.log\n",
    "x.log": "",
  });
  try {
    await Deno.writeTextFile(`${t.base}/outside.txt`, "stolen");
    await Deno.symlink(`${t.base}/outside.txt`, `${t.root}/out_link`);
    const p = provider(t.root);
    const cases: [string, string][] = [
      [".env", "secret"],
      ["src", "is-a-directory"],
      ["nope.ts", "missing"],
      [".git/config", "git"],
      ["x.log", "ignored"],
      ["out_link", "missing"],
    ];
    for (const [rel, reason] of cases) {
      const uri = `file://${t.root}/${rel}`;
      const e = await rpcError(p.read(uri, signal));
      assert.deepEqual(e.toJSON(), {
        code: -32002,
        message: "Resource not found",
        data: { uri, reason },
      }, rel);
    }
  } finally {
    await t.dispose();
  }
});

Deno.test("resources/read: no workspace is -32002", async () => {
  const e = await rpcError(createResourceProvider(null, defaultConfig()).read("file:///a", signal));
  assert.deepEqual(e.toJSON(), {
    code: -32002,
    message: "Resource not found",
    data: { uri: "file:///a" },
  });
});

Deno.test("resources/list: exactly once under churn in big folders whose listings are reused", async () => {
  const rand = random(42);
  const tree: Record<string, string> = {};
  for (let i = 0; i < 80; i++) tree[`big/f${String(i).padStart(3, "0")}`] = "";
  for (let i = 0; i < 40; i++) tree[`big/sub/g${String(i).padStart(3, "0")}`] = "";
  const t = await makeTree(tree);
  try {
    const p = provider(t.root, { pageSize: 7 });
    const initial = new Set((await listAll(p)).names);
    const removed = new Set<string>();
    const seen: string[] = [];
    let cursor: string | undefined;
    let added = 0;
    do {
      const page = await p.list(cursor, signal);
      seen.push(...page.resources.map((r) => r.name));
      cursor = page.nextCursor;
      const victim = [...initial][Math.floor(rand() * initial.size)];
      if (!removed.has(victim)) {
        removed.add(victim);
        await Deno.remove(`${t.root}/${victim}`);
      }
      await Deno.writeTextFile(`${t.root}/big/new${added++}`, "");
    } while (cursor !== undefined);
    assert.equal(new Set(seen).size, seen.length, "a path appeared twice");
    const seenSet = new Set(seen);
    for (const path of initial) {
      if (!removed.has(path)) assert.ok(seenSet.has(path), `${path} missing`);
    }
  } finally {
    await t.dispose();
  }
});

Deno.test("resources/list: after warm, the first page is the same as without", async () => {
  const t = await makeTree({ "a": "", "b/c": "", "d": "" });
  try {
    const cold = await provider(t.root, { pageSize: 2 }).list(undefined, signal);
    const p = provider(t.root, { pageSize: 2 });
    p.warm();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const warm = await p.list(undefined, signal);
    assert.deepEqual(warm.resources, cold.resources);
    assert.deepEqual((await p.list(warm.nextCursor, signal)).resources.map((r) => r.name), ["d"]);
    p.close();
  } finally {
    await t.dispose();
  }
});

Deno.test("resources/list: an aborted request throws and the next listing still works", async () => {
  const t = await makeTree({ "a": "", "b": "" });
  try {
    const p = provider(t.root, { pageSize: 1 });
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(p.list(undefined, controller.signal));
    assert.deepEqual((await p.list(undefined, signal)).resources.map((r) => r.name), ["a"]);
    p.close();
  } finally {
    await t.dispose();
  }
});

Deno.test("resources/list: a page holds 1000 resources by default", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 1001; i++) files[`f${String(i).padStart(4, "0")}.txt`] = "";
  const t = await makeTree(files);
  try {
    const p = createResourceProvider(openWorkspaceAt(t.root), defaultConfig());
    const first = await p.list(undefined, signal);
    assert.equal(first.resources.length, 1000);
    assert.equal(first.resources.at(-1)!.name, "f0999.txt");
    const second = await p.list(first.nextCursor, signal);
    assert.deepEqual(second.resources.map((r) => r.name), ["f1000.txt"]);
    assert.equal(second.nextCursor, undefined);
    p.close();
  } finally {
    await t.dispose();
  }
});

/** A Deno file-system error as the runtime throws it: its class and its errno `code`. */
function fsError(code: string, message: string): Error {
  return Object.assign(new Deno.errors.PermissionDenied(message), { code });
}

Deno.test("resources/read: a file-system failure while opening is -32002 with the code as reason, not an internal error", async () => {
  const tree = await makeTree({ "a.txt": "alpha\n" });
  try {
    for (const code of ["EACCES", "EMFILE", "EIO", "ENFILE"]) {
      const ws = openWorkspaceAt(tree.root);
      ws.openFile = () => Promise.reject(fsError(code, `open '${tree.root}/a.txt'`));
      const p = createResourceProvider(ws, defaultConfig());
      const uri = pathToFileUri(`${tree.root}/a.txt`);
      const error = await rpcError(p.read(uri, signal));
      assert.deepEqual([error.code, error.message, error.data], [
        -32002,
        "Resource not found",
        { uri, reason: code },
      ]);
    }
  } finally {
    await tree.dispose();
  }
});

Deno.test("resources/read: a file-system failure while reading is -32002 with the code as reason", async () => {
  const tree = await makeTree({ "a.txt": "alpha\n" });
  try {
    const ws = openWorkspaceAt(tree.root);
    const real = ws.openFile.bind(ws);
    ws.openFile = async (rel: string) => {
      const opened = await real(rel);
      opened.file.close();
      const failing = {
        readSync: () => {
          throw Object.assign(new Error(`read '${opened.abs}'`), { code: "EIO" });
        },
        close: () => {},
      } as unknown as Deno.FsFile;
      return { ...opened, file: failing };
    };
    const p = createResourceProvider(ws, defaultConfig());
    const uri = pathToFileUri(`${tree.root}/a.txt`);
    const error = await rpcError(p.read(uri, signal));
    assert.deepEqual([error.code, error.data], [-32002, { uri, reason: "EIO" }]);
  } finally {
    await tree.dispose();
  }
});
