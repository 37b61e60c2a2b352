import assert from "node:assert/strict";
import { grepTool } from "../../lib/tools/grep.ts";
import { call, hasRipgrep, ripgrep, text, toolTest } from "./helpers.ts";

const TREE: Record<string, string | Uint8Array> = {
  "src/a.ts": "import x from 'y';\nconst foo = 1;\nfunction Foo() {}\n// foo again\n",
  "src/b.tsx": "export const FOO = 2;\n",
  "src/deep/c.js": "var foo;\nvar bar;\n",
  "lib/d.py": "def foo():\n    return 'bar'\n",
  "-dash.txt": "-foo starts here\nno\n",
  ".hidden/h.md": "foo hidden\n",
  ".env": "SECRET=foo\n",
  "key.pem": "foo key\n",
  "bin.dat": new Uint8Array([102, 111, 111, 10, 0, 1, 2]),
  "crlf.txt": "foo\r\nbar\r\n",
};

function sc(result: { structuredContent?: Record<string, unknown> }) {
  return result.structuredContent as Record<string, unknown>;
}

toolTest("grep: files_with_matches lists sorted paths of text files", TREE, async (h) => {
  const r = await call(grepTool, { pattern: "foo" }, h);
  assert.equal(
    text(r),
    "-dash.txt\n.hidden/h.md\ncrlf.txt\nlib/d.py\nsrc/a.ts\nsrc/deep/c.js",
  );
  assert.equal(sc(r).total_files, 6);
  assert.equal(sc(r).total_matches, 7);
});

toolTest("grep: secret and binary files are never searched", TREE, async (h) => {
  const r = await call(grepTool, { pattern: "SECRET|key|\\x02" }, h);
  assert.equal(text(r), "No matches found");
});

toolTest("grep: content mode prints path:line:text", TREE, async (h) => {
  const r = await call(grepTool, { pattern: "foo", output_mode: "content", path: "src" }, h);
  assert.equal(
    text(r),
    "src/a.ts:2:const foo = 1;\nsrc/a.ts:4:// foo again\nsrc/deep/c.js:1:var foo;",
  );
  assert.deepEqual(sc(r).lines, text(r).split("\n"));
});

toolTest("grep: count mode prints path:N and nothing else ends in :digits", TREE, async (h) => {
  const r = await call(grepTool, { pattern: "foo", output_mode: "count", head_limit: 2 }, h);
  const lines = text(r).split("\n");
  assert.deepEqual(lines.slice(0, 2), ["-dash.txt:1", ".hidden/h.md:1"]);
  assert.equal(lines.length, 3);
  assert.doesNotMatch(lines[2], /:\d+$/);
  assert.deepEqual(sc(r).counts, ["-dash.txt:1", ".hidden/h.md:1"]);
});

toolTest("grep: -i matches regardless of case", TREE, async (h) => {
  const r = await call(grepTool, { pattern: "foo", "-i": true, path: "src" }, h);
  assert.equal(text(r), "src/a.ts\nsrc/b.tsx\nsrc/deep/c.js");
});

toolTest("grep: (?i) at the start works like -i", TREE, async (h) => {
  const r = await call(grepTool, { pattern: "(?i)foo", path: "src/b.tsx" }, h);
  assert.equal(text(r), "src/b.tsx");
});

toolTest("grep: -n false drops line numbers", TREE, async (h) => {
  const r = await call(grepTool, {
    pattern: "bar",
    output_mode: "content",
    "-n": false,
    path: "src",
  }, h);
  assert.equal(text(r), "src/deep/c.js:var bar;");
});

toolTest("grep: -A, -B and -C add context lines and -- separators", TREE, async (h) => {
  const after = await call(grepTool, {
    pattern: "import",
    output_mode: "content",
    "-A": 1,
    path: "src/a.ts",
  }, h);
  assert.equal(text(after), "src/a.ts:1:import x from 'y';\nsrc/a.ts-2-const foo = 1;");
  const before = await call(grepTool, {
    pattern: "Foo\\(",
    output_mode: "content",
    "-B": 1,
    path: "src/a.ts",
  }, h);
  assert.equal(text(before), "src/a.ts-2-const foo = 1;\nsrc/a.ts:3:function Foo() {}");
  const around = await call(grepTool, {
    pattern: "foo",
    output_mode: "content",
    "-C": 0,
    "-A": 0,
    path: "src",
  }, h);
  assert.equal(text(around).includes("--"), false);
  const both = await call(grepTool, {
    pattern: "^var",
    output_mode: "content",
    "-C": 1,
  }, h);
  assert.equal(both.content.length, 1);
  assert.equal(text(both), "src/deep/c.js:1:var foo;\nsrc/deep/c.js:2:var bar;");
});

toolTest("grep: -- separates files in context mode", TREE, async (h) => {
  const r = await call(grepTool, { pattern: "foo =|var foo", output_mode: "content", "-C": 1 }, h);
  assert.equal(
    text(r),
    [
      "src/a.ts-1-import x from 'y';",
      "src/a.ts:2:const foo = 1;",
      "src/a.ts-3-function Foo() {}",
      "--",
      "src/deep/c.js:1:var foo;",
      "src/deep/c.js-2-var bar;",
    ].join("\n"),
  );
});

toolTest("grep: glob keeps only matching files (basename at any depth)", TREE, async (h) => {
  const r = await call(grepTool, { pattern: "foo", glob: "*.{ts,js}" }, h);
  assert.equal(text(r), "src/a.ts\nsrc/deep/c.js");
});

toolTest(
  "grep: a glob with / matches the root-relative path, path or not (rg -g)",
  TREE,
  async (h) => {
    const r = await call(grepTool, { pattern: "foo", path: "src", glob: "src/deep/*.js" }, h);
    assert.equal(text(r), "src/deep/c.js");
  },
);

toolTest("grep: type keeps files of a ripgrep type", TREE, async (h) => {
  const r = await call(grepTool, { pattern: "foo", type: "py" }, h);
  assert.equal(text(r), "lib/d.py");
});

toolTest("grep: an unknown type is a short error naming close or common types", TREE, async (h) => {
  const r = await call(grepTool, { pattern: "foo", type: "nope" }, h);
  assert.equal(r.isError, true);
  assert.match(text(r), /^Unknown file type "nope"; ripgrep type names are short, e\.g\. .*\bts\b/);
  assert.ok(text(r).length < 200, text(r));
  const close = await call(grepTool, { pattern: "foo", type: "pyhton" }, h);
  assert.match(text(close), /e\.g\. py\b/);
});

toolTest(
  "grep: long type names (typescript, python, ...) mean their short forms",
  TREE,
  async (h) => {
    for (const type of ["python", "Python", "PY"]) {
      const r = await call(grepTool, { pattern: "foo", type }, h);
      assert.equal(text(r), "lib/d.py", type);
    }
  },
);

toolTest("grep: path may be a single file", TREE, async (h) => {
  const r = await call(grepTool, { pattern: "foo", path: "lib/d.py", output_mode: "count" }, h);
  assert.equal(text(r), "lib/d.py:1");
});

toolTest("grep: a path outside the root is refused", TREE, async (h) => {
  const r = await call(grepTool, { pattern: "foo", path: "../" }, h);
  assert.equal(r.isError, true);
  assert.match(text(r), /outside the workspace/);
  const abs = await call(grepTool, { pattern: "root", path: "/etc/passwd" }, h);
  assert.equal(abs.isError, true);
});

toolTest("grep: a secret path is refused", TREE, async (h) => {
  const r = await call(grepTool, { pattern: "foo", path: ".env" }, h);
  assert.equal(r.isError, true);
  assert.match(text(r), /secret/);
});

toolTest("grep: multiline matches across lines", TREE, async (h) => {
  const r = await call(grepTool, {
    pattern: "foo\\(\\):\\n.*return",
    multiline: true,
    output_mode: "content",
  }, h);
  assert.equal(text(r), "lib/d.py:1:def foo():\nlib/d.py:2:    return 'bar'");
});

toolTest("grep: without multiline a pattern never spans lines", TREE, async (h) => {
  const r = await call(grepTool, { pattern: "foo\\(\\):\\s+return" }, h);
  assert.equal(text(r), "No matches found");
});

toolTest("grep: fixed_strings matches metacharacters literally", TREE, async (h) => {
  const r = await call(grepTool, { pattern: "Foo() {}", fixed_strings: true }, h);
  assert.equal(text(r), "src/a.ts");
});

toolTest("grep: a pattern starting with - is a pattern", TREE, async (h) => {
  const r = await call(grepTool, { pattern: "-foo", output_mode: "content" }, h);
  assert.equal(text(r), "-dash.txt:1:-foo starts here");
});

toolTest("grep: an invalid regex is an error quoting the parser", TREE, async (h) => {
  const r = await call(grepTool, { pattern: "(foo" }, h);
  assert.equal(r.isError, true);
  assert.match(text(r), /^Invalid regex "\(foo": unclosed group/);
});

toolTest("grep: a POSIX class works as in ripgrep", TREE, async (h) => {
  const digits = await call(grepTool, { pattern: "[[:digit:]]", output_mode: "count" }, h);
  const plain = await call(grepTool, { pattern: "[0-9]", output_mode: "count" }, h);
  assert.notEqual(text(digits), "No matches found");
  assert.equal(text(digits), text(plain));
});

toolTest("grep: an unknown POSIX class is an error naming it", TREE, async (h) => {
  const r = await call(grepTool, { pattern: "[[:constructor:]]" }, h);
  assert.equal(r.isError, true);
  assert.match(text(r), /unknown POSIX class "\[:constructor:\]"/);
});

toolTest("grep: a CR before LF is not part of the line", TREE, async (h) => {
  const r = await call(grepTool, { pattern: "^foo$", output_mode: "content" }, h);
  assert.equal(text(r), "crlf.txt:1:foo");
});

toolTest("grep: head_limit and offset page through files", TREE, async (h) => {
  const first = await call(grepTool, { pattern: "foo", head_limit: 2 }, h);
  assert.equal(
    text(first),
    "-dash.txt\n.hidden/h.md\n[... 4 more files; call again with offset=2]",
  );
  assert.equal(sc(first).next_offset, 2);
  assert.equal(sc(first).truncated, true);
  const second = await call(grepTool, { pattern: "foo", head_limit: 2, offset: 2 }, h);
  assert.deepEqual(sc(second).files, ["crlf.txt", "lib/d.py"]);
  assert.equal(sc(second).total_files, 6);
});

toolTest("grep: head_limit 0 means every entry", TREE, async (h) => {
  const r = await call(grepTool, { pattern: "foo", head_limit: 0 }, h);
  assert.equal((sc(r).files as string[]).length, 6);
  assert.equal(sc(r).truncated, false);
});

const MANY: Record<string, string> = {};
for (let i = 0; i < 300; i++) MANY[`dir/file_${String(i).padStart(3, "0")}.txt`] = "needle\n";

toolTest("grep: without head_limit the result stays under the budget", MANY, async (h) => {
  h.ctx.config.maxOutputChars = 2000;
  const r = await call(grepTool, { pattern: "needle" }, h);
  const t = text(r);
  assert.ok(t.length <= 2000);
  assert.ok(JSON.stringify(r.structuredContent).length <= 2000);
  const shown = (sc(r).files as string[]).length;
  assert.equal(sc(r).next_offset, shown);
  assert.equal(sc(r).total_files, 300);
  assert.ok(t.endsWith(`[... ${300 - shown} more files; call again with offset=${shown}]`));
});

toolTest("grep: an explicit head_limit is honoured beyond the budget", MANY, async (h) => {
  h.ctx.config.maxOutputChars = 2000;
  const r = await call(grepTool, { pattern: "needle", head_limit: 250 }, h);
  assert.equal((sc(r).files as string[]).length, 250);
});

toolTest("grep: totals count every match even when the page is cut", MANY, async (h) => {
  const r = await call(grepTool, { pattern: "needle", output_mode: "content", head_limit: 3 }, h);
  assert.equal((sc(r).lines as string[]).length, 3);
  assert.equal(sc(r).total_matches, 300);
  assert.equal(sc(r).total_files, 300);
});

toolTest("grep: progress ends with the number of files scanned", MANY, async (h) => {
  await call(grepTool, { pattern: "needle" }, h);
  assert.equal(h.progress.at(-1), 300);
});

toolTest(
  "grep: .gitignore applies inside a git work tree, .ignore always",
  {
    ".git/HEAD": "ref: refs/heads/main\n",
    ".gitignore": "ignored.txt\n",
    "sub/.ignore": "hidden_by_ignore.txt\n",
    "ignored.txt": "foo\n",
    "sub/hidden_by_ignore.txt": "foo\n",
    "kept.txt": "foo\n",
  },
  async (h) => {
    const r = await call(grepTool, { pattern: "foo" }, h);
    assert.equal(text(r), "kept.txt");
  },
);

const SLOW: Record<string, string> = { "slow.txt": "a".repeat(40) + "b\n", "ok.txt": "aaa\n" };

toolTest("grep: a runaway regex is stopped and named", SLOW, async (h) => {
  h.ctx.config.regexTimeoutMs = 300;
  const r = await call(grepTool, { pattern: "(a+)+$", path: "slow.txt" }, h);
  assert.equal(r.isError, true);
  assert.match(text(r), /"slow\.txt"/);
  assert.match(text(r), /"\(a\+\)\+\$"/);
  const again = await call(grepTool, { pattern: "aaa", path: "ok.txt" }, h);
  assert.equal(text(again), "ok.txt");
});

toolTest("grep: cancellation stops a long search", SLOW, async (h) => {
  h.ctx.config.regexTimeoutMs = 600_000;
  const pending = call(grepTool, { pattern: "(a+)+$", path: "slow.txt" }, h);
  setTimeout(() => h.controller.abort(), 200);
  const r = await pending;
  assert.equal(r.isError, true);
  assert.equal(text(r), "The search was cancelled");
});

// ---- Agreement with ripgrep -------------------------------------------------------------
// rg runs with --crlf: our lines drop the CR before LF (docs/tools.md), which is what --crlf does.

const AGREE: Record<string, string | Uint8Array> = {
  "src/main.c": '#include <stdio.h>\nint main(void) {\n  printf("hello");\n  return 0;\n}\n',
  "src/util.h": "#define MAX_LEN 10\n#define MIN_LEN 2\nstatic int foo_bar;\n",
  "src/deep/x.py": "def foo(a, b):\n    return a + b\n\n\nclass Foo:\n    pass\n",
  "docs/readme.md": "# Title\n\nSome foo text.\n  indented foo\nEnd.\n",
  "docs/crlf.txt": "alpha\r\nbeta foo\r\ngamma\r\n",
  ".dot/conf": "key = value\nfoo = bar\n",
  "blob.bin": new Uint8Array([1, 2, 0, 102, 111, 111, 10]),
  "u.txt": "café foo\nnaïve\n",
};

const PATTERNS = [
  "foo",
  "(?i)FOO",
  "fo+\\b",
  "^\\s+return",
  "MAX_LEN|MIN_LEN|pass",
  "[A-Z]{3}",
  "\\bint\\b",
  "o$",
  "\\w{4}\\s+\\w{3}",
  "a\\.b|a \\+ b",
];

const RG = hasRipgrep();
if (!RG) {
  Deno.stderr.writeSync(
    new TextEncoder().encode(
      "SKIPPED: grep agreement tests need ripgrep (rg): apt-get install -y ripgrep\n",
    ),
  );
}

function sortedLines(out: string): string[] {
  return out.replaceAll("\r", "").split("\n").filter((l) => l !== "").sort();
}

toolTest(
  "grep: files and counts agree with ripgrep on a pattern table (needs rg)",
  AGREE,
  async (h) => {
    for (const pattern of PATTERNS) {
      const rg = ripgrep(h.root, ["-c", "--hidden", "-L", "--no-unicode", "--crlf", "-e", pattern]);
      const ours = await call(grepTool, { pattern, output_mode: "count", head_limit: 0 }, h);
      const got = ours.isError ? [] : (sc(ours).counts as string[]);
      assert.deepEqual([...got].sort(), sortedLines(rg), `counts for ${pattern}`);
    }
  },
  {},
  !RG,
);

toolTest(
  "grep: content with context agrees with ripgrep (needs rg)",
  AGREE,
  async (h) => {
    for (const pattern of PATTERNS) {
      for (const context of [0, 1]) {
        const rg = ripgrep(h.root, [
          "-n",
          "--no-heading",
          "--hidden",
          "-L",
          "--no-unicode",
          "--crlf",
          "--sort",
          "path",
          "-C",
          String(context),
          "-e",
          pattern,
        ]).replaceAll("\r\n", "\n").replaceAll("\r", "");
        const ours = await call(grepTool, {
          pattern,
          output_mode: "content",
          "-C": context,
          head_limit: 0,
        }, h);
        const got = ours.isError ? "" : (sc(ours).lines as string[]).join("\n");
        assert.equal(got, rg.trimEnd(), `content for ${pattern} -C${context}`);
      }
    }
  },
  {},
  !RG,
);

toolTest(
  "grep: files_with_matches agrees with ripgrep -l (needs rg)",
  AGREE,
  async (h) => {
    for (const pattern of PATTERNS) {
      const rg = ripgrep(h.root, ["-l", "--hidden", "-L", "--no-unicode", "--crlf", "-e", pattern]);
      const ours = await call(grepTool, { pattern, head_limit: 0 }, h);
      const got = ours.isError ? [] : (sc(ours).files as string[]);
      assert.deepEqual([...got].sort(), sortedLines(rg), `files for ${pattern}`);
    }
  },
  {},
  !RG,
);

toolTest("grep: a missing path suggests the nearest served paths", TREE, async (h) => {
  const r = await call(grepTool, { pattern: "foo", path: "src/deep/cc.js" }, h);
  assert.equal(r.isError, true);
  assert.match(
    text(r),
    /no such file or folder in the workspace; did you mean src\/deep\/c\.js\?$/,
  );
});

toolTest("grep: a named binary file is reported as skipped, not as no matches", {
  ...TREE,
  "late.bin": "foo line\n".repeat(40_000) + "\0tail\n",
}, async (h) => {
  for (const [path, at] of [["bin.dat", 4], ["late.bin", 360_000]] as const) {
    for (const output_mode of ["files_with_matches", "content", "count"]) {
      const r = await call(grepTool, { pattern: "foo", path, output_mode }, h);
      assert.notEqual(r.isError, true);
      assert.equal(
        text(r),
        `Skipped "${path}": it is a binary file (a NUL byte at offset ${at}), and grep searches text files only`,
      );
      assert.equal(sc(r).total_files, 0);
    }
  }
  const plain = await call(grepTool, { pattern: "nothing-here", path: "src/a.ts" }, h);
  assert.equal(text(plain), "No matches found");
});
