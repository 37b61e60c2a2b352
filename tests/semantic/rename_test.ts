/**
 * rename_symbol through the real process: with --write the files on disk equal TypeScript's own
 * rename edits applied, byte for byte (CRLF, BOM and mode kept); a file changed just before the
 * call is renamed as it is now; every refusal changes nothing. The batch writer itself is all or
 * none when a file changed since the rename was computed.
 */
import assert from "node:assert/strict";
import { makeProject, PROJECT } from "./fixture.ts";
import { Oracle } from "./oracle.ts";
import { SemanticServer } from "./server.ts";
import { makeTree } from "../helpers/fixture.ts";
import { Workspace } from "../../lib/workspace/workspace.ts";
import { EditSession } from "../../lib/edits/edit_session.ts";
import { BatchRefusal, writeBatch } from "../../lib/edits/batch_write.ts";

/** Every file of the tree below `root` (root-relative path -> bytes). */
function snapshot(root: string, dir = ""): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  for (const entry of Deno.readDirSync(`${root}/${dir}`)) {
    const rel = dir === "" ? entry.name : `${dir}/${entry.name}`;
    if (entry.isDirectory) { for (const [k, v] of snapshot(root, rel)) out.set(k, v); }
    else if (entry.isFile) out.set(rel, Deno.readFileSync(`${root}/${rel}`));
  }
  return out;
}

const encoder = new TextEncoder();

Deno.test("rename_symbol --write: the files equal the language service's edits applied, byte for byte", async () => {
  const { root, dispose } = await makeProject();
  Deno.chmodSync(`${root}/src/crlf.ts`, 0o640);
  const oracle = new Oracle(root, "tsconfig.json");
  const want = oracle.renamed("src/lib/shapes.ts", 9, 17, "resize");
  const before = snapshot(root);
  const server = await SemanticServer.start(root, ["--write"]);
  try {
    const got = await server.ok("rename_symbol", {
      path: "src/lib/shapes.ts",
      line: 9,
      name: "scale",
      new_name: "resize",
    });
    assert.equal(got.structured.applied, true);
    const files = (got.structured.files as Array<{ path: string }>).map((f) => f.path);
    assert.deepEqual(files, [...want.keys()].sort());
    assert.ok(files.includes("src/crlf.ts") && files.includes("src/bom.ts"), files.join());
    const after = snapshot(root);
    for (const [rel, bytes] of after) {
      const expected = want.get(rel);
      if (expected === undefined) {
        assert.deepEqual(bytes, before.get(rel), `${rel} must not change`);
        continue;
      }
      const bom = (PROJECT[rel] as string).startsWith("\uFEFF") ? "\uFEFF" : "";
      assert.deepEqual(bytes, encoder.encode(bom + expected), rel);
    }
    assert.equal(Deno.statSync(`${root}/src/crlf.ts`).mode! & 0o777, 0o640);
    assert.ok(new TextDecoder().decode(after.get("src/crlf.ts")).includes("resize(10);\r\n"));
    // The next question sees the renamed files: the definition is now called resize.
    const def = await server.ok("go_to_definition", {
      path: "src/use.ts",
      line: 8,
      name: "resize",
    });
    assert.match(def.text, /^src\/lib\/shapes\.ts:9:17: export function resize\(/);
    // And a file changed on disk before the call is renamed as it is now.
    await Deno.writeTextFile(
      `${root}/src/bom.ts`,
      '\uFEFFimport { resize } from "./lib/shapes";\nexport const fromBom = resize(5) + resize(6);\n',
    );
    const again = await server.ok("rename_symbol", {
      path: "src/lib/shapes.ts",
      line: 9,
      name: "resize",
      new_name: "grow",
    });
    assert.equal(
      Deno.readTextFileSync(`${root}/src/bom.ts`),
      '\uFEFFimport { grow } from "./lib/shapes";\nexport const fromBom = grow(5) + grow(6);\n',
    );
    assert.equal(again.structured.applied, true);
  } finally {
    await server.close();
    await dispose();
  }
});

Deno.test("rename_symbol: refusals change nothing and say why", async () => {
  const { root, dispose } = await makeProject();
  await Deno.writeTextFile(`${root}/.ignore`, "node_modules/\ngenerated/\n");
  await Deno.mkdir(`${root}/src/generated`);
  await Deno.writeTextFile(
    `${root}/src/generated/uses.ts`,
    'import { scale } from "../lib/shapes";\nexport const generated = scale(4);\n',
  );
  // A served file imports the ignored one, so the program holds it.
  await Deno.writeTextFile(
    `${root}/src/gen_user.ts`,
    'import { generated } from "./generated/uses";\nexport const user = generated;\n',
  );
  const before = snapshot(root);
  const readOnly = await SemanticServer.start(root);
  const writing = await SemanticServer.start(root, ["--write"]);
  try {
    const cases: Array<[SemanticServer, Record<string, unknown>, RegExp]> = [
      [
        readOnly,
        { path: "src/use.ts", line: 5, name: "radius", new_name: "r", dry_run: false },
        /--write/,
      ],
      [
        writing,
        { path: "src/use.ts", line: 11, name: "map", new_name: "mapped" },
        /standard TypeScript library/,
      ],
      [
        writing,
        { path: "src/use.ts", line: 10, name: "pkgHelper", new_name: "helper" },
        /node_modules/,
      ],
      [
        writing,
        { path: "src/use.ts", line: 5, name: "radius", new_name: "class" },
        /reserved word/,
      ],
      [
        writing,
        { path: "src/use.ts", line: 5, name: "radius", new_name: "1radius" },
        /valid identifier/,
      ],
      [
        writing,
        { path: "src/use.ts", line: 5, name: "radius", new_name: "a-b" },
        /valid identifier/,
      ],
      [writing, { path: "src/use.ts", line: 5, name: "radius", new_name: "" }, /valid identifier/],
      [
        writing,
        { path: "src/use.ts", line: 5, name: "circle", new_name: "x" },
        /not on line 5.*nearest occurrence: line 7, column 14/,
      ],
      [
        writing,
        { path: "src/lib/shapes.ts", line: 9, name: "scale", new_name: "resize" },
        /src\/generated\/uses\.ts.*may not write/,
      ],
      [
        writing,
        { path: "tsconfig.json", line: 2, name: "extends", new_name: "x" },
        /works on TypeScript\/JavaScript or Python files/,
      ],
    ];
    for (const [server, args, message] of cases) {
      const got = await server.call("rename_symbol", args);
      assert.equal(got.isError, true, `${JSON.stringify(args)}: ${got.text}`);
      assert.match(got.text, message, JSON.stringify(args));
    }
    const generated = await readOnly.call("rename_symbol", {
      path: "src/lib/shapes.ts",
      line: 9,
      name: "scale",
      new_name: "resize",
    });
    assert.equal(
      generated.isError,
      true,
      "a dry run that would touch an ignored file is refused too",
    );
    assert.deepEqual(snapshot(root), before);
  } finally {
    await readOnly.close();
    await writing.close();
    await dispose();
  }
});

Deno.test("batch write: a file changed since the change was computed refuses the whole batch, nothing written", async () => {
  const { root, dispose } = await makeTree({
    "a.ts": "export const one = 1;\n",
    "b.ts": "import { one } from './a';\nexport const two = one + 1;\n",
    "c.ts": "import { one } from './a';\nexport const three = one + 2;\n",
  });
  try {
    const ws = Workspace.openSync({ root, noIgnore: false, allowSecrets: false });
    const edits = new EditSession();
    const files = ["a.ts", "b.ts", "c.ts"].map((rel) => {
      const text = Deno.readTextFileSync(`${root}/${rel}`);
      return { rel, before: text, after: text.replaceAll("one", "uno") };
    });
    // c.ts changes after the rename was computed.
    await Deno.writeTextFile(
      `${root}/c.ts`,
      "import { one } from './a';\nexport const three = one + 3;\n",
    );
    const before = snapshot(root);
    await assert.rejects(
      writeBatch(ws, edits, files, { verb: "rename in", maxBytes: 1 << 20 }),
      (e: Error) =>
        e instanceof BatchRefusal && /"c\.ts" changed on disk.*nothing was changed/.test(e.message),
    );
    assert.deepEqual(snapshot(root), before);
    assert.deepEqual([...Deno.readDirSync(root)].map((e) => e.name).sort(), [
      "a.ts",
      "b.ts",
      "c.ts",
    ]);
    // Unchanged, the same batch is written whole.
    files[2].before = Deno.readTextFileSync(`${root}/c.ts`);
    files[2].after = files[2].before.replaceAll("one", "uno");
    await writeBatch(ws, edits, files, { verb: "rename in", maxBytes: 1 << 20 });
    for (const f of files) assert.equal(Deno.readTextFileSync(`${root}/${f.rel}`), f.after);
  } finally {
    await dispose();
  }
});

/** A tree where `camelize` is imported under an alias, plainly, and in many files. */
function aliasTree(uses: number): Record<string, string> {
  const tree: Record<string, string> = {
    "src/general.ts": "export function camelize(text: string): string {\n  return text;\n}\n",
    "src/style.ts": 'import { camelize as toCamelCase } from "./general";\n\n' +
      'export const a = toCamelCase("x");\nexport const b = toCamelCase("y");\n',
    "src/plain.ts": 'import { camelize } from "./general";\n\nexport const c = camelize("z");\n',
  };
  for (let k = 0; k < uses; k++) {
    tree[`src/use_${String(k).padStart(2, "0")}.ts`] =
      `import { camelize } from "./general";\n\nexport const v${k} = camelize("${k}");\n`;
  }
  return tree;
}

Deno.test("rename_symbol at a use of an aliased import: only the alias is renamed, as the language service does, and the answer names the untouched declaration and how to rename it", async () => {
  const tree = await makeTree(aliasTree(0));
  const oracle = new Oracle(tree.root, null, ["src/general.ts", "src/style.ts", "src/plain.ts"]);
  const want = oracle.renamed("src/style.ts", 3, 18, "toCamel");
  const server = await SemanticServer.start(tree.root);
  try {
    const got = await server.ok("rename_symbol", {
      path: "src/style.ts",
      line: 3,
      name: "toCamelCase",
      new_name: "toCamel",
    });
    const files = (got.structured.files as Array<{ path: string }>).map((f) => f.path);
    assert.deepEqual(files, [...want.keys()].sort());
    assert.deepEqual(files, ["src/style.ts"]);
    const note = got.structured.note as string;
    assert.match(
      note,
      /declaration of camelize \(src\/general\.ts:1\) and its other uses are untouched/,
    );
    assert.match(
      note,
      /call rename_symbol at the declaration \(path "src\/general\.ts", line 1, name "camelize"\)/,
    );
    assert.ok(got.text.includes(note), got.text);
    // At the declaration, every file follows and nothing is said to be untouched.
    const all = await server.ok("rename_symbol", {
      path: "src/general.ts",
      line: 1,
      name: "camelize",
      new_name: "toCamel",
    });
    assert.equal(all.structured.note, undefined);
    assert.deepEqual(
      (all.structured.files as Array<{ path: string }>).map((f) => f.path),
      [...oracle.renamed("src/general.ts", 1, 17, "toCamel").keys()].sort(),
    );
    // A plain import renamed at its use becomes `camelize as toCamel` there: said the same way.
    const plain = await server.ok("rename_symbol", {
      path: "src/plain.ts",
      line: 3,
      name: "camelize",
      new_name: "toCamel",
    });
    assert.match(plain.structured.note as string, /declaration of camelize \(src\/general\.ts:1\)/);
  } finally {
    await server.close();
    await tree.dispose();
  }
});

/** The diff lines of a page, without the last line that says more follow. */
function pageLines(diff: string): string[] {
  const lines = diff.split("\n");
  return lines[lines.length - 1].startsWith("[... ") ? lines.slice(0, -1) : lines;
}

Deno.test("rename_symbol: a dry run's diff over the budget is paged with diff_offset, and the pages make the whole diff of every file", async () => {
  const tree = await makeTree(aliasTree(40));
  const whole = await SemanticServer.start(tree.root, ["--max-output-chars", "0"]);
  const paged = await SemanticServer.start(tree.root, ["--max-output-chars", "1000"]);
  const at = { path: "src/general.ts", line: 1, name: "camelize", new_name: "toCamel" };
  try {
    const full = await whole.ok("rename_symbol", at);
    const diff = full.structured.diff as string;
    assert.equal(full.structured.diff_next_offset, undefined);
    assert.ok(diff.length > 4000, `a diff of ${diff.length} characters`);
    const lines: string[] = [];
    let offset = 0;
    let pages = 0;
    for (;;) {
      const got = await paged.ok("rename_symbol", { ...at, diff_offset: offset });
      pages++;
      assert.equal(got.structured.total_edits, full.structured.total_edits);
      lines.push(...pageLines(got.structured.diff as string));
      const next = got.structured.diff_next_offset as number | undefined;
      if (next === undefined) break;
      assert.match(got.text, new RegExp(`call rename_symbol again with diff_offset: ${next} for`));
      assert.equal(next, offset + pageLines(got.structured.diff as string).length);
      offset = next;
    }
    assert.ok(pages > 1, "the diff took one page");
    assert.equal(lines.join("\n"), diff);
    for (const f of full.structured.files as Array<{ path: string }>) {
      assert.ok(diff.includes(`+++ b/${f.path}`) || diff.includes(f.path), f.path);
    }
    const past = await paged.call("rename_symbol", { ...at, diff_offset: 100_000 });
    assert.equal(past.isError, true);
    assert.match(past.text, /diff_offset 100000 is past the end of the diff/);
  } finally {
    await whole.close();
    await paged.close();
    await tree.dispose();
  }
});

Deno.test("rename_symbol --write: the whole diff comes in the answer, however far over the budget", async () => {
  const tree = await makeTree(aliasTree(40));
  const server = await SemanticServer.start(tree.root, ["--write", "--max-output-chars", "1000"]);
  try {
    const at = { path: "src/general.ts", line: 1, name: "camelize", new_name: "toCamel" };
    const refused = await server.call("rename_symbol", { ...at, dry_run: false, diff_offset: 5 });
    assert.equal(refused.isError, true);
    assert.match(refused.text, /give dry_run: true with it/);
    const got = await server.ok("rename_symbol", at);
    assert.equal(got.structured.applied, true);
    assert.equal(got.structured.diff_next_offset, undefined);
    const diff = got.structured.diff as string;
    for (const f of got.structured.files as Array<{ path: string }>) {
      assert.ok(diff.includes(f.path), `${f.path} is in the diff`);
    }
    assert.equal((got.structured.files as unknown[]).length, 43);
  } finally {
    await server.close();
    await tree.dispose();
  }
});
