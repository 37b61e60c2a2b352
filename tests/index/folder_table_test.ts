/** The stored folder table (lib/index/store/folder_table.ts): what makes a folder trusted or not. */
import assert from "node:assert/strict";
import {
  decodeFolders,
  encodeFolders,
  recordOf,
  rulesOf,
  unchangedLinks,
  unchangedListing,
  unchangedRules,
} from "../../lib/index/store/folder_table.ts";

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

Deno.test("folder table: a folder whose links lead where they did is trusted", async () => {
  const dir = await folder();
  try {
    Deno.writeTextFileSync(`${dir}/a.c`, "a");
    Deno.symlinkSync("a.c", `${dir}/link.c`);
    Deno.symlinkSync("missing.c", `${dir}/dangling.c`);
    aged(dir);
    const record = recordOf(dir, Date.now() + 3000, entries(dir))!;
    assert.notEqual(record.links, "");
    assert.equal(unchangedListing(record), true);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("folder table: a link's record keeps no path of what it leads to (outside the root, a secret)", async () => {
  const dir = await folder();
  const outside = await folder();
  try {
    Deno.writeTextFileSync(`${outside}/private_target_name_7f3a.txt`, "x");
    Deno.writeTextFileSync(`${dir}/.env`, "TOKEN=1");
    Deno.symlinkSync(`${outside}/private_target_name_7f3a.txt`, `${dir}/out.txt`);
    Deno.symlinkSync(".env", `${dir}/env_link`);
    aged(dir);
    const record = recordOf(dir, Date.now() + 3000, entries(dir))!;
    assert.doesNotMatch(record.links, /private_target_name_7f3a|\.env"?\]|shipcode-folders/);
    assert.match(record.links, /"env_link"/); // the link's own name is in the folder's listing
    assert.equal(unchangedListing(record), true);
  } finally {
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("folder table: a link that leads elsewhere with its folder unchanged is a change", async () => {
  // Each case changes where a link of `links/` leads without touching `links/` itself.
  const cases: [string, (dir: string) => void][] = [
    ["a link further along its path retargeted", (dir) => {
      Deno.removeSync(`${dir}/mid`);
      Deno.symlinkSync("two", `${dir}/mid`);
    }],
    ["a dangling link's target created", (dir) => Deno.writeTextFileSync(`${dir}/later.c`, "x")],
    ["a linked file replaced by a folder", (dir) => {
      Deno.removeSync(`${dir}/kind`);
      Deno.mkdirSync(`${dir}/kind`);
    }],
    ["a linked file removed", (dir) => Deno.removeSync(`${dir}/kind`)],
  ];
  for (const [name, change] of cases) {
    const dir = await folder();
    try {
      for (const d of ["one", "two", "links"]) Deno.mkdirSync(`${dir}/${d}`);
      Deno.writeTextFileSync(`${dir}/one/v.c`, "1");
      Deno.writeTextFileSync(`${dir}/two/v.c`, "2");
      Deno.writeTextFileSync(`${dir}/kind`, "k");
      Deno.symlinkSync("one", `${dir}/mid`);
      Deno.symlinkSync("../mid/v.c", `${dir}/links/via.c`);
      Deno.symlinkSync("../later.c", `${dir}/links/later.c`);
      Deno.symlinkSync("../kind", `${dir}/links/kind`);
      aged(`${dir}/links`);
      const record = recordOf(`${dir}/links`, Date.now() + 3000, entries(`${dir}/links`))!;
      assert.equal(unchangedListing(record), true, `${name}: before`);
      change(dir);
      assert.equal(unchangedListing(record), false, name);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }
});

Deno.test("folder table: a folder with links from an older table (no link state) is read again", async () => {
  const dir = await folder();
  try {
    Deno.writeTextFileSync(`${dir}/a.c`, "a");
    Deno.symlinkSync("a.c", `${dir}/link.c`);
    aged(dir);
    const record = recordOf(dir, Date.now() + 3000, entries(dir))!;
    const json = encodeFolders(dir, { above: "", folders: new Map([["", record]]) });
    delete json.links;
    const old = decodeFolders(dir, JSON.parse(JSON.stringify(json)))!.folders.get("")!;
    assert.equal(old.links, "!");
    assert.equal(unchangedListing(old), false);
    assert.equal(unchangedLinks(dir, '[["link.c", 5]]'), false); // hostile: not a state
    assert.equal(unchangedLinks(dir, '[["../a.c", "-"]]'), false); // hostile: not a name
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
      ["alias", { ...recordOf(`${dir}/sub`, 3000, [])!, links: '[["x","-"]]' }],
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
        { ...json, links: [[2, 5]] },
      ]
    ) assert.equal(decodeFolders(dir, bad), null);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
