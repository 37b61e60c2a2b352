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
        /works on TypeScript\/JavaScript files/,
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
