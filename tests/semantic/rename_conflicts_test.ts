/**
 * The safe rename through the real process (--write): a rename to a name already exported beside
 * it (a duplicate import, a second export) and one that a local declaration would shadow are
 * refused with `conflicts` and nothing on disk, the dry run says the same, `force: true` writes
 * them; a clean rename says it found no conflicts. The conflicting entries are TypeScript's own
 * diagnostics of the renamed texts (the language service run on them as the oracle).
 */
import assert from "node:assert/strict";
import { makeMonorepo } from "./monorepo_fixture.ts";
import { Oracle } from "./oracle.ts";
import { SemanticServer } from "./server.ts";

interface Conflict {
  path: string;
  line: number;
  column: number;
  message: string;
}

function snapshot(root: string, files: string[]): string[] {
  return files.map((f) => Deno.readTextFileSync(`${root}/${f}`));
}

const FILES = [
  "packages/core/src/strings.ts",
  "packages/core/src/index.ts",
  "packages/app/src/main.ts",
  "tests/strings.test.ts",
];

Deno.test("safe rename: a name already exported beside it is refused with its conflicts and nothing written, then written with force", async () => {
  const { root, dispose } = await makeMonorepo();
  // The oracle: TypeScript's diagnostics of the texts its own rename gives, in the app project.
  const oracle = new Oracle(root, "packages/app/tsconfig.json");
  const renamed = oracle.renamed("packages/app/src/main.ts", 3, 33, "capitalize");
  const server = await SemanticServer.start(root, ["--write"]);
  try {
    const before = snapshot(root, FILES);
    const args = {
      path: "packages/app/src/main.ts",
      line: 3,
      name: "toCamelCase",
      new_name: "capitalize",
    };
    const dry = await server.ok("rename_symbol", { ...args, dry_run: true });
    const conflicts = dry.structured.conflicts as Conflict[];
    assert.ok(conflicts.length >= 3, dry.text);
    assert.match(dry.text, new RegExp(`^${conflicts.length} conflicts: `));
    assert.equal(dry.structured.applied, false);
    // Each renamed file with a new duplicate is named: the import, the re-export, the declaration.
    const paths = new Set(conflicts.map((c) => c.path));
    for (const f of FILES.slice(0, 3)) assert.ok(paths.has(f), `${f}: ${dry.text}`);
    // Duplicate-identifier codes, or a reference that now resolves elsewhere.
    assert.ok(
      conflicts.every((c) => /TS(2300|2451|2323|2393|2440|2484)|refer/.test(c.message)),
      dry.text,
    );

    const refused = await server.ok("rename_symbol", args);
    assert.equal(refused.structured.applied, false);
    assert.match(refused.text, /^\d+ conflicts: the rename was refused, nothing was written/);
    assert.deepEqual(snapshot(root, FILES), before);

    const forced = await server.ok("rename_symbol", { ...args, force: true });
    assert.equal(forced.structured.applied, true);
    for (const [rel, text] of renamed) {
      assert.equal(Deno.readTextFileSync(`${root}/${rel}`), text, rel);
    }
  } finally {
    await server.close();
    await dispose();
  }
});

Deno.test("safe rename: a use a local declaration would shadow is a conflict; a clean rename says so", async () => {
  const { root, dispose } = await makeMonorepo();
  const server = await SemanticServer.start(root, ["--write"]);
  try {
    const before = snapshot(root, FILES);
    const shadowed = await server.ok("rename_symbol", {
      path: "packages/core/src/strings.ts",
      line: 8,
      name: "limit",
      new_name: "max",
    });
    assert.equal(shadowed.structured.applied, false);
    const conflicts = shadowed.structured.conflicts as Conflict[];
    // `limit` inside clamp (line 12) would become the local `max` of line 11.
    assert.ok(
      conflicts.some((c) => c.path === "packages/core/src/strings.ts" && c.line === 12),
      shadowed.text,
    );
    assert.deepEqual(snapshot(root, FILES), before);

    const clean = await server.ok("rename_symbol", {
      path: "packages/core/src/strings.ts",
      line: 8,
      name: "limit",
      new_name: "ceiling",
    });
    assert.deepEqual(clean.structured.conflicts, []);
    assert.equal(clean.structured.applied, true);
    assert.match(clean.text, /^Renamed to "ceiling": .*\nNo conflicts found/);
    assert.match(
      Deno.readTextFileSync(`${root}/packages/core/src/strings.ts`),
      /value, ceiling, max/,
    );
  } finally {
    await server.close();
    await dispose();
  }
});
