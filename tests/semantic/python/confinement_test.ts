/**
 * The Python engine's confinement: nothing outside the root and no secret file reaches an answer
 * (the outside file's and the secret module's unique tokens never appear; an `extraPaths` entry
 * leading out, a secret module and a symlink leading out are unresolved), and nothing is ever
 * run: a fake `python` first on PATH and the venv's interpreter each leave a marker when run, and
 * no marker exists after every kind of question.
 */
import assert from "node:assert/strict";
import { Workspace } from "../../../lib/workspace/workspace.ts";
import type { Answer, Query } from "../../../lib/semantic/engine.ts";
import { SemanticRefusal } from "../../../lib/semantic/engine.ts";
import { pythonEngine } from "../../../lib/semantic/python/engine.ts";
import { makePythonProject, OUTSIDE_TOKEN, POSITIONS, SECRET_TOKEN } from "./fixture.ts";

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

Deno.test("python confinement: no outside or secret text in any answer, no interpreter ever run", async () => {
  const fixture = await makePythonProject();
  const path = Deno.env.get("PATH") ?? "";
  Deno.env.set("PATH", `${fixture.fakeBin}:${path}`);
  const engine = pythonEngine();
  const ws = Workspace.openSync({ root: fixture.root, noIgnore: false, allowSecrets: false });
  const signal = new AbortController().signal;
  const answers: string[] = [];
  const ask = async (query: Query): Promise<Answer | null> => {
    try {
      const answer = await engine.ask(ws, query, { signal });
      answers.push(JSON.stringify(answer));
      return answer;
    } catch (error) {
      if (!(error instanceof SemanticRefusal)) throw error;
      answers.push(error.message);
      return null;
    }
  };
  try {
    // The fake interpreter works when run: the markers would show any run.
    await new Deno.Command(`${fixture.fakeBin}/python`).output();
    assert.ok(exists(fixture.markers[0]));
    await Deno.remove(fixture.markers[0]);

    for (const name of ["outsidemod", "id_rsa_keys"]) {
      const found = await ask({
        kind: "definition",
        at: { path: "main.py", line: name === "outsidemod" ? 3 : 4, name },
      });
      assert.deepEqual(found?.kind === "definition" ? found.definitions : null, [], name);
      await ask({
        kind: "references",
        at: { path: "main.py", line: name === "outsidemod" ? 3 : 4, name },
      });
    }
    // The link leading out is no file of the workspace.
    assert.equal(
      await ask({ kind: "definition", at: { path: "src/shop/linked.py", line: 1, column: 1 } }),
      null,
    );
    assert.match(answers.at(-1)!, /not a file of this workspace/);
    for (const p of POSITIONS) {
      const at = { path: p.path, line: p.line, name: p.name, occurrence: p.occurrence };
      await ask({ kind: "definition", at });
      await ask({ kind: "references", at });
      await ask({ kind: "rename", at, newName: "other_name" });
    }
    const diagnostics = await ask({ kind: "diagnostics", path: "" });
    assert.ok(diagnostics?.kind === "diagnostics");
    const unresolved = diagnostics.diagnostics.filter((d) => d.code === "reportMissingImports");
    assert.deepEqual(unresolved.map((d) => `${d.path}:${d.line}`), ["main.py:3", "main.py:4"]);
    await ask({ kind: "diagnostics", path: "main.py" });

    const all = answers.join("\n");
    assert.ok(!all.includes(OUTSIDE_TOKEN), "the outside token appeared");
    assert.ok(!all.includes(SECRET_TOKEN), "the secret token appeared");
    assert.ok(!all.includes("outside/"), "an outside path appeared");
    assert.ok(!all.includes(fixture.base), "an absolute path appeared");
    for (const marker of fixture.markers) {
      assert.ok(!exists(marker), `an interpreter ran: ${marker}`);
    }
  } finally {
    Deno.env.set("PATH", path);
    engine.stop();
    await fixture.dispose();
  }
});
