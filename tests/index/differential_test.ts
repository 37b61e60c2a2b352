/**
 * Differential property test: on random trees, random patterns and random edits, grep through
 * the trigram index answers exactly (output text) what the full scan answers.
 */
import assert from "node:assert/strict";
import { seededRandom } from "../helpers/random.ts";
import { cleanup, grepIndexed, grepScanned, indexHarness, waitFor } from "./helpers.ts";

const WORDS = [
  "static",
  "int",
  "PM_RESUME",
  "pm_resume",
  "PM_SUSPEND",
  "task_struct",
  "struct",
  "copy_page_from_iter(",
  "schedule_timeout",
  "{",
  "}",
  "café",
  "Straße",
  "foo",
  "bar",
  "foobar",
  "x1",
  "42",
  "\t",
  "return",
];

function pick<T>(rand: () => number, list: readonly T[]): T {
  return list[Math.floor(rand() * list.length)];
}

function randomLine(rand: () => number): string {
  const n = 1 + Math.floor(rand() * 6);
  const words: string[] = [];
  for (let i = 0; i < n; i++) words.push(pick(rand, WORDS));
  return words.join(rand() < 0.7 ? " " : "");
}

function randomText(rand: () => number, lines: number): string {
  const eol = rand() < 0.2 ? "\r\n" : "\n";
  const out: string[] = [];
  for (let i = 0; i < lines; i++) out.push(randomLine(rand));
  return (rand() < 0.05 ? "\uFEFF" : "") + out.join(eol) + (rand() < 0.8 ? eol : "");
}

const FOLDERS = ["", "src/", "src/deep/", "lib/", "docs/"];
const EXTS = [".c", ".h", ".ts", ".md", ""];

function randomName(rand: () => number): string {
  return `${pick(rand, FOLDERS)}f${Math.floor(rand() * 1000)}${pick(rand, EXTS)}`;
}

/** A large file: filler with rare words at random places, so pieces matter. */
function bigText(rand: () => number): string {
  const lines: string[] = [];
  const n = 9000 + Math.floor(rand() * 12000);
  for (let i = 0; i < n; i++) {
    lines.push(rand() < 0.002 ? randomLine(rand) : `filler line ${i % 97} of text`);
  }
  return lines.join("\n") + "\n";
}

function randomTree(rand: () => number): Record<string, string | Uint8Array> {
  const files: Record<string, string | Uint8Array> = {
    ".ignore": "ignored/\n",
    "ignored/skip.c": "PM_RESUME static int\n",
    ".env": "PM_RESUME=secret\n",
    "bin.dat": new Uint8Array([80, 77, 95, 82, 69, 83, 85, 77, 69, 0, 1, 2]),
    "big/gen.h": bigText(rand),
  };
  for (let i = 0; i < 30; i++) {
    files[randomName(rand)] = randomText(rand, 1 + Math.floor(rand() * 30));
  }
  return files;
}

const PATTERNS = [
  "PM_RESUME",
  "[A-Z]+_RESUME",
  "schedule_timeout",
  "task_struct",
  "static int",
  "copy_page_from_iter\\(",
  "struct task_struct \\{",
  "foo|bar",
  "foo(bar)?",
  "^static",
  "int$",
  "caf[eé]",
  "Stra(ß|ss)e",
  "\\bfoo\\b",
  "x1|42",
  "filler line 5",
  "\\d+",
  "(?i)pm_resume",
  "pm_(resume|suspend)",
  "struct\\s+\\w+",
  "\\{\\s*\\}",
];

function randomArgs(rand: () => number): Record<string, unknown> {
  const args: Record<string, unknown> = { pattern: pick(rand, PATTERNS) };
  const r = rand();
  if (r < 0.1) {
    args.pattern = pick(rand, ["static\\s+int\\s+\\{", "foo\\nbar", "int\\s*\\n\\s*return"]);
    args.multiline = true;
  } else if (r < 0.18) {
    args.pattern = pick(rand, WORDS);
    args.fixed_strings = true;
  }
  if (rand() < 0.2) args["-i"] = true;
  args.output_mode = pick(rand, ["files_with_matches", "count", "content"]);
  if (args.output_mode === "content" && rand() < 0.3) args["-C"] = 1;
  if (rand() < 0.15) args.path = pick(rand, ["src", "src/deep", "big"]);
  if (rand() < 0.1) args.glob = pick(rand, ["*.c", "*.{h,ts}", "!*.md"]);
  if (rand() < 0.05) args.type = "c";
  // Paging too: a page through the index equals the same page of the full scan.
  const paged = rand();
  if (paged < 0.6) args.head_limit = 0;
  else if (paged < 0.8) {
    args.head_limit = 1 + Math.floor(rand() * 5);
    args.offset = Math.floor(rand() * 6);
  } // else: no head_limit, the default budget
  return args;
}

async function randomEdit(rand: () => number, root: string, names: string[]): Promise<string[]> {
  const r = rand();
  const name = pick(rand, names);
  const path = `${root}/${name}`;
  const touched = [path];
  try {
    if (r < 0.3) {
      await Deno.writeTextFile(path, randomLine(rand) + "\n", { append: true });
    } else if (r < 0.5) {
      await Deno.writeTextFile(path, randomText(rand, 5));
    } else if (r < 0.6) {
      await Deno.remove(path);
    } else if (r < 0.75) {
      const fresh = randomName(rand);
      await Deno.mkdir(`${root}/${fresh}`.replace(/\/[^/]*$/, ""), { recursive: true });
      await Deno.writeTextFile(`${root}/${fresh}`, randomText(rand, 4));
      names.push(fresh);
      touched.push(`${root}/${fresh}`);
    } else if (r < 0.85) {
      const fresh = randomName(rand);
      await Deno.mkdir(`${root}/${fresh}`.replace(/\/[^/]*$/, ""), { recursive: true });
      await Deno.rename(path, `${root}/${fresh}`);
      names.push(fresh);
      touched.push(`${root}/${fresh}`);
    } else {
      // Edit inside the large file: its pieces change.
      const big = `${root}/big/gen.h`;
      const text = await Deno.readTextFile(big);
      const at = Math.floor(rand() * text.length);
      const cut = text.lastIndexOf("\n", at) + 1;
      await Deno.writeTextFile(big, text.slice(0, cut) + randomLine(rand) + "\n" + text.slice(cut));
      touched.push(big);
    }
  } catch {
    // the file was removed by an earlier edit: nothing happened
  }
  return touched;
}

for (const seed of [1, 2, 3, 4, 5]) {
  Deno.test(`index: answers equal the full scan's (random tree, patterns and edits, seed ${seed})`, async () => {
    const rand = seededRandom(seed * 7919);
    const files = randomTree(rand);
    const h = await indexHarness(files);
    try {
      await waitFor(h.index);
      const names = Object.keys(files).filter((n) => !n.startsWith("."));
      let indexed = 0;
      let total = 0;
      for (let round = 0; round < 6; round++) {
        for (let q = 0; q < 25; q++) {
          const args = randomArgs(rand);
          const viaIndex = await grepIndexed(h, args);
          const scanned = await grepScanned(h, args);
          assert.equal(viaIndex.text, scanned, `grep ${JSON.stringify(args)} (round ${round})`);
          total++;
          if (viaIndex.indexed) indexed++;
        }
        for (let e = 0; e < 4; e++) await randomEdit(rand, h.root, names);
      }
      // The test means something only when the index chose the files most of the time.
      assert.ok(indexed > total / 2, `the index answered only ${indexed} of ${total} greps`);
    } finally {
      await cleanup(h);
    }
  });
}
