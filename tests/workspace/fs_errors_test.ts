import assert from "node:assert/strict";
import { fsErrorReason, fsFailureSentence, mappedCodes } from "../../lib/workspace/fs_errors.ts";

const ROOT = "/srv/work";
const CODES = [
  "ENAMETOOLONG",
  "ELOOP",
  "EROFS",
  "ENOSPC",
  "EDQUOT",
  "EACCES",
  "EISDIR",
  "ENOTDIR",
  "EXDEV",
  "EMFILE",
];

function osError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

Deno.test("fs errors: every code of the contract is one sentence naming the code, for every tool family", () => {
  for (const code of CODES) assert.ok(mappedCodes().includes(code), code);
  const tools = ["read_file", "grep", "list_dir", "edit_file", "git_log", "outline", "move_file"];
  for (const code of CODES) {
    for (const tool of tools) {
      const error = osError(code, `Some text (os error 1): open '${ROOT}/src/a.ts'`);
      const sentence = fsFailureSentence(tool, error, { root: ROOT, args: { path: "src/a.ts" } });
      assert.ok(sentence !== null, `${tool} ${code}`);
      assert.match(sentence, new RegExp(`^Cannot [a-z ]+ "src/a\\.ts": .*\\(${code}\\)`));
      assert.doesNotMatch(sentence, /\n|\.$/);
      assert.ok(!sentence.includes(ROOT), sentence);
    }
  }
});

Deno.test("fs errors: a rename names its destination inside the root, never a temp file or an outside path", () => {
  const rename = osError(
    "ENAMETOOLONG",
    `File name too long (os error 36): rename '${ROOT}/.shipcode-write-1-abcd.tmp' -> '${ROOT}/d/${
      "n".repeat(300)
    }'`,
  );
  const sentence = fsFailureSentence("write_file", rename, { root: ROOT, args: { path: "x" } })!;
  assert.match(sentence, /^Cannot write "d\/n{198}…": a name in the path is longer/);
  const outside = osError("EACCES", "Permission denied (os error 13): open '/etc/shadow'");
  assert.equal(
    fsFailureSentence("read_file", outside, { root: ROOT, args: { file_path: "notes.txt" } }),
    'Cannot read "notes.txt": the file system denied access (EACCES); check the file\'s permissions',
  );
});

Deno.test("fs errors: errors without a known errno are not mapped", () => {
  assert.equal(fsErrorReason(new Error("boom")), null);
  assert.equal(fsErrorReason(osError("EWEIRD", "x")), null);
  assert.equal(fsErrorReason("ENOSPC"), null);
});
