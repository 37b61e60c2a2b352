/**
 * The moves that never replace (lib/edits/no_replace.ts): where a plain rename silently replaces
 * what was created at the destination after a check, these refuse and leave both in place.
 */
import assert from "node:assert/strict";
import {
  DestinationExists,
  moveFileNoReplace,
  moveFolderNoReplace,
} from "../../lib/edits/no_replace.ts";

async function inTemp(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = Deno.makeTempDirSync({ prefix: "shipcode_no_replace_" });
  try {
    await fn(dir);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

Deno.test("moveFileNoReplace: a file at the destination is never replaced, where rename replaces it", async () => {
  await inTemp(async (dir) => {
    Deno.writeTextFileSync(`${dir}/a`, "moved");
    Deno.writeTextFileSync(`${dir}/b`, "created meanwhile");
    await assert.rejects(moveFileNoReplace(`${dir}/a`, `${dir}/b`), DestinationExists);
    assert.equal(Deno.readTextFileSync(`${dir}/a`), "moved");
    assert.equal(Deno.readTextFileSync(`${dir}/b`), "created meanwhile");
    // The hazard it closes: rename(2) takes the destination's place without a word.
    Deno.renameSync(`${dir}/a`, `${dir}/b`);
    assert.equal(Deno.readTextFileSync(`${dir}/b`), "moved");
  });
});

Deno.test("moveFileNoReplace: a dangling symlink at the destination counts as existing", async () => {
  await inTemp(async (dir) => {
    Deno.writeTextFileSync(`${dir}/a`, "moved");
    Deno.symlinkSync(`${dir}/nowhere`, `${dir}/b`);
    await assert.rejects(moveFileNoReplace(`${dir}/a`, `${dir}/b`), DestinationExists);
    assert.ok(Deno.lstatSync(`${dir}/b`).isSymlink);
  });
});

Deno.test("moveFileNoReplace: the file moves whole, its inode kept and one name left", async () => {
  await inTemp(async (dir) => {
    Deno.writeTextFileSync(`${dir}/a`, "moved");
    const before = Deno.statSync(`${dir}/a`);
    await moveFileNoReplace(`${dir}/a`, `${dir}/c`);
    const after = Deno.statSync(`${dir}/c`);
    assert.equal(after.ino, before.ino);
    assert.equal(after.nlink, 1);
    assert.throws(() => Deno.lstatSync(`${dir}/a`), Deno.errors.NotFound);
  });
});

Deno.test("moveFolderNoReplace: an empty folder at the destination is never replaced, where rename replaces it", async () => {
  await inTemp(async (dir) => {
    Deno.mkdirSync(`${dir}/src`);
    Deno.writeTextFileSync(`${dir}/src/x`, "x");
    Deno.mkdirSync(`${dir}/dst`);
    await assert.rejects(moveFolderNoReplace(`${dir}/src`, `${dir}/dst`), DestinationExists);
    assert.equal(Deno.readTextFileSync(`${dir}/src/x`), "x");
    assert.deepEqual([...Deno.readDirSync(`${dir}/dst`)], []);
    // The hazard it closes: rename(2) replaces an empty folder without a word.
    Deno.renameSync(`${dir}/src`, `${dir}/dst`);
    assert.equal(Deno.readTextFileSync(`${dir}/dst/x`), "x");
  });
});

Deno.test("moveFolderNoReplace: a file at the destination is never replaced, and the folder moves whole", async () => {
  await inTemp(async (dir) => {
    Deno.mkdirSync(`${dir}/src/deep`, { recursive: true });
    Deno.writeTextFileSync(`${dir}/src/deep/x`, "x");
    Deno.writeTextFileSync(`${dir}/file`, "kept");
    await assert.rejects(moveFolderNoReplace(`${dir}/src`, `${dir}/file`), DestinationExists);
    assert.equal(Deno.readTextFileSync(`${dir}/file`), "kept");
    await moveFolderNoReplace(`${dir}/src`, `${dir}/moved`);
    assert.equal(Deno.readTextFileSync(`${dir}/moved/deep/x`), "x");
    assert.throws(() => Deno.lstatSync(`${dir}/src`), Deno.errors.NotFound);
  });
});
