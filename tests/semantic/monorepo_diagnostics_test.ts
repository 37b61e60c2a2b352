/**
 * Whole-root diagnostics of a monorepo through the real process: every project checks its own
 * listed files, equal to TypeScript's language service per project (the oracle), configuration
 * problems first at the config's offending entry (a `types` package that is not installed:
 * TS2688; an `extends` that does not resolve), counts by code and by file first, page 2 asked
 * twice identical, and a time-limited call partial with no offset.
 */
import assert from "node:assert/strict";
import ts from "typescript";
import { makeMonorepo, PROJECTS } from "./monorepo_fixture.ts";
import { Oracle } from "./oracle.ts";
import { SemanticServer } from "./server.ts";

interface Entry {
  path: string;
  line: number;
  column: number;
  code: string;
  message: string;
}

function key(d: Entry): string {
  return `${d.path}:${d.line}:${d.column} ${d.code} ${d.message}`;
}

/** What the language service says per project: its listed files' and its config's problems. */
function expected(root: string): { files: string[]; config: string[] } {
  const files = new Set<string>();
  const config = new Set<string>();
  for (const project of PROJECTS) {
    const oracle = new Oracle(root, project);
    for (const name of oracle.fileNames) {
      const rel = name.slice(root.length + 1);
      for (const d of oracle.diagnostics(rel)) files.add(key(d));
    }
    const path = `${root}/${project}`;
    const parsed = ts.parseJsonConfigFileContent(
      ts.readConfigFile(path, ts.sys.readFile).config,
      ts.sys,
      path.slice(0, path.lastIndexOf("/")),
      undefined,
      path,
    );
    for (const d of [...parsed.errors, ...oracle.service.getCompilerOptionsDiagnostics()]) {
      const text = ts.flattenDiagnosticMessageText(d.messageText, "\n").replaceAll(`${root}/`, "");
      config.add(`${project} TS${d.code} ${text}`);
    }
  }
  return { files: [...files].sort(), config: [...config].sort() };
}

Deno.test("monorepo diagnostics: every project's files and config problems, as the language service gives them per project", async () => {
  const { root, dispose } = await makeMonorepo();
  const want = expected(root);
  const server = await SemanticServer.start(root);
  try {
    const got = await server.ok("diagnostics", { head_limit: 0 });
    const list = got.structured.diagnostics as Entry[];
    const configs = list.filter((d) => PROJECTS.includes(d.path));
    const files = list.filter((d) => !PROJECTS.includes(d.path));
    // Config problems come first, then the files' entries.
    assert.deepEqual(list.slice(0, configs.length), configs);
    assert.deepEqual(files.map(key).sort(), want.files);
    assert.deepEqual(configs.map((d) => `${d.path} ${d.code} ${d.message}`).sort(), want.config);
    assert.ok(
      want.config.some((c) => c.startsWith("tests/tsconfig.json TS2688 ")),
      want.config.join(),
    );
    assert.ok(want.config.some((c) => c.startsWith("packages/app/tsconfig.json TS6053 ")));
    // TS2688 sits at the `types` entry, the extends problem at the `extends` value.
    const types = configs.find((d) => d.code === "TS2688")!;
    const text = Deno.readTextFileSync(`${root}/tests/tsconfig.json`).split("\n");
    assert.equal(text[types.line - 1].indexOf('"vitest/globals"') + 1, types.column);
    const extend = configs.find((d) => d.code === "TS6053")!;
    assert.deepEqual([extend.line, extend.column], [2, 14]);
    // The counts come first: one line by code, one by file.
    const lines = got.text.split("\n");
    assert.match(lines[0], new RegExp(`^${list.length} diagnostics in \\d+ files; `));
    assert.match(lines[0], /in 3 projects \(packages\/app\/tsconfig\.json, packages\/core/);
    assert.match(lines[1], /^By code: TS2322 ×2, TS2593 ×1, TS2688 ×1, TS6053 ×1$/);
    assert.match(lines[2], /^By file: /);
    assert.deepEqual(got.structured.projects, PROJECTS);
    assert.equal(got.structured.partial, undefined);
  } finally {
    await server.close();
    await dispose();
  }
});

Deno.test("monorepo diagnostics: page 2 asked twice is the same slice of one answer; a time-limited call is partial with no offset", async () => {
  const { root, dispose } = await makeMonorepo();
  const server = await SemanticServer.start(root);
  try {
    const all = await server.ok("diagnostics", { head_limit: 0 });
    const first = await server.ok("diagnostics", { head_limit: 2 });
    assert.equal(first.structured.next_offset, 2);
    const second = await server.ok("diagnostics", { head_limit: 2, offset: 2 });
    const again = await server.ok("diagnostics", { head_limit: 2, offset: 2 });
    assert.deepEqual(again.structured, second.structured);
    assert.deepEqual(
      second.structured.diagnostics,
      (all.structured.diagnostics as unknown[]).slice(2, 4),
    );
    // A change is seen: the kept answer is not used once a file changed.
    Deno.writeTextFileSync(`${root}/packages/app/src/main.ts`, "export const fine = 1;\n");
    const changed = await server.ok("diagnostics", { head_limit: 0 });
    assert.ok(
      (changed.structured.diagnostics as Entry[]).every((d) =>
        d.path !== "packages/app/src/main.ts"
      ),
    );
    // A limit so small it stops at the first file: partial, said why, no next offset (a file
    // changed, so the kept answer is not the one given).
    Deno.writeTextFileSync(`${root}/packages/app/src/main.ts`, "export const fine = 2;\n");
    const cut = await server.ok("diagnostics", { head_limit: 1, timeout_s: 0.000001 });
    assert.equal(cut.structured.partial, true);
    assert.match(String(cut.structured.reason), /time limit/);
    assert.equal(cut.structured.next_offset, undefined);
    assert.match(cut.text, /\nStopped at the time limit /);
  } finally {
    await server.close();
    await dispose();
  }
});
