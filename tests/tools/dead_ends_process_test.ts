/**
 * Empty answers that are true and the smaller traps, through the real server (docs/tools.md):
 * long type names, a glob starting with `./`, a name spelled in the other Unicode normal form, a
 * grep match far into a long line, errors that say what the model can do, parameters a mode does
 * not use, and the Unicode version behind `\p{..}`.
 */
import assert from "node:assert/strict";
import { makeTree } from "../helpers/fixture.ts";
import { ToolProcess } from "../helpers/tool_process.ts";

const CAFE_NFC = "caf\u00e9.txt";
const CAFE_NFD = "cafe\u0301.txt";
const LONG = `${"x".repeat(5000)}NEEDLE${"y".repeat(3000)}`;
async function withServer(fn: (p: ToolProcess) => Promise<void>): Promise<void> {
  const { root, dispose } = await makeTree({
    "src/a.ts": "export const needle = 1;\n",
    "src/b.py": "needle = 2\n",
    [CAFE_NFC]: "au lait\n",
    "long.txt": `${LONG}\n`,
    ".env": "TOKEN=1\n",
    // U+1E5D0, a letter since Unicode 16.0 (Ol Onal).
    "letters.txt": "\u{1E5D0}\n",
  });
  const p = await ToolProcess.start(root, ["--write"]);
  try {
    await fn(p);
  } finally {
    await p.stop();
    await dispose();
  }
}

Deno.test("dead ends process: long and capitalised type names mean ripgrep's short ones; an unknown one is a short error", async () => {
  await withServer(async (p) => {
    for (const type of ["typescript", "TypeScript", "ts"]) {
      assert.equal((await p.call("grep", { pattern: "needle", type })).text, "src/a.ts", type);
    }
    assert.equal((await p.call("grep", { pattern: "needle", type: "python" })).text, "src/b.py");
    const unknown = await p.call("grep", { pattern: "needle", type: "typscript" });
    assert.equal(unknown.isError, true);
    assert.ok(unknown.text.length < 200, unknown.text);
    assert.match(unknown.text, /^Unknown file type "typscript"; .*\bts\b/);
  });
});

Deno.test("dead ends process: a glob starting with ./ means the folder searched", async () => {
  await withServer(async (p) => {
    assert.equal((await p.call("glob", { pattern: "./src/*.ts" })).text, "src/a.ts");
    assert.equal(
      (await p.call("grep", { pattern: "needle", glob: "./src/**" })).text,
      "src/a.ts\nsrc/b.py",
    );
    assert.equal(
      (await p.call("grep", { pattern: "needle", glob: "!./src/*.py" })).text,
      "src/a.ts",
    );
  });
});

Deno.test("dead ends process: a file name spelled in the other Unicode normal form is served", async () => {
  await withServer(async (p) => {
    const r = await p.call("read_file", { path: CAFE_NFD });
    assert.equal(r.isError, false, r.text);
    assert.equal(r.structured!.path, CAFE_NFC);
    assert.equal(r.structured!.text, "     1\tau lait");
    const missing = await p.call("read_file", { path: "cafe\u0301s.txt" });
    assert.equal(missing.isError, true);
    assert.match(missing.text, new RegExp(`did you mean ${CAFE_NFC}\\?`));
  });
});

Deno.test("dead ends process: a grep match past column 2000 is shown in a window around it", async () => {
  await withServer(async (p) => {
    const r = await p.call("grep", { pattern: "NEEDLE", output_mode: "content" });
    const line = r.text;
    assert.match(line, /^long\.txt:1:\[\.\.\. 4800 chars\] x{200}NEEDLE/);
    assert.ok(line.includes("NEEDLE"));
    assert.match(line, /\.\.\. \[\+1206 chars\]$/);
    // What the window shows counts as shown: the line can be edited without a read.
    const edit = await p.call("edit_file", {
      path: "long.txt",
      old_string: "xNEEDLEy",
      new_string: "xFOUNDy",
    });
    assert.equal(edit.isError, false, edit.text);
  });
});

Deno.test("dead ends process: refusals say what the model can do and leave server flags to the user", async () => {
  await withServer(async (p) => {
    const r = await p.call("read_file", { path: ".env" });
    assert.equal(
      r.text,
      'Cannot access ".env": secret files are not served (only the user can allow them, by ' +
        "restarting the server with --allow-secrets)",
    );
  });
});

Deno.test("dead ends process: parameters the mode does not use are refused in one sentence", async () => {
  await withServer(async (p) => {
    const grep = await p.call("grep", { pattern: "needle", "-C": 2 });
    assert.equal(grep.isError, true);
    assert.equal(
      grep.text,
      '-C shapes content lines; set output_mode to "content" or leave it out',
    );
    const count = await p.call("grep", {
      pattern: "needle",
      output_mode: "count",
      "-A": 1,
      "-n": false,
    });
    assert.equal(
      count.text,
      '-A, -n shape content lines; set output_mode to "content" or leave them out',
    );
    // -n: true restates the default: accepted.
    assert.equal(
      (await p.call("grep", { pattern: "needle", "-n": true, type: "ts" })).text,
      "src/a.ts",
    );
    const create = await p.call("edit_file", {
      path: "new.txt",
      old_string: "",
      new_string: "x",
      replace_all: true,
    });
    assert.equal(
      create.text,
      "replace_all needs a non-empty old_string (an empty one creates a file)",
    );
  });
});

Deno.test("dead ends process: \\p{..} classes follow V8's Unicode 16.0 tables", async () => {
  await withServer(async (p) => {
    const r = await p.call("grep", { pattern: "^\\pL$", output_mode: "content" });
    assert.equal(r.text, "letters.txt:1:\u{1E5D0}");
  });
});
