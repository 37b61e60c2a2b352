/**
 * The permission string has one source, deno.json's start task: the README's run line and the
 * compiled binary's flags are checked against it, and the README's links to docs/ resolve.
 */
import assert from "node:assert/strict";
import { serverFlags } from "./e2e/harness.ts";

const ROOT = new URL("../", import.meta.url);
const README = Deno.readTextFileSync(new URL("README.md", ROOT));

function task(name: string): string[] {
  const deno = JSON.parse(Deno.readTextFileSync(new URL("deno.json", ROOT)));
  const entry = deno.tasks[name];
  return (typeof entry === "string" ? entry : entry.command).split(" ").filter((w: string) => w);
}

Deno.test("README: the run line an agent uses is deno.json's start task with paths filled in", async () => {
  const lines = README.split("\n").filter((line) => line.startsWith("deno run "));
  assert.equal(lines.length, 1, "the README has one `deno run` line");
  const words = lines[0].split(" ");
  const main = words.findIndex((w) => w.endsWith("/main.ts"));
  assert.ok(main > 1, lines[0]);
  assert.deepEqual(words.slice(2, main), await serverFlags());
});

Deno.test("deno.json: the compiled binary holds the start task's permissions", async () => {
  const words = task("compile");
  const flags = words.slice(2, words.indexOf("main.ts")).filter((w, i, all) =>
    w !== "--include" && w !== "--output" && all[i - 1] !== "--include" &&
    all[i - 1] !== "--output"
  );
  assert.deepEqual(flags, (await serverFlags()).filter((w) => w !== "--quiet"));
});

Deno.test("README: every link into docs/ names a file that exists", () => {
  const links = [...README.matchAll(/\]\((docs\/[^)#]+)(?:#[^)]*)?\)/g)].map((m) => m[1]);
  assert.ok(links.length > 0);
  for (const link of new Set(links)) {
    assert.doesNotThrow(() => Deno.statSync(new URL(link, ROOT)), `README links to ${link}`);
  }
});
