/** find_symbol's tally: the page and totals of definitions arriving in any order, held bounded. */
import assert from "node:assert/strict";
import { DefinitionTally, type Found } from "../../lib/tools/definition_tally.ts";
import { entrySize, type PageRequest, takePage } from "../../lib/tools/paging.ts";

function size(f: Found) {
  return entrySize(`${f.path}:${f.line}: ${f.kind} ${f.name}`, `${f.path}:${f.line}`);
}

/** `files` candidates, file i defining `perFile(i)` functions `s<i>_<j>` (some in a class). */
function corpus(files: number, perFile: (i: number) => number): Map<string, Found[]> {
  const out = new Map<string, Found[]>();
  for (let i = 0; i < files; i++) {
    const path = `f${String(i).padStart(5, "0")}.c`;
    const list: Found[] = [];
    for (let j = 0; j < perFile(i); j++) {
      const f: Found = {
        path,
        line: j + 1,
        end_line: j + 1,
        kind: j % 3 === 0 ? "struct" : "function",
        name: `s${i}_${j}`,
      };
      if (j % 4 === 0) f.container = "Box";
      list.push(f);
    }
    out.set(path, list);
  }
  return out;
}

/** A fixed shuffle (a linear congruential generator), so a failure replays. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let x = seed;
  for (let i = out.length - 1; i > 0; i--) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const k = x % (i + 1);
    [out[i], out[k]] = [out[k], out[i]];
  }
  return out;
}

Deno.test("definition tally: the page and totals equal paging the whole sorted answer whatever the arrival order", () => {
  const files = corpus(60, (i) => (i * 7) % 13);
  const paths = [...files.keys()];
  const all = paths.flatMap((p) => files.get(p)!);
  const requests: PageRequest[] = [
    { offset: 0, limit: null, defaultLimit: Infinity, budgetChars: 2_000 },
    { offset: 37, limit: 25, defaultLimit: Infinity, budgetChars: 20_000 },
    { offset: 0, limit: 0, defaultLimit: Infinity, budgetChars: 20_000 },
    { offset: 10_000, limit: 5, defaultLimit: Infinity, budgetChars: 20_000 },
  ];
  for (const request of requests) {
    const want = takePage(all, request, size);
    for (const seed of [1, 2, 3]) {
      const tally = new DefinitionTally(paths, { inContainer: () => true, kind: null }, {
        request,
        size,
      });
      for (const path of shuffled(paths, seed)) tally.add(path, files.get(path)!);
      const got = tally.finish();
      assert.deepEqual(got.page, want, `offset ${request.offset}, seed ${seed}`);
      assert.equal(got.total, all.length);
    }
  }
});

Deno.test("definition tally: the kind and container filters narrow the total and keep what an empty answer names", () => {
  const files = corpus(20, () => 12);
  const paths = [...files.keys()];
  const tally = new DefinitionTally(
    paths,
    { inContainer: (f) => f.container === "Box", kind: "function" },
    { request: { offset: 0, limit: 3, defaultLimit: Infinity, budgetChars: 0 }, size },
  );
  for (const path of shuffled(paths, 9)) tally.add(path, files.get(path)!);
  const got = tally.finish();
  const all = paths.flatMap((p) => files.get(p)!);
  const placed = all.filter((f) => f.container === "Box");
  const shown = placed.filter((f) => f.kind === "function");
  assert.equal(got.total, shown.length);
  assert.deepEqual(got.page.items, shown.slice(0, 3));
  assert.equal(got.page.nextOffset, 3);
  assert.deepEqual(got.placedKinds, new Map([["struct", 20], ["function", 40]]));
  const outside = all.filter((f) => f.container !== "Box");
  assert.equal(got.elsewhereTotal, 180);
  assert.deepEqual(got.elsewhere, outside.slice(0, 5));
});

Deno.test("definition tally: a million definitions arriving in order hold one page at a time", () => {
  const files = corpus(2_000, () => 500);
  const paths = [...files.keys()];
  const request = { offset: 400_000, limit: 50, defaultLimit: Infinity, budgetChars: 20_000 };
  const tally = new DefinitionTally(paths, { inContainer: () => true, kind: null }, {
    request,
    size,
  });
  let most = 0;
  // Nearly in order, as parse batches come back: each pair of neighbours swapped.
  for (let i = 0; i < paths.length; i += 2) {
    for (const path of [paths[i + 1], paths[i]]) {
      tally.add(path, files.get(path)!);
      most = Math.max(most, tally.held);
    }
  }
  const got = tally.finish();
  assert.equal(got.total, 1_000_000);
  assert.equal(got.page.items.length, 50);
  assert.equal(got.page.items[0].name, "s800_0");
  assert.equal(got.page.nextOffset, 400_050);
  // The page, plus one file waiting for its neighbour while the page is still open.
  assert.ok(most <= 50 + 500, `held ${most} definitions at once`);
});
