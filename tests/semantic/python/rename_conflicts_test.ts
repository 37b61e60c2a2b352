/**
 * The safe rename for Python through the real process (--write): the renamed texts are opened in
 * pyright as an overlay and checked before anything is written. A rename to a name a touched
 * file already imports, one that makes a local shadow a module-level name the function uses, and
 * one to a name defined at module level beside it are refused with `conflicts` and nothing on
 * disk, then written with `force: true`; a clean rename says it found no conflicts. After a
 * refused rename, diagnostics and references equal those before it (the overlay is closed, not
 * left open in pyright). The module-level duplicate's conflict is pyright's own diagnostic of
 * the written file (pyright's CLI as the oracle, when node is there).
 */
import assert from "node:assert/strict";
import { SemanticServer } from "../server.ts";
import { findNode, PyrightOracle } from "./pyright_oracle.ts";

interface Conflict {
  path: string;
  line: number;
  column: number;
  message: string;
}

const FILES: Record<string, string> = {
  "util.py": "def helper() -> int:\n    return 1\n",
  "fmt.py": 'def fmt() -> str:\n    return "x"\n',
  "main.py": "from fmt import fmt\nfrom util import helper\n\n\n" +
    "def run() -> str:\n    return fmt() + str(helper())\n",
  "calc.py": "total = 10\n\n\ndef add(count: int) -> int:\n    step = 1\n" +
    "    return step + count + total\n",
  "shapes.py": "def area() -> int:\n    return 1\n\n\ndef volume() -> int:\n" +
    "    return area() * 2\n",
  "user.py": "from shapes import volume\n\nprint(volume())\n",
};

async function makeProject(): Promise<{ root: string; dispose(): Promise<void> }> {
  const root = await Deno.makeTempDir({ prefix: "py-rename-conflicts-" });
  for (const [rel, text] of Object.entries(FILES)) await Deno.writeTextFile(`${root}/${rel}`, text);
  return { root, dispose: () => Deno.remove(root, { recursive: true }) };
}

function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const rel of Object.keys(FILES)) out[rel] = Deno.readTextFileSync(`${root}/${rel}`);
  return out;
}

interface Case {
  name: string;
  args: { path: string; line: number; name: string; new_name: string };
  /** A conflict expected at this place (path, line). */
  at: [string, number];
  /** What its message says. */
  says: RegExp;
}

const CASES: Case[] = [
  {
    // main.py would import `fmt` twice: its first `fmt()` would call util's.
    name: "a name already imported in a touched file",
    args: { path: "util.py", line: 1, name: "helper", new_name: "fmt" },
    at: ["main.py", 6],
    says: /refer/,
  },
  {
    // `total` in add() would be the local, not the module's.
    name: "a local that would shadow a module-level name it uses",
    args: { path: "calc.py", line: 5, name: "step", new_name: "total" },
    at: ["calc.py", 6],
    says: /would refer to the renamed symbol/,
  },
  {
    // A second `def area` beside the first: pyright's redeclaration.
    name: "a name already defined at module level beside it",
    args: { path: "shapes.py", line: 5, name: "volume", new_name: "area" },
    at: ["shapes.py", 1],
    says: /reportRedeclaration/,
  },
];

for (const c of CASES) {
  Deno.test(`python safe rename: ${c.name} is refused with nothing written, then written with force`, async () => {
    const { root, dispose } = await makeProject();
    const server = await SemanticServer.start(root, ["--write"]);
    try {
      const before = snapshot(root);
      const refused = await server.ok("rename_symbol", c.args);
      const conflicts = refused.structured.conflicts as Conflict[];
      assert.equal(refused.structured.applied, false, refused.text);
      assert.ok(conflicts.length > 0, refused.text);
      assert.match(refused.text, /^\d+ conflicts?: the rename was refused, nothing was written/);
      assert.ok(
        conflicts.some((x) => x.path === c.at[0] && x.line === c.at[1] && c.says.test(x.message)),
        refused.text,
      );
      assert.deepEqual(snapshot(root), before);

      const forced = await server.ok("rename_symbol", { ...c.args, force: true });
      assert.equal(forced.structured.applied, true, forced.text);
      assert.notDeepEqual(snapshot(root), before);
      assert.match(Deno.readTextFileSync(`${root}/${c.args.path}`), new RegExp(c.args.new_name));
    } finally {
      await server.close();
      await dispose();
    }
  });
}

Deno.test("python safe rename: a refused rename leaves no overlay behind; a clean rename says no conflicts", async () => {
  const { root, dispose } = await makeProject();
  const server = await SemanticServer.start(root, ["--write"]);
  try {
    const diagnostics = async () => (await server.ok("diagnostics", { path: "" })).structured;
    const references = async () =>
      (await server.ok("find_references", { path: "shapes.py", line: 1, name: "area" }))
        .structured;
    const diagnosticsBefore = await diagnostics();
    const referencesBefore = await references();
    const refused = await server.ok("rename_symbol", CASES[2].args);
    assert.equal(refused.structured.applied, false, refused.text);
    // The overlay's second `def area` would be a reference and a redeclaration, were it left open
    // (references first: a diagnostics question opens each file it checks with its disk text).
    assert.deepEqual(await references(), referencesBefore);
    assert.deepEqual(await diagnostics(), diagnosticsBefore);

    const clean = await server.ok("rename_symbol", {
      path: "shapes.py",
      line: 5,
      name: "volume",
      new_name: "capacity",
    });
    assert.deepEqual(clean.structured.conflicts, [], clean.text);
    assert.equal(clean.structured.applied, true);
    assert.match(clean.text, /^Renamed to "capacity": .*\nNo conflicts found/);
    assert.equal(
      Deno.readTextFileSync(`${root}/user.py`),
      "from shapes import capacity\n\nprint(capacity())\n",
    );
  } finally {
    await server.close();
    await dispose();
  }
});

const node = findNode();

Deno.test({
  name:
    "python safe rename: the module-level duplicate's conflict is pyright's own diagnostic of the renamed file (needs node)",
  ignore: node === null,
  async fn() {
    const { root, dispose } = await makeProject();
    const server = await SemanticServer.start(root, ["--write"]);
    let oracle: PyrightOracle | null = null;
    try {
      const refused = await server.ok("rename_symbol", CASES[2].args);
      const conflicts = (refused.structured.conflicts as Conflict[]).filter((x) =>
        /reportRedeclaration/.test(x.message)
      );
      assert.ok(conflicts.length > 0, refused.text);
      await server.ok("rename_symbol", { ...CASES[2].args, force: true });
      oracle = await PyrightOracle.start(node!, root);
      const own = (await oracle.diagnostics(["shapes.py"])).filter((d) =>
        d.code === "reportRedeclaration"
      );
      assert.deepEqual(
        conflicts.map((x) => [x.path, x.line, x.column, x.message]),
        own.map((d) => [
          d.path,
          d.line,
          d.column,
          `the rename would add ${d.category} ${d.code}: ${d.message}`,
        ]),
      );
    } finally {
      await oracle?.stop();
      await server.close();
      await dispose();
    }
  },
});
