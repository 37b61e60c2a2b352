/**
 * Parity with ripgrep itself: each pattern of the table, in ripgrep's syntax, is run through the
 * grep tool and through `rg -c --hidden --no-unicode` (plain `rg -c --hidden` for rows using
 * Unicode classes) over one fixture tree; the file sets and per-file counts must be equal. rg 13
 * is the oracle, so the table uses syntax it accepts; newer syntax (`(?<name>..)`, `\b{start}`,
 * `\<`, `(?R)`, escapes such as `\/`) is pinned in tests/search/rust_regex_test.ts. Without
 * rg these tests fail: they are the dialect's contract (docs/tools.md "Regex dialect").
 */
import assert from "node:assert/strict";
import { grepTool } from "../../lib/tools/grep.ts";
import { call, ripgrep, toolTest } from "./helpers.ts";

const TREE: Record<string, string> = {
  "pkg/__init__.py": '"""Package docstring."""\nimport os\n\ndef main():\n    """Run."""\n' +
    "    return no_proxy\n",
  "pkg/util.py": "class ValueError2(ValueError):\n    pass\n\ndef helper(x):\n    return x\n" +
    '  def indented():\n"""\nend"""\nNO_PROXY = "1"\nno_PROXY = 2\nno_Proxy_x = 3\n',
  "pkg/empty_doc.py": '"""\n"""\n',
  "src/main.c":
    '#include <stdio.h>\nint main(void) {\n  printf("${HOME} abc ABC 123 45 678\\n");\n' +
    "  return 0; /* {braces} [brackets] a.b( */\n}\n",
  "src/words.txt":
    "strength rhythm crypts\naeiou vowels\nbcdfg\n0123456789\n1234\n44 55 99\nAB ab\n",
  "docs/greek.md": "Ελληνικά κείμενο\nΑλφα Beta\nplain ascii line\n☺ smile\nÉcole café\n",
  ".hidden/conf.txt": "no_proxy=localhost\nfoo bar baz\nFOO\n",
  "long.txt": "x".repeat(100) + "\nshort\n\n\naab aaab ab\nab\naxxb ayyb\n",
  "tabs.txt": "a\tb\nc  d\n\ttrailing \nend",
  // Word characters for -w are Unicode's, as in rg's default mode: CJK letters, é, Greek.
  "words.txt": "\u4f7f\u7528FastAPI\u6765\nFastAPI ok\ncaf\u00e9\n\u00e9FastAPI\n" +
    "\u0391FastAPI 12\u0663 caf_ 7\n\u{1D400}FastAPI\n\u{1F600}FastAPI\u{1F600}\nFastAPI\u{1D400}\n",
  "flags.txt": "run -v now\nrun-v\nx-vy\n${A} a${B}\nfoo_bar foo\nxab abx\n{x} y}\n",
  // Characters whose Script and Script_Extensions differ (all in Unicode for decades): a bare
  // script name is Script in rg, so U+00B7 is Common and U+0331 Inherited, never Greek.
  ...Object.fromEntries(
    [
      0xb7,
      0x331,
      0x387,
      0x374,
      0x3b1,
      0x1f00,
      0x951,
      0x964,
      0x915,
      0x3001,
      0x30fc,
      0x4e00,
      0x3042,
      0x30a2,
      0x60c,
      0x640,
      0x627,
      0x483,
      0x436,
      0x2e2f,
      0x1d2c,
      0x5d0,
    ].map((cp) => [`scripts/u${cp.toString(16)}.txt`, `x${String.fromCodePoint(cp)}y\n`]),
  ),
};

interface Row {
  pattern: string;
  /** Extra grep arguments, and the rg flags that mean the same. */
  args?: Record<string, unknown>;
  rg?: string[];
  /** Uses Unicode classes: compare with rg in its default Unicode mode. */
  unicode?: boolean;
}

const ROWS: Row[] = [
  { pattern: '\\A"""' },
  { pattern: '"""\\z' },
  { pattern: "(?P<kw>def)\\s+\\w+" },
  { pattern: "(?m)^def" },
  { pattern: "^def" },
  { pattern: "no_(?i)proxy" },
  { pattern: "(?i)NO_PROXY" },
  { pattern: "(?i:no)_PROXY" },
  { pattern: "proxy", args: { "-i": true }, rg: ["-i"] },
  { pattern: "(?-i)proxy", args: { "-i": true }, rg: ["-i"] },
  { pattern: "a.b(", args: { fixed_strings: true }, rg: ["-F"] },
  { pattern: "[[:upper:]][[:lower:]]+Error" },
  // Non-ASCII text: one character is one unit here, as in rg's Unicode mode (not its bytes).
  { pattern: "[[:^alpha:][:digit:]]{3}", unicode: true },
  { pattern: "^[[:space:]]+\\S" },
  { pattern: "[[:punct:]]{2}" },
  { pattern: "[a-z&&[^aeiou]]{5}" },
  { pattern: "^[0-9--[5-9]]+$" },
  { pattern: "[a-g~~b-h]" },
  { pattern: "[\\w--\\d]{3}[[:digit:]]" },
  { pattern: "\\x{41}\\x42" },
  { pattern: "\\$\\{?[A-Z_]+\\}?" },
  { pattern: "\\x{263A}", unicode: true },
  { pattern: "[^\\x00-\\x7F]" },
  { pattern: "\\p{Greek}+", unicode: true },
  { pattern: "\\p{Lu}\\p{Ll}+", unicode: true },
  { pattern: "\\P{L}\\p{Greek}", unicode: true },
  { pattern: "[\\pL--\\p{Greek}]{5}", unicode: true },
  { pattern: "\\p{So}", unicode: true },
  ...[
    "Greek",
    "Latin",
    "Cyrillic",
    "Han",
    "Hiragana",
    "Katakana",
    "Arabic",
    "Hebrew",
    "Devanagari",
    "Common",
    "Inherited",
    "sc=Greek",
  ].map((script) => ({ pattern: `\\p{${script}}`, unicode: true })),
  { pattern: "(?x) def \\s+ (\\w+) # the function's name\n \\(" },
  { pattern: "(?U)a.+b" },
  { pattern: "a*?b" },
  { pattern: "a{2,3}b" },
  { pattern: "^.{80,}$" },
  { pattern: "^$" },
  { pattern: "\\bclass\\b" },
  { pattern: "\\Bo\\B" },
  { pattern: "foo|bar|baz" },
  { pattern: "[]\\[]" },
  { pattern: "\\{[a-z]+\\}" },
  { pattern: "\\t" },
  { pattern: "\\s$" },
  { pattern: "(a|)b" },
  // -w: no word character right before or after the match (rg -w), also when the pattern
  // starts or ends with a non-word character, and for every alternative.
  ...[
    "ab",
    "no_proxy",
    "[0-9]{2}",
    "-v|\\$\\{",
    "a.b\\(",
    "ab|aab",
    "\\w+ ab",
    "^ab",
    "(?i)foo",
    "\\}",
    "FastAPI",
    "caf\u00e9",
    "\\d+",
  ].map((pattern) => ({ pattern, args: { "-w": true }, rg: ["-w"], unicode: true })),
  { pattern: "a.b(", args: { "-w": true, fixed_strings: true }, rg: ["-w", "-F"], unicode: true },
  { pattern: "FOO", args: { "-w": true, "-i": true }, rg: ["-w", "-i"], unicode: true },
  {
    pattern: 'def \\w+\\(\\):\\n\\s+"""',
    args: { multiline: true },
    rg: ["-U", "--multiline-dotall"],
  },
  { pattern: '"""."""', args: { multiline: true }, rg: ["-U", "--multiline-dotall"] },
];

toolTest("grep parity: every row of the dialect table agrees with rg", TREE, async (h) => {
  const failures: string[] = [];
  for (const row of ROWS) {
    const flags = ["-c", "--hidden", ...(row.unicode ? [] : ["--no-unicode"]), ...(row.rg ?? [])];
    const expected = ripgrep(h.root, [...flags, "-e", row.pattern]).split("\n").filter((l) => l)
      .sort();
    if (expected.length === 0) {
      failures.push(`${JSON.stringify(row.pattern)}: rg finds nothing, a weak row`);
    }
    const r = await call(grepTool, {
      pattern: row.pattern,
      output_mode: "count",
      head_limit: 0,
      ...row.args,
    }, h);
    if (r.isError) {
      failures.push(`${JSON.stringify(row.pattern)}: ${JSON.stringify(r.content)}`);
      continue;
    }
    const actual = [...(r.structuredContent as { counts: string[] }).counts].sort();
    if (JSON.stringify(actual) !== JSON.stringify(expected)) {
      failures.push(
        `${JSON.stringify(row.pattern)} rg ${flags.join(" ")}: rg ${
          JSON.stringify(expected)
        } ours ${JSON.stringify(actual)}`,
      );
    }
  }
  assert.deepEqual(failures, []);
});
