/**
 * Python diagnostics through the real server are paged as slices of one kept answer, as
 * TypeScript's are (monorepo_diagnostics_test.ts): the first call checks every file (with
 * "N of M files checked" progress), the later pages check nothing and together give the first
 * call's list, each entry once, with the same total; a file edited between two pages makes the
 * next page a slice of a new answer that has the edit.
 */
import assert from "node:assert/strict";
import { SemanticServer } from "../server.ts";

interface Entry {
  path: string;
  line: number;
  column: number;
  code: string;
  message: string;
}

/** Two type errors a file, in four files (8 diagnostics). */
const TWO_ERRORS = 'count: int = "one"\nname: str = 2\n';
const FILES = ["a.py", "b.py", "c.py", "pkg/d.py"];

async function makeRoot(): Promise<{ root: string; dispose: () => Promise<void> }> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "py_pages_" }));
  await Deno.mkdir(`${root}/pkg`);
  for (const rel of FILES) await Deno.writeTextFile(`${root}/${rel}`, TWO_ERRORS);
  return { root, dispose: () => Deno.remove(root, { recursive: true }) };
}

function key(d: Entry): string {
  return `${d.path}:${d.line}:${d.column} ${d.code} ${d.message}`;
}

let token = 0;

/** A diagnostics call and the "files checked" progress messages it sent. */
async function page(server: SemanticServer, args: Record<string, unknown>) {
  const name = `pages-${++token}`;
  const called = await server.request("tools/call", {
    name: "diagnostics",
    arguments: args,
    _meta: { progressToken: name },
  });
  assert.equal(called.isError, false, called.text);
  const checking = server.process.raw.split("\n").filter((l) =>
    l.includes("notifications/progress") && l.includes(`"${name}"`) && l.includes("files checked")
  );
  return {
    list: called.structured.diagnostics as Entry[],
    structured: called.structured,
    checking,
  };
}

Deno.test("python diagnostics: page 1 and page 2 are slices of one kept answer, every entry once", async () => {
  const { root, dispose } = await makeRoot();
  const server = await SemanticServer.start(root);
  try {
    const all = await page(server, { head_limit: 0 });
    assert.equal(all.structured.engine, "pyright");
    assert.equal(all.structured.total, 8);
    assert.ok(all.checking.length > 0, "the first call reports the files it checks");
    assert.deepEqual(new Set(all.list.map((d) => d.path)), new Set(FILES));

    const first = await page(server, { head_limit: 3 });
    const second = await page(server, { head_limit: 3, offset: 3 });
    const third = await page(server, { head_limit: 3, offset: 6 });
    // The pages come from the kept answer: nothing is checked again.
    for (const p of [first, second, third]) {
      assert.deepEqual(p.checking, [], "a page of the kept answer checks no file");
      assert.equal(p.structured.total, 8);
      assert.equal(p.structured.files_checked, 4);
    }
    assert.equal(first.structured.next_offset, 3);
    assert.equal(second.structured.next_offset, 6);
    assert.equal(third.structured.next_offset, undefined);
    const paged = [...first.list, ...second.list, ...third.list];
    // No entry twice, none skipped: the pages are the whole answer in order.
    assert.equal(new Set(paged.map(key)).size, paged.length);
    assert.deepEqual(paged, all.list);
  } finally {
    await server.close();
    await dispose();
  }
});

Deno.test("python diagnostics: an edit between two pages makes the next page a slice of a new answer, as TypeScript's", async () => {
  const { root, dispose } = await makeRoot();
  const server = await SemanticServer.start(root);
  try {
    const first = await page(server, { head_limit: 3 });
    assert.equal(first.structured.total, 8);
    assert.equal(first.structured.next_offset, 3);
    // a.py is fixed between the pages: the kept answer is not used any more.
    await Deno.writeTextFile(`${root}/a.py`, "count: int = 1\n");
    const second = await page(server, { head_limit: 3, offset: 3 });
    assert.ok(second.checking.length > 0, "the page after an edit checks the files again");
    assert.equal(second.structured.total, 6);
    assert.equal(second.structured.files_checked, 4);
    const now = await page(server, { head_limit: 0 });
    assert.deepEqual(now.checking, [], "the new answer is kept in its turn");
    assert.ok(now.list.every((d) => d.path !== "a.py"), JSON.stringify(now.list));
    assert.deepEqual(second.list, now.list.slice(3, 6));
    assert.equal(second.structured.next_offset, undefined);
  } finally {
    await server.close();
    await dispose();
  }
});
