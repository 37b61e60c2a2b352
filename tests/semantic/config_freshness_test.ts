/**
 * The TypeScript engine sees a config edited outside the server at the next question, whether or
 * not its file watcher has told of it yet (or runs at all: a system out of inotify watches): the
 * projects remember each config file's stamp as read and compare it at every request. Driven
 * here without a worker or a watcher, so nothing but the stamps can tell.
 */
import assert from "node:assert/strict";
import ts from "typescript";
import { makeTree } from "../helpers/fixture.ts";
import { ProjectSet } from "../../lib/semantic/typescript/projects.ts";
import { TypeFiles } from "../../lib/semantic/typescript/type_files.ts";
import { Workspace } from "../../lib/workspace/workspace.ts";

function projectsOn(root: string): { files: TypeFiles; projects: ProjectSet } {
  const ws = Workspace.openSync({ root, noIgnore: false, allowSecrets: false });
  const libDir = ts.getDefaultLibFilePath({}).replace(/\/[^/]*$/, "");
  const files = new TypeFiles(ws, libDir, 1 << 20);
  const token: ts.CancellationToken = {
    isCancellationRequested: () => false,
    throwIfCancellationRequested: () => {},
  };
  const projects = new ProjectSet(
    ts,
    files,
    ts.createDocumentRegistry(true, root),
    token,
    () => {},
  );
  return { files, projects };
}

Deno.test("semantic projects: a Deno member's deno.json edited on disk is a change at the next request", async () => {
  const tree = await makeTree({
    "deno.json": JSON.stringify({ workspace: ["./tools"] }),
    "tools/deno.json": JSON.stringify({ name: "@demo/tools", exports: "./run.ts" }),
    "tools/run.ts": "export const runTool = 1;\n",
    "main.ts": 'import { runTool } from "@demo/tools";\nconsole.log(runTool);\n',
  });
  try {
    const { files, projects } = projectsOn(tree.root);
    files.newEpoch();
    projects.projectFor("main.ts");
    assert.ok(projects.configFiles.has(`${files.root}/tools/deno.json`));
    files.newEpoch();
    assert.equal(projects.configsChanged(), false, "nothing changed yet");
    await Deno.writeTextFile(
      `${tree.root}/tools/deno.json`,
      JSON.stringify({ name: "@demo/renamed", exports: "./run.ts" }),
    );
    files.newEpoch();
    assert.equal(projects.configsChanged(), true, "the member's config changed");
    projects.reset();
    files.newEpoch();
    projects.projectFor("main.ts");
    files.newEpoch();
    assert.equal(projects.configsChanged(), false, "read again after the reset");
  } finally {
    await tree.dispose();
  }
});

Deno.test("semantic projects: a tsconfig.json edited on disk is a change at the next request", async () => {
  const tree = await makeTree({
    "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true }, include: ["*.ts"] }),
    "a.ts": "export const a = 1;\n",
  });
  try {
    const { files, projects } = projectsOn(tree.root);
    files.newEpoch();
    projects.projectFor("a.ts");
    files.newEpoch();
    assert.equal(projects.configsChanged(), false);
    await Deno.writeTextFile(
      `${tree.root}/tsconfig.json`,
      JSON.stringify({ compilerOptions: { strict: false }, include: ["*.ts", "lib/*.ts"] }),
    );
    files.newEpoch();
    assert.equal(projects.configsChanged(), true);
  } finally {
    await tree.dispose();
  }
});
