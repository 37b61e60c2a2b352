/** The stored folder table (lib/index/folder_table.ts): what makes a folder trusted or not. */
import assert from "node:assert/strict";
import {
  decodeFolders,
  encodeFolders,
  recordOf,
  rulesOf,
  unchangedListing,
  unchangedRules,
} from "../../lib/index/folder_table.ts";

async function folder(): Promise<string> {
  return await Deno.realPath(await Deno.makeTempDir({ prefix: "shipcode-folders-" }));
}

function entries(dir: string): Deno.DirEntry[] {
  return [...Deno.readDirSync(dir)];
}

/** Puts the folder's (and its files') times a minute back: as if listed long after they changed. */
function aged(dir: string, names: string[] = []): void {
  const old = new Date(Date.now() - 60_000);
  for (const n of names) Deno.utimeSync(`${dir}/${n}`, old, old);
  Deno.utimeSync(dir, old, old);
}

Deno.test("folder table: a folder listed right after it changed is racy, never trusted", async () => {
  const dir = await folder();
  try {
    Deno.writeTextFileSync(`${dir}/a.c`, "a");
    const record = recordOf(dir, Date.now(), entries(dir))!;
    assert.equal(unchangedListing(record), false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("folder table: a settled folder is trusted until an entry is added", async () => {
  const dir = await folder();
  try {
    Deno.writeTextFileSync(`${dir}/a.c`, "a");
    aged(dir);
    // ctime cannot be put back: the listing is taken as if 3 s later.
    const record = recordOf(dir, Date.now() + 3000, entries(dir))!;
    assert.equal(unchangedListing(record), true);
    await new Promise((r) => setTimeout(r, 20));
    Deno.writeTextFileSync(`${dir}/b.c`, "b");
    assert.equal(unchangedListing(record), false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("folder table: a folder that holds a symlink is always read again", async () => {
  const dir = await folder();
  try {
    Deno.writeTextFileSync(`${dir}/a.c`, "a");
    Deno.symlinkSync("a.c", `${dir}/link.c`);
    aged(dir);
    const record = recordOf(dir, Date.now() + 3000, entries(dir))!;
    assert.equal(record.links, true);
    assert.equal(unchangedListing(record), false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("folder table: an ignore file edited in place with its mtime put back is a change", async () => {
  const dir = await folder();
  try {
    Deno.writeTextFileSync(`${dir}/.ignore`, "a.c\n");
    aged(dir, [".ignore"]);
    const record = recordOf(dir, Date.now() + 3000, entries(dir))!;
    assert.match(record.rules, /^\.ignore=/);
    assert.equal(unchangedRules(record), true);
    const before = Deno.statSync(`${dir}/.ignore`);
    // ctime is kept in whole seconds here: the edit comes in the next one (the racy window of
    // 2 s covers that granularity when the listing time is real).
    await new Promise((r) => setTimeout(r, 1100));
    Deno.writeTextFileSync(`${dir}/.ignore`, "b.c\n");
    Deno.utimeSync(`${dir}/.ignore`, before.atime!, before.mtime!);
    assert.equal(unchangedRules(record), false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("folder table: an ignore file changed just before the listing is racy", async () => {
  const dir = await folder();
  try {
    Deno.writeTextFileSync(`${dir}/.gitignore`, "a.c\n");
    assert.equal(rulesOf(dir, new Set([".gitignore"]), Date.now()), "!");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("folder table: the stored table reads back as written, and a malformed one is refused", async () => {
  const dir = await folder();
  try {
    Deno.mkdirSync(`${dir}/sub`);
    const folders = new Map([
      ["", recordOf(dir, 1000, entries(dir))!],
      ["sub", recordOf(`${dir}/sub`, 2000, null)!],
      ["alias", { ...recordOf(`${dir}/sub`, 3000, [])!, links: true }],
    ]);
    const json = JSON.parse(JSON.stringify(encodeFolders(dir, { above: "x", folders })));
    assert.deepEqual(decodeFolders(dir, json), { above: "x", folders });
    for (
      const bad of [
        null,
        { ...json, nums: json.nums.slice(1) },
        { ...json, rels: [json.rels[0], json.rels[0], json.rels[2]] },
        { ...json, reals: [[0, "relative/path"]] },
        { ...json, nums: json.nums.map(() => "1") },
      ]
    ) assert.equal(decodeFolders(dir, bad), null);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
