/**
 * edit_file and write_file below the tool layer (docs/tools.md "edit_file", "write_file"): read
 * before write, matching, the file's form, modes, atomicity and serialisation.
 */
import assert from "node:assert/strict";
import { editFile, writeFile } from "../../lib/edits/operations.ts";
import { type EditFixture, editFixture, LIMITS } from "./helpers.ts";
import { sh } from "../helpers/fixture.ts";
import { sweepStaleTemps } from "../../lib/edits/stale_temps.ts";

function edit(
  f: EditFixture,
  input: string,
  oldString: string,
  newString: string,
  more: { replaceAll?: boolean; dryRun?: boolean } = {},
) {
  return editFile(f.ws, f.edits, {
    input,
    oldString,
    newString,
    replaceAll: more.replaceAll ?? false,
    dryRun: more.dryRun ?? false,
  }, LIMITS);
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (e) {
    assert.ok(e instanceof Error);
    return e.message;
  }
  assert.fail("expected a refusal");
}

function editTest(
  name: string,
  tree: Record<string, string | Uint8Array>,
  fn: (f: EditFixture) => Promise<void>,
) {
  Deno.test(name, async () => {
    const f = await editFixture(tree);
    try {
      await fn(f);
    } finally {
      await f.dispose();
    }
  });
}

editTest(
  "edit: an unread file is refused naming the lines to read",
  { "a.ts": "x = 1\n" },
  async (f) => {
    const message = await refusal(edit(f, "a.ts", "1", "2"));
    assert.match(message, /^Read line 1 of a\.ts first \(read_file with offset=1 and limit=1\)/);
    assert.equal(f.text("a.ts"), "x = 1\n");
  },
);

editTest("edit: a file changed since it was read is refused", { "a.ts": "x = 1\n" }, async (f) => {
  await f.read("a.ts");
  Deno.writeTextFileSync(`${f.root}/a.ts`, "x = 5\n");
  assert.equal(
    await refusal(edit(f, "a.ts", "5", "6")),
    "a.ts changed since it was read; read it again",
  );
  await f.read("a.ts");
  await edit(f, "a.ts", "5", "6");
  assert.equal(f.text("a.ts"), "x = 6\n");
});

editTest("edit: consecutive edits need no re-read", { "a.ts": "a\nb\n" }, async (f) => {
  await f.read("a.ts");
  await edit(f, "a.ts", "a", "A");
  const second = await edit(f, "a.ts", "b", "B");
  assert.equal(f.text("a.ts"), "A\nB\n");
  const bytes = Deno.readFileSync(`${f.root}/a.ts`);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  assert.equal(second.sha256, Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join(""));
});

editTest(
  "edit: a unique match is replaced and the diff shows it",
  { "a.ts": "one\ntwo\nthree\n" },
  async (f) => {
    await f.read("a.ts");
    const r = await edit(f, "a.ts", "two", "2");
    assert.equal(r.replacements, 1);
    assert.equal(r.diff, "--- a/a.ts\n+++ b/a.ts\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three");
    assert.equal(f.text("a.ts"), "one\n2\nthree\n");
  },
);

editTest(
  "edit: an ambiguous match is refused with the line numbers",
  { "a.ts": "x\nfoo\nfoo\n" },
  async (f) => {
    await f.read("a.ts");
    const message = await refusal(edit(f, "a.ts", "foo", "bar"));
    assert.match(message, /occurs 2 times in a\.ts \(lines 2, 3\)/);
    assert.equal(f.text("a.ts"), "x\nfoo\nfoo\n");
  },
);

editTest(
  "edit: replace_all replaces every match and counts them",
  { "a.ts": "foo foo\nfoo\n" },
  async (f) => {
    await f.read("a.ts");
    const r = await edit(f, "a.ts", "foo", "bar", { replaceAll: true });
    assert.equal(r.replacements, 3);
    assert.equal(f.text("a.ts"), "bar bar\nbar\n");
  },
);

editTest(
  "edit: a miss is refused with the closest line",
  { "a.ts": "const value = 1;\nother\n" },
  async (f) => {
    await f.read("a.ts");
    const message = await refusal(edit(f, "a.ts", "const valeu = 1;", "x"));
    assert.match(message, /not found in a\.ts/);
    assert.ok(message.includes("     1\tconst value = 1;"), message);
  },
);

editTest("edit: old_string equal to new_string is refused", { "a.ts": "a\n" }, async (f) => {
  await f.read("a.ts");
  assert.match(await refusal(edit(f, "a.ts", "a", "a")), /are the same/);
});

editTest("edit: dry_run returns the diff and changes nothing", { "a.ts": "a\n" }, async (f) => {
  await f.read("a.ts");
  const info = Deno.statSync(`${f.root}/a.ts`);
  const r = await edit(f, "a.ts", "a", "b", { dryRun: true });
  assert.equal(r.written, false);
  assert.match(r.diff, /-a\n\+b/);
  assert.equal(f.text("a.ts"), "a\n");
  assert.equal(Deno.statSync(`${f.root}/a.ts`).ino, info.ino);
  const created = await edit(f, "new/b.ts", "", "x\n", { dryRun: true });
  assert.equal(created.created, true);
  assert.throws(() => Deno.statSync(`${f.root}/new`));
});

editTest(
  "edit: CRLF stays CRLF when LF strings are given",
  { "w.txt": "a\r\nb\r\nc\r\n" },
  async (f) => {
    await f.read("w.txt");
    await edit(f, "w.txt", "a\nb", "a\nB\nb2");
    assert.equal(f.text("w.txt"), "a\r\nB\r\nb2\r\nc\r\n");
  },
);

editTest(
  "edit: a BOM is kept and new_string ending the file with a newline adds it",
  { "b.txt": "\uFEFFfirst\nlast" },
  async (f) => {
    await f.read("b.txt");
    const r = await edit(f, "b.txt", "last", "final\n");
    assert.equal(f.text("b.txt"), "\uFEFFfirst\nfinal\n");
    assert.equal(
      r.diff,
      "--- a/b.txt\n+++ b/b.txt\n@@ -1,2 +1,2 @@\n first\n-last\n\\ No newline at end of file\n+final",
    );
    await edit(f, "b.txt", "first", "1st");
    assert.deepEqual([...Deno.readFileSync(`${f.root}/b.txt`).subarray(0, 3)], [0xef, 0xbb, 0xbf]);
  },
);

editTest(
  "edit: old_string ending the file with its newline and new_string without one removes it",
  { "c.txt": "a\nb\n" },
  async (f) => {
    await f.read("c.txt");
    await edit(f, "c.txt", "b\n", "b");
    assert.equal(f.text("c.txt"), "a\nb");
    await edit(f, "c.txt", "b", "b\n");
    assert.equal(f.text("c.txt"), "a\nb\n");
    await edit(f, "c.txt", "a\n", "A\n");
    assert.equal(f.text("c.txt"), "A\nb\n");
  },
);

editTest("edit: the file's mode is kept", { "run.sh": "echo hi\n" }, async (f) => {
  Deno.chmodSync(`${f.root}/run.sh`, 0o751);
  await f.read("run.sh");
  await edit(f, "run.sh", "hi", "ho");
  assert.equal(Deno.statSync(`${f.root}/run.sh`).mode! & 0o7777, 0o751);
});

editTest("edit: non-UTF-8 and binary files are refused", {
  "latin1.txt": new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]),
  "nul.txt": new Uint8Array([0x61, 0, 0x62]),
}, async (f) => {
  f.edits.reads.record(
    `${f.root}/latin1.txt`,
    { size: 5, mtimeMs: 0, sha256: "", lines: 1 },
    "all",
  );
  assert.match(await refusal(edit(f, "latin1.txt", "caf", "x")), /not valid UTF-8 text/);
  assert.match(await refusal(edit(f, "nul.txt", "a", "x")), /binary file/);
});

editTest(
  "edit: a file over --max-read-bytes is refused",
  { "big.txt": "x".repeat(200) },
  async (f) => {
    const message = await refusal(
      editFile(f.ws, f.edits, {
        input: "big.txt",
        oldString: "x",
        newString: "y",
        replaceAll: true,
        dryRun: false,
      }, { maxBytes: 100 }),
    );
    assert.match(message, /200 bytes, over the 100 bytes limit/);
  },
);

editTest("edit: an empty old_string creates a new file, and is refused on a non-empty one", {
  "a.ts": "a\n",
}, async (f) => {
  const r = await edit(f, "src/deep/new.ts", "", "export {};\n");
  assert.equal(r.created, true);
  assert.equal(f.text("src/deep/new.ts"), "export {};\n");
  // 0644 minus umask: never more than rw-r--r--.
  assert.equal(Deno.statSync(`${f.root}/src/deep/new.ts`).mode! & 0o777 & ~0o644, 0);
  await f.read("a.ts");
  assert.match(await refusal(edit(f, "a.ts", "", "x")), /old_string is empty but the file is not/);
  assert.match(await refusal(edit(f, "missing.ts", "a", "b")), /no such file.*empty old_string/);
});

editTest("edit: concurrent edits of one file lose no update", {
  "n.txt": Array.from({ length: 20 }, (_, i) => `v${i}=0`).join("\n") + "\n",
}, async (f) => {
  await f.read("n.txt");
  await Promise.all(Array.from({ length: 20 }, (_, i) => edit(f, "n.txt", `v${i}=0`, `v${i}=1`)));
  assert.equal(f.text("n.txt"), Array.from({ length: 20 }, (_, i) => `v${i}=1`).join("\n") + "\n");
});

editTest("write: creates a file with its folders, then replaces it after a read", {}, async (f) => {
  const created = await writeFile(f.ws, f.edits, { input: "a/b/c.md", content: "# hi\n" }, LIMITS);
  assert.deepEqual([created.created, created.bytes, created.diff], [true, 5, undefined]);
  // The write counts as a read: the next write needs none.
  const replaced = await writeFile(f.ws, f.edits, { input: "a/b/c.md", content: "# ho\n" }, LIMITS);
  assert.equal(replaced.created, false);
  assert.match(replaced.diff!, /-# hi\n\+# ho/);
  assert.equal(f.text("a/b/c.md"), "# ho\n");
});

editTest("write: replacing an unread file is refused; a CRLF file stays CRLF", {
  "w.txt": "a\r\nb\r\n",
}, async (f) => {
  assert.match(
    await refusal(writeFile(f.ws, f.edits, { input: "w.txt", content: "x\n" }, LIMITS)),
    /^Read w\.txt first/,
  );
  await f.read("w.txt");
  await writeFile(f.ws, f.edits, { input: "w.txt", content: "x\ny\n" }, LIMITS);
  assert.equal(f.text("w.txt"), "x\r\ny\r\n");
});

editTest(
  "write: a hard link to an outside file keeps its content",
  { "in.txt": "x" },
  async (f) => {
    const outside = `${f.base}/outside.txt`;
    Deno.writeTextFileSync(outside, "outside content\n");
    Deno.linkSync(outside, `${f.root}/linked.txt`);
    await f.read("linked.txt");
    await edit(f, "linked.txt", "outside", "changed");
    assert.equal(Deno.readTextFileSync(outside), "outside content\n");
    assert.equal(f.text("linked.txt"), "changed content\n");
  },
);

editTest("write: no temp file is left behind", { "a.txt": "a\n" }, async (f) => {
  await f.read("a.txt");
  await edit(f, "a.txt", "a", "b");
  await writeFile(f.ws, f.edits, { input: "n.txt", content: "n" }, LIMITS);
  const names = [...Deno.readDirSync(f.root)].map((e) => e.name).sort();
  assert.deepEqual(names, ["a.txt", "n.txt"]);
});

editTest("write: a temp file left by a crash is never served", { "a.txt": "a\n" }, async (f) => {
  await sh(`echo partial > .shipcode-write-999999-0123456789abcdef.tmp`, f.root);
  assert.deepEqual([...f.ws.walk("")].map((e) => e.rel), ["a.txt"]);
  assert.throws(() => f.ws.resolve(".shipcode-write-999999-0123456789abcdef.tmp"), /no such file/);
  const message = await refusal(
    writeFile(
      f.ws,
      f.edits,
      { input: ".shipcode-write-1-0123456789abcdef.tmp", content: "x" },
      LIMITS,
    ),
  );
  assert.match(message, /temporary files/);
});

editTest("write: stale temp files are removed by the start sweep, live ones are not", {
  "a.txt": "a\n",
  "sub/b.txt": "b\n",
}, async (f) => {
  const dead = ".shipcode-write-4194303-0123456789abcdef.tmp";
  const live = `.shipcode-write-${Deno.pid}-0123456789abcdef.tmp`;
  Deno.writeTextFileSync(`${f.root}/sub/${dead}`, "partial");
  // A writer in flight holds the lock on its temp file.
  const writer = Deno.openSync(`${f.root}/${live}`, { write: true, createNew: true });
  writer.lockSync(true);
  try {
    assert.equal(await sweepStaleTemps(f.ws), 1);
    assert.deepEqual([...Deno.readDirSync(`${f.root}/sub`)].map((e) => e.name), ["b.txt"]);
    assert.ok(Deno.statSync(`${f.root}/${live}`).isFile);
  } finally {
    writer.close();
  }
});

editTest("write: rewriting a large file whole gives one bounded hunk, not a crash", {
  "big.txt": "a\n".repeat(200_000),
}, async (f) => {
  await f.read("big.txt");
  const r = await writeFile(
    f.ws,
    f.edits,
    { input: "big.txt", content: "b\n".repeat(200_000) },
    LIMITS,
  );
  assert.match(r.diff!, /^--- a\/big\.txt\n\+\+\+ b\/big\.txt\n@@ -1,200000 \+1,200000 @@\n-a\n/);
  assert.equal(f.text("big.txt"), "b\n".repeat(200_000));
});

editTest(
  "write: two concurrent creates of one new file: one creates, the other replaces it",
  {},
  async (f) => {
    const [a, b] = await Promise.all([
      writeFile(f.ws, f.edits, { input: "n.txt", content: "first\n" }, LIMITS),
      writeFile(f.ws, f.edits, { input: "n.txt", content: "second\n" }, LIMITS),
    ]);
    assert.deepEqual([a.created, b.created], [true, false]);
    assert.equal(f.text("n.txt"), "second\n");
  },
);
