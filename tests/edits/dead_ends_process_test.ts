/**
 * Edits without dead ends, through the real server (docs/tools.md "edit_file", "write_file",
 * "Read before write"): what an edit reports is what the bytes on disk say, a final newline
 * changes when the edit asks for it, an edit that changes nothing is an error, misses caused by
 * line endings or read_file's line-number prefix are named with the text to send, and the lines
 * an edit changes must have been shown (by read_file, grep or find_references) for the current
 * version of the file.
 */
import assert from "node:assert/strict";
import { makeTree } from "../helpers/fixture.ts";
import { ToolProcess } from "../helpers/tool_process.ts";

function bytesOf(root: string, rel: string): string {
  return new TextDecoder().decode(Deno.readFileSync(`${root}/${rel}`));
}

async function withServer(
  tree: Record<string, string>,
  fn: (p: ToolProcess, root: string) => Promise<void>,
): Promise<void> {
  const { root, dispose } = await makeTree(tree);
  const p = await ToolProcess.start(root, ["--write"]);
  try {
    await fn(p, root);
  } finally {
    await p.stop();
    await dispose();
  }
}

Deno.test("edit_file process: old_string ending the file decides its final newline, and the diff says so", async () => {
  await withServer({ "a.ts": "function f() {\n  return 1;\n}\n" }, async (p, root) => {
    await p.call("read_file", { path: "a.ts" });
    const r = await p.call("edit_file", {
      path: "a.ts",
      old_string: "}\n",
      new_string: "}\n\n// end",
    });
    assert.equal(r.isError, false, r.text);
    assert.equal(bytesOf(root, "a.ts"), "function f() {\n  return 1;\n}\n\n// end");
    assert.equal(
      r.structured!.diff,
      "--- a/a.ts\n+++ b/a.ts\n@@ -1,3 +1,5 @@\n function f() {\n   return 1;\n }\n+\n+// end\n" +
        "\\ No newline at end of file",
    );
    assert.match(r.text, /^Edited a\.ts: 1 replacement \(\+2 -0 lines\)/);
    // And back: the old_string that ends the file without a newline, a new_string with one.
    const back = await p.call("edit_file", {
      path: "a.ts",
      old_string: "\n\n// end",
      new_string: "\n",
    });
    assert.equal(back.isError, false, back.text);
    assert.equal(bytesOf(root, "a.ts"), "function f() {\n  return 1;\n}\n");
    assert.match(back.structured!.diff as string, /-\/\/ end\n\\ No newline at end of file$/);
  });
});

Deno.test("edit_file process: an edit that would leave the bytes as they are is an error", async () => {
  await withServer({ "crlf.txt": "one\r\ntwo\r\n" }, async (p, root) => {
    await p.call("read_file", { path: "crlf.txt" });
    const r = await p.call("edit_file", {
      path: "crlf.txt",
      old_string: "one\r\n",
      new_string: "one\n",
    });
    assert.equal(r.isError, true);
    assert.equal(
      r.text,
      "Editing crlf.txt would change nothing on disk: old_string and new_string differ only in " +
        "line endings, and the file keeps its CRLF; nothing was written",
    );
    assert.equal(bytesOf(root, "crlf.txt"), "one\r\ntwo\r\n");
    const same = await p.call("write_file", { path: "crlf.txt", content: "one\ntwo\n" });
    assert.equal(same.isError, true);
    assert.match(same.text, /^Writing crlf\.txt would change nothing on disk/);
  });
});

Deno.test("edit_file process: a miss explained by mixed line endings names the exact text to send", async () => {
  await withServer({ "mixed.txt": "alpha\r\nbeta\ngamma\r\n" }, async (p, root) => {
    const shown = await p.call("read_file", { path: "mixed.txt" });
    assert.equal(shown.structured!.text, "     1\talpha\n     2\tbeta\n     3\tgamma");
    const miss = await p.call("edit_file", {
      path: "mixed.txt",
      old_string: "alpha\nbeta\n",
      new_string: "ALPHA\nBETA\n",
    });
    assert.equal(miss.isError, true);
    assert.equal(
      miss.text,
      "old_string differs from mixed.txt only in line endings (the file mixes CRLF and LF line " +
        'endings, and read_file does not show the CR); send old_string exactly as "alpha\\r\\nbeta\\n"',
    );
    const ok = await p.call("edit_file", {
      path: "mixed.txt",
      old_string: "alpha\r\nbeta\n",
      new_string: "ALPHA\r\nBETA\n",
    });
    assert.equal(ok.isError, false, ok.text);
    assert.equal(bytesOf(root, "mixed.txt"), "ALPHA\r\nBETA\ngamma\r\n");
  });
});

Deno.test("edit_file process: old_string carrying read_file's line-number prefix gets an error naming it", async () => {
  await withServer({ "p.py": "def f():\n    return 1\n" }, async (p) => {
    await p.call("read_file", { path: "p.py" });
    const r = await p.call("edit_file", {
      path: "p.py",
      old_string: "     2\t    return 1",
      new_string: "    return 2",
    });
    assert.equal(r.isError, true);
    assert.equal(
      r.text,
      `old_string starts its lines with read_file's line-number prefix ("     2\\t"); send only ` +
        `the text after each line's tab, here "    return 1"`,
    );
  });
});

Deno.test("edit_file process: only lines shown for the current version may be edited, and the refusal names them", async () => {
  const lines = Array.from({ length: 80 }, (_, i) => `line ${i + 1}`);
  await withServer({ "big.txt": lines.join("\n") + "\n" }, async (p, root) => {
    // A one-line read shows line 1, not line 70.
    await p.call("read_file", { path: "big.txt", limit: 1 });
    const refused = await p.call("edit_file", {
      path: "big.txt",
      old_string: "line 68\nline 69\nline 70\n",
      new_string: "",
    });
    assert.equal(refused.isError, true);
    assert.equal(
      refused.text,
      "Read lines 68-70 of big.txt first (read_file with offset=68 and limit=3): an edit may " +
        "change only lines this session was shown since the file last changed",
    );
    // grep content with context shows 68-70: that is enough.
    const grep = await p.call("grep", {
      pattern: "^line 69$",
      output_mode: "content",
      "-C": 1,
    });
    assert.equal(grep.text, "big.txt-68-line 68\nbig.txt:69:line 69\nbig.txt-70-line 70");
    const ok = await p.call("edit_file", {
      path: "big.txt",
      old_string: "line 68\nline 69\nline 70\n",
      new_string: "",
    });
    assert.equal(ok.isError, false, ok.text);
    // After a write the session has seen the new content: another edit needs no read.
    const again = await p.call("edit_file", {
      path: "big.txt",
      old_string: "line 5\n",
      new_string: "",
    });
    assert.equal(again.isError, false, again.text);
    // Changed behind the server's back: every line must be read again.
    Deno.writeTextFileSync(`${root}/big.txt`, "changed\n");
    const stale = await p.call("edit_file", {
      path: "big.txt",
      old_string: "changed",
      new_string: "x",
    });
    assert.equal(stale.text, "big.txt changed since it was read; read it again");
  });
});

Deno.test("write_file process: replacing needs every line shown, and its diff is a bounded summary", async () => {
  const old = Array.from({ length: 3000 }, (_, i) => `old line ${i + 1}`).join("\n") + "\n";
  await withServer({ "w.txt": old }, async (p, root) => {
    await p.call("read_file", { path: "w.txt", limit: 2000 });
    const content = "new\n";
    const refused = await p.call("write_file", { path: "w.txt", content });
    assert.equal(refused.isError, true);
    assert.equal(
      refused.text,
      "Read lines 2001-3000 of w.txt first (read_file with offset=2001 and limit=1000): " +
        "write_file replaces the whole file, so every line of it must have been shown in this session",
    );
    await p.call("read_file", { path: "w.txt", offset: 2001 });
    const r = await p.call("write_file", { path: "w.txt", content });
    assert.equal(r.isError, false, r.text);
    assert.equal(bytesOf(root, "w.txt"), content);
    assert.ok(
      (r.structured!.diff as string).length <= 4_100,
      `${(r.structured!.diff as string).length}`,
    );
    assert.match(r.text, /^Replaced w\.txt \(4 bytes, \+1 -3000 lines\)\n--- a\/w\.txt/);
    assert.match(r.text, /\[\.\.\. \d+ more diff lines; \+1 -3000 lines in all\]$/);
  });
});

Deno.test("edit_file process: find_references lines count as shown", async () => {
  const body = Array.from({ length: 40 }, (_, i) => `const v${i} = ${i};`).join("\n");
  await withServer(
    { "r.ts": `${body}\nexport function target() {}\nconst use = target();\n` },
    async (p, root) => {
      const refs = await p.call("find_references", { name: "target" });
      assert.equal(refs.isError, false, refs.text);
      const ok = await p.call("edit_file", {
        path: "r.ts",
        old_string: "const use = target();",
        new_string: "const use = target() + 1;",
      });
      assert.equal(ok.isError, false, ok.text);
      assert.match(bytesOf(root, "r.ts"), /const use = target\(\) \+ 1;\n$/);
    },
  );
});

Deno.test("edit_file process: a file never shown is refused naming the lines the edit changes", async () => {
  const body = Array.from({ length: 40 }, (_, i) => `const v${i} = ${i};`).join("\n");
  await withServer({ "n.ts": `${body}\nexport const last = 1;\n` }, async (p) => {
    const r = await p.call("edit_file", {
      path: "n.ts",
      old_string: "export const last = 1;",
      new_string: "export const last = 2;",
    });
    assert.equal(r.isError, true);
    assert.equal(
      r.text,
      "Read line 41 of n.ts first (read_file with offset=41 and limit=1): an edit may change " +
        "only lines this session was shown since the file last changed",
    );
  });
});

Deno.test("edit_file process: go_to_definition, find_symbol and outline lines count as shown", async () => {
  const body = Array.from({ length: 40 }, (_, i) => `const v${i} = ${i};`).join("\n");
  await withServer(
    {
      "lib.ts": `${body}\nexport function camelize(s: string): string {\n  return s;\n}\n`,
      "use.ts": `import { camelize } from "./lib.ts";\nexport const x = camelize("a-b");\n`,
      "tool.py": `${body.replaceAll("const ", "")}\ndef helper(n):\n    return n\n`,
    },
    async (p, root) => {
      const def = await p.call("go_to_definition", { path: "use.ts", line: 2, name: "camelize" });
      assert.equal(def.isError, false, def.text);
      assert.match(def.text, /^lib\.ts:41:17: export function camelize/);
      // Only the line shown: the body below it was not.
      const below = await p.call("edit_file", {
        path: "lib.ts",
        old_string: "  return s;",
        new_string: "  return s.trim();",
      });
      assert.match(below.text, /^Read line 42 of lib\.ts first/);
      const ok = await p.call("edit_file", {
        path: "lib.ts",
        old_string: "export function camelize(s: string): string {",
        new_string: 'export function camelize(s: string, _sep = "-"): string {',
      });
      assert.equal(ok.isError, false, ok.text);
      assert.match(bytesOf(root, "lib.ts"), /camelize\(s: string, _sep = "-"\)/);
      const sym = await p.call("find_symbol", { name: "helper" });
      assert.equal(sym.isError, false, sym.text);
      assert.match(sym.text, /^tool\.py:41: function helper/);
      const py = await p.call("edit_file", {
        path: "tool.py",
        old_string: "def helper(n):",
        new_string: "def helper(n, m=0):",
      });
      assert.equal(py.isError, false, py.text);
      // outline's symbol lines count too (their first line, while it holds the name).
      const outline = await p.call("outline", { path: "use.ts" });
      assert.equal(outline.isError, false, outline.text);
      const x = await p.call("edit_file", {
        path: "use.ts",
        old_string: 'export const x = camelize("a-b");',
        new_string: 'export const x = camelize("c-d");',
      });
      assert.equal(x.isError, false, x.text);
    },
  );
});
