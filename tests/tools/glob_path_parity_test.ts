/**
 * A glob with `/` and a `path`: the glob matches the root-relative path, as `rg -g GLOB PATH`
 * run at the root does (`tests/test_tutorial/**` with path `tests` finds the files,
 * `test_tutorial/**` finds none), for grep's `glob` and the glob tool's `pattern` alike; when no
 * path under `path` can match, the answer says why and which glob would.
 */
import assert from "node:assert/strict";
import { globTool } from "../../lib/tools/glob.ts";
import { grepTool } from "../../lib/tools/grep.ts";
import { call, hasRipgrep, ripgrep, text, toolTest } from "./helpers.ts";

const TREE: Record<string, string> = {
  "tests/test_tutorial/a.py": "x\n",
  "tests/test_tutorial/sub/b.py": "x\n",
  "tests/test_tutorial/c.txt": "x\n",
  "tests/c.py": "x\n",
  "tests/sub/z.txt": "x\n",
  "docs/test_tutorial/x.py": "x\n",
  "src/tests/test_tutorial/y.py": "x\n",
  "test_tutorial/top.py": "x\n",
};

const CASES: [glob: string, path: string][] = [
  ["tests/test_tutorial/**", "tests"],
  ["tests/test_tutorial/**/*.py", "tests"],
  ["test_tutorial/**", "tests"],
  ["test_tutorial/**/*.py", "tests"],
  ["/tests/*.py", "tests"],
  ["tests/*", "tests"],
  ["tests/*", "tests/test_tutorial"],
  ["tests/**", "tests/test_tutorial"],
  ["**/test_tutorial/*.py", "tests"],
  ["*.py", "tests"],
  ["!tests/test_tutorial/**", "tests"],
  ["!test_tutorial/**", "tests"],
  ["!tests/", "tests"],
  ["!tests/test_tutorial/", "tests"],
  ["!test_tutorial/", "tests"],
  ["{tests,docs}/test_tutorial/*.py", "tests"],
  ["tests/{test_tutorial,sub}/*", "tests"],
  ["src/**", "src/tests"],
  ["tests/test_tutorial/**", "src"],
];

function sorted(lines: string[]): string[] {
  return lines.filter((l) => l !== "").sort();
}

toolTest(
  "glob with / and path: grep and glob find exactly what rg -g GLOB PATH finds (needs rg)",
  TREE,
  async (h) => {
    const failures: string[] = [];
    for (const [glob, path] of CASES) {
      const expected = sorted(
        ripgrep(h.root, ["--files", "--hidden", "-g", glob, path]).split("\n"),
      );
      const listed = await call(globTool, { pattern: glob, path, head_limit: 0 }, h);
      const globbed = sorted((listed.structuredContent as { files: string[] }).files);
      const grepped = await call(grepTool, { pattern: "x", glob, path, head_limit: 0 }, h);
      const found = sorted((grepped.structuredContent as { files: string[] }).files);
      for (const [tool, got] of [["glob", globbed], ["grep", found]] as const) {
        if (JSON.stringify(got) !== JSON.stringify(expected)) {
          failures.push(`${tool} ${glob} in ${path}: rg ${expected} ours ${got}`);
        }
      }
    }
    assert.deepEqual(failures, []);
  },
  {},
  !hasRipgrep(),
);

toolTest(
  "glob with / and path: finding nothing says why and names the glob that would",
  TREE,
  async (h) => {
    const note = 'No files searched: glob "test_tutorial/**" has a "/", so it matches paths from ' +
      'the workspace root (as rg -g does), and no path under "tests" can match it; use ' +
      '"tests/test_tutorial/**"';
    const grepped = await call(
      grepTool,
      { pattern: "x", glob: "test_tutorial/**", path: "tests" },
      h,
    );
    assert.equal(text(grepped), note);
    // Hosts that show structuredContent drop the text: the note is there too.
    assert.equal((grepped.structuredContent as { note?: string }).note, note);
    const listed = await call(globTool, { pattern: "test_tutorial/**", path: "tests" }, h);
    assert.equal(text(listed), note);
    assert.equal((listed.structuredContent as { note?: string }).note, note);
    // A glob that could match below path but finds nothing is an ordinary "nothing found".
    const none = await call(globTool, { pattern: "tests/test_tutorial/*.rs", path: "tests" }, h);
    assert.equal(text(none), "No files found");
    const noMatch = await call(grepTool, { pattern: "y", glob: "tests/**", path: "tests" }, h);
    assert.equal(text(noMatch), "No matches found");
  },
);

toolTest(
  "glob with / and path: a file named as path is searched whatever the glob, as rg does",
  TREE,
  async (h) => {
    const grepped = await call(grepTool, { pattern: "x", glob: "*.txt", path: "tests/c.py" }, h);
    assert.equal(text(grepped), "tests/c.py");
    const listed = await call(globTool, { pattern: "*.txt", path: "tests/c.py" }, h);
    assert.equal(text(listed), "tests/c.py");
  },
);
