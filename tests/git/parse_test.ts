/** The parsers of git's machine formats, on literal outputs (cases a fixture cannot easily make). */
import assert from "node:assert/strict";
import { parseStatus, statusHeader } from "../../lib/git/status.ts";
import { parseNumstat } from "../../lib/git/numstat.ts";
import { unquotePath, withholdSecrets } from "../../lib/git/diff_text.ts";
import { isoDate } from "../../lib/git/blame.ts";
import { decodeName } from "../../lib/git/names.ts";
import { guardState, parseConfigList } from "../../lib/git/config_guard.ts";
import { wholeFields } from "../../lib/tools/git_support.ts";

const enc = (s: string) => new TextEncoder().encode(s);
const W = "[secret file: content withheld]";

Deno.test("git status parse: the branch line of git status -sb in each state", () => {
  const line = (s: string) => statusHeader(parseStatus(enc(s)));
  assert.equal(line("# branch.oid (initial)\0# branch.head main\0"), "## No commits yet on main");
  assert.equal(line("# branch.oid abc\0# branch.head (detached)\0"), "## HEAD (no branch)");
  assert.equal(
    line("# branch.oid a\0# branch.head m\0# branch.upstream o/m\0# branch.ab +2 -3\0"),
    "## m...o/m [ahead 2, behind 3]",
  );
  assert.equal(
    line("# branch.oid a\0# branch.head m\0# branch.upstream o/m\0"),
    "## m...o/m [gone]",
  );
});

Deno.test("git status parse: a capped output loses only its cut entry", () => {
  const full = enc("1 .M N... 100644 100644 100644 a b one.txt\0? two.txt\0? three.txt\0");
  const cut = full.subarray(0, full.length - 5);
  const entries = parseStatus(wholeFields(cut, true)).entries;
  assert.deepEqual(entries, [{ path: "one.txt", status: " M" }, { path: "two.txt", status: "??" }]);
});

Deno.test("git status parse: names with control characters or bad UTF-8 are left out", () => {
  const bytes = new Uint8Array([...enc("? a\nb\0? ok\0? "), 0xff, 0]);
  const info = parseStatus(bytes);
  assert.deepEqual(info.entries, [{ path: "ok", status: "??" }]);
  assert.equal(info.skipped, 2);
  assert.equal(decodeName(enc("x\u2028y")), null);
});

Deno.test("git numstat parse: renames, binary files and plain counts", () => {
  const out = parseNumstat(
    enc("1\t2\ta.txt\0-\t-\timg.png\0" + "3\t0\t\0old name.ts\0new name.ts\0"),
  );
  assert.deepEqual(out.entries, [
    { path: "a.txt", added: 1, deleted: 2 },
    { path: "img.png", binary: true },
    { path: "new name.ts", added: 3, deleted: 0, from: "old name.ts" },
  ]);
});

Deno.test("git diff text: a secret section keeps its header and loses its hunks", () => {
  const lines = [
    "diff --git a/x.txt b/x.txt",
    "--- a/x.txt",
    "+++ b/x.txt",
    "@@ -1 +1 @@",
    "-a",
    "+b",
    'diff --git "a/dir/\\303\\251/.env" "b/dir/\\303\\251/.env"',
    "index 1..2 100644",
    '--- "a/dir/\\303\\251/.env"',
    '+++ "b/dir/\\303\\251/.env"',
    "@@ -1 +1 @@",
    "-K=1",
    "+K=2",
    "diff --git a/notes.txt b/server.key",
    "similarity index 90%",
    "rename from notes.txt",
    "rename to server.key",
    "@@ -1 +1 @@",
    "-plain",
    "+KEY",
  ];
  assert.deepEqual(withholdSecrets(lines), [
    ...lines.slice(0, 10),
    W,
    ...lines.slice(13, 17),
    W,
  ]);
  assert.equal(unquotePath('"a/dir/\\303\\251/.env"'), "a/dir/é/.env");
});

Deno.test("git blame parse: dates are ISO 8601 in the author's zone", () => {
  assert.equal(isoDate(1704164645, "+0130"), "2024-01-02T04:34:05+01:30");
  assert.equal(isoDate(1704164645, "-0800"), "2024-01-01T19:04:05-08:00");
});

Deno.test("git config guard: every filter, whatever its name, is switched off by --config-env", () => {
  const list = enc(
    "local\0file:.git/config\0filter.x=y.clean\nrm -rf /\0" +
      "local\0file:.git/config\0filter.a.b.process\nevil\0" +
      "command\0command line:\0filter.ours.clean\n\0" +
      "local\0file:.git/config\0blame.ignorerevsfile\n/etc/x\0",
  );
  const state = guardState(parseConfigList(list));
  assert.deepEqual(state.args, [
    "--config-env=filter.a.b.clean=SHIPCODE_GIT_EMPTY",
    "--config-env=filter.a.b.smudge=SHIPCODE_GIT_EMPTY",
    "--config-env=filter.a.b.process=SHIPCODE_GIT_EMPTY",
    "--config-env=filter.a.b.required=SHIPCODE_GIT_FALSE",
    "--config-env=filter.x=y.clean=SHIPCODE_GIT_EMPTY",
    "--config-env=filter.x=y.smudge=SHIPCODE_GIT_EMPTY",
    "--config-env=filter.x=y.process=SHIPCODE_GIT_EMPTY",
    "--config-env=filter.x=y.required=SHIPCODE_GIT_FALSE",
  ]);
  assert.deepEqual(state.ignoreRevsFiles, ["/etc/x"]);
});
