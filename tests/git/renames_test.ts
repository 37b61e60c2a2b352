/** Rename parsing for history that follows the file (docs/tools.md "Git tools"). */
import assert from "node:assert/strict";
import {
  otherSides,
  parseFollowRenames,
  parseNameStatus,
  renamesOf,
} from "../../lib/git/renames.ts";

const enc = (s: string) => new TextEncoder().encode(s);

Deno.test("renames: name-status -z entries with one or two paths", () => {
  const entries = parseNameStatus(enc("M\0a.txt\0R085\0old/x.py\0new/x.py\0D\0gone\0"));
  assert.deepEqual(entries, [
    { status: "M", path: "a.txt" },
    { status: "R", path: "new/x.py", from: "old/x.py" },
    { status: "D", path: "gone" },
  ]);
  assert.deepEqual(renamesOf(entries), [{ from: "old/x.py", to: "new/x.py" }]);
});

Deno.test("renames: the other side of a file or a folder", () => {
  const renames = [{ from: "requests/s.py", to: "src/requests/s.py" }, { from: "a", to: "b" }];
  assert.deepEqual(otherSides(renames, "src/requests/s.py"), ["requests/s.py"]);
  assert.deepEqual(otherSides(renames, "requests/s.py"), ["src/requests/s.py"]);
  assert.deepEqual(otherSides(renames, "src"), ["requests/s.py"]);
  assert.deepEqual(otherSides(renames, "c"), []);
});

Deno.test("renames: a followed log's renames, newest first, with their commits", () => {
  const c1 = "1".repeat(40);
  const c2 = "2".repeat(40);
  const out = `\x01${c1}\0\nM\0src/s.py\0\x01${c2}\0\nR100\0s.py\0src/s.py\0`;
  assert.deepEqual(parseFollowRenames(enc(out)), [{ commit: c2, from: "s.py", to: "src/s.py" }]);
});
