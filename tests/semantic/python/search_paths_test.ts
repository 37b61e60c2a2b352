/**
 * How the Python engine finds packages, from files only: a root `.venv` (with `pyvenv.cfg`) and
 * no pyright configuration is used as if a `pyrightconfig.json` named it, and a `src/` layout
 * resolves as pyright resolves it; answers equal pyright standalone given that configuration.
 * A `[tool.pyright]` table in pyproject.toml is a configuration: the `.venv` is then not named.
 * Freshness: files the server writes or creates are seen by the next question.
 */
import assert from "node:assert/strict";
import { Workspace } from "../../../lib/workspace/workspace.ts";
import type { Answer, Query } from "../../../lib/semantic/engine.ts";
import { pythonEngine } from "../../../lib/semantic/python/engine.ts";
import { findNode, PyrightOracle } from "./pyright_oracle.ts";

const FILES: Record<string, string> = {
  ".venv/pyvenv.cfg": "home = /usr/bin\nversion = 3.11.4\n",
  ".venv/lib/python3.11/site-packages/thirdparty/__init__.py":
    "def helper(value: int) -> int:\n    return value\n",
  "src/app/__init__.py": "",
  "src/app/core.py":
    "from thirdparty import helper\n\n\ndef run(n: int) -> int:\n    return helper(n)\n",
  "main.py": "from app.core import run\nimport thirdparty\n\nrun(thirdparty.helper(1))\nrun('x')\n",
};

async function writeTree(root: string, files: Record<string, string>): Promise<void> {
  for (const [rel, text] of Object.entries(files)) {
    const path = `${root}/${rel}`;
    await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(path, text);
  }
}

const node = findNode();

function engineAsk(root: string) {
  const engine = pythonEngine();
  const ws = Workspace.openSync({ root, noIgnore: false, allowSecrets: false });
  const signal = new AbortController().signal;
  const ask = async <K extends Answer["kind"]>(query: Query & { kind: K }) =>
    (await engine.ask(ws, query, { signal })) as Extract<Answer, { kind: K }>;
  return { engine, ask };
}

Deno.test({
  name:
    "python search paths: a root .venv without configuration, and a src/ layout, as pyright with the config that names it (needs node)",
  ignore: node === null,
  async fn() {
    const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "py_paths_" }));
    const root = `${base}/ours`;
    const oracleRoot = `${base}/oracle`;
    await writeTree(root, FILES);
    await writeTree(oracleRoot, {
      ...FILES,
      "pyrightconfig.json": JSON.stringify({ venvPath: ".", venv: ".venv" }),
    });
    const oracle = await PyrightOracle.start(node!, oracleRoot);
    const { engine, ask } = engineAsk(root);
    try {
      const cases: Array<[string, number, string]> = [
        ["main.py", 1, "run"],
        ["main.py", 4, "helper"],
        ["main.py", 2, "thirdparty"],
        ["src/app/core.py", 5, "helper"],
      ];
      for (const [path, line, name] of cases) {
        const column = FILES[path].split("\n")[line - 1].indexOf(name) + 1;
        const ours = await ask({ kind: "definition", at: { path, line, name } });
        const expected = await oracle.definitions(path, line, column);
        assert.ok(expected.length > 0, `the oracle resolves ${name}`);
        assert.deepEqual(
          ours.definitions.map((d) => ({ path: d.path, line: d.line, column: d.column })),
          expected,
          `${path}:${line} ${name}`,
        );
      }
      const helper = await ask({
        kind: "definition",
        at: { path: "main.py", line: 4, name: "helper" },
      });
      assert.equal(
        helper.definitions[0].path,
        ".venv/lib/python3.11/site-packages/thirdparty/__init__.py",
      );
      const shown = (
        d: { path: string; line: number; column: number; code: string; message: string },
      ) => `${d.path}:${d.line}:${d.column} ${d.code} ${d.message}`;
      const diagnostics = await ask({ kind: "diagnostics", path: "" });
      const cli = await oracle.diagnostics();
      assert.deepEqual(diagnostics.diagnostics.map(shown).sort(), cli.map(shown).sort());
      assert.equal(cli.length, 1, "one type error (run('x'))");

      // Freshness: a file the server creates, then rewrites, is seen by the next question.
      await Deno.writeTextFile(`${root}/src/app/more.py`, "from app.core import run\n\nrun(2)\n");
      engine.touch(["src/app/more.py"], true);
      const refs = await ask({
        kind: "references",
        at: { path: "src/app/core.py", line: 4, name: "run" },
      });
      assert.ok(refs.references.some((r) => r.path === "src/app/more.py" && r.line === 3));
      await Deno.writeTextFile(`${root}/src/app/more.py`, "from app.core import run\n\n\nrun(2)\n");
      engine.touch(["src/app/more.py"], false);
      const again = await ask({
        kind: "references",
        at: { path: "src/app/core.py", line: 4, name: "run" },
      });
      assert.ok(again.references.some((r) => r.path === "src/app/more.py" && r.line === 4));
      assert.ok(!again.references.some((r) => r.path === "src/app/more.py" && r.line === 3));
    } finally {
      engine.stop();
      await oracle.stop();
      await Deno.remove(base, { recursive: true });
    }
  },
});

Deno.test("python search paths: [tool.pyright] in pyproject.toml is a configuration, so a root .venv is not named", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "py_paths_" }));
  await writeTree(root, {
    ...FILES,
    "pyproject.toml": "[project]\nname = 'x'\n\n[tool.pyright]\nextraPaths = ['src']\n",
  });
  const { engine, ask } = engineAsk(root);
  try {
    const helper = await ask({
      kind: "definition",
      at: { path: "main.py", line: 4, name: "helper" },
    });
    assert.deepEqual(helper.definitions, []);
    const run = await ask({ kind: "definition", at: { path: "main.py", line: 1, name: "run" } });
    assert.equal(run.definitions[0]?.path, "src/app/core.py");
  } finally {
    engine.stop();
    await Deno.remove(root, { recursive: true });
  }
});
