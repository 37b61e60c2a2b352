/**
 * The folder swap race (issue 8, defect 4), as a property: while another process swaps a folder
 * of the root for a symlink to an outside folder and back, as fast as it can, no answer of
 * grep, read_file or resources/read ever holds a byte of the outside files, and no listing
 * (resources/list, glob, list_dir) names an outside file (docs/workspace.md,
 * "Confinement" 3; lib/workspace/folder_guard.ts).
 */
import assert from "node:assert/strict";
import { call, exitsOnEof, started } from "./watchdog.ts";

const SWAPPER = `
const [root, outside, ms] = Deno.args;
const end = Date.now() + Number(ms);
const cell = new Int32Array(new SharedArrayBuffer(4));
// Each state lasts from nothing to a few milliseconds: both fast races and held swaps.
const hold = () => Atomics.wait(cell, 0, 0, Math.floor(Math.random() * 4));
let swaps = 0;
while (Date.now() < end) {
  Deno.renameSync(root + "/z", root + "/z.away");
  Deno.symlinkSync(outside, root + "/z");
  hold();
  Deno.removeSync(root + "/z");
  Deno.renameSync(root + "/z.away", root + "/z");
  hold();
  swaps++;
}
console.log(swaps);
`;

Deno.test("folder swap: many swaps of a folder for an outside link leak zero outside bytes", async () => {
  const base = await Deno.makeTempDir({ prefix: "shipcode-swap-" });
  const root = `${base}/root`;
  const outside = `${base}/outside`;
  await Deno.mkdir(`${root}/z`, { recursive: true });
  await Deno.mkdir(outside);
  for (let i = 0; i < 20; i++) {
    await Deno.writeTextFile(`${root}/z/f${i}.txt`, `MARKZ inside ${i}\n`);
    await Deno.writeTextFile(`${outside}/f${i}.txt`, `MARKZ LEAKED ${i}\n`);
  }
  await Deno.writeTextFile(`${outside}/only_outside.txt`, "MARKZ LEAKED only\n");
  await Deno.writeTextFile(`${root}/a.txt`, "MARKZ top\n");
  const server = await started(root);
  const swapper = new Deno.Command(Deno.execPath(), {
    args: ["eval", SWAPPER, root, outside, "8000"],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const swapped = new Response(swapper.stdout).text();
  let answers = 0;
  const leaks: string[] = [];
  try {
    const uri = new URL(`file://${root}/z/f3.txt`).href;
    let id = 10;
    const deadline = Date.now() + 7000;
    while (Date.now() < deadline) {
      const grep = await call(server, id++, "grep", { pattern: "MARKZ", output_mode: "content" });
      const read = await call(server, id++, "read_file", { path: "z/f3.txt" });
      const resource = await server.request(id++, "resources/read", { uri });
      const listed = await server.request(id++, "resources/list");
      const globbed = await call(server, id++, "glob", { pattern: "**/*.txt" });
      const dir = await call(server, id++, "list_dir", { path: "z" });
      for (const answer of [grep, read, resource, listed, globbed, dir]) {
        const text = JSON.stringify(answer);
        if (/LEAKED|only_outside/.test(text)) leaks.push(text.slice(0, 300));
        answers++;
      }
    }
    await exitsOnEof(server);
  } finally {
    await swapper.status;
    await server.kill();
    await Deno.remove(base, { recursive: true });
  }
  assert.deepEqual(leaks, [], "outside bytes were served");
  assert.ok(answers >= 30, `only ${answers} answers`);
  // The race was real: the folder was swapped many times while the answers were built.
  const swaps = Number((await swapped).trim());
  assert.ok(swaps > 100, `only ${swaps} swaps`);
});
