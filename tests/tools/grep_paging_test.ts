/**
 * Paging is exact in every grep mode (docs/tools.md "grep"): the pages of one query,
 * concatenated, equal the unpaged output line for line, whatever the offsets and limits, with
 * and without context, over scopes of 1 to 5,000 files; a page is `truncated: false` only when
 * nothing follows it. The unpaged output itself equals ripgrep's. Property tests over seeded
 * random trees: a failure names the seed, mode and page. They need `rg` and fail without it.
 */
import assert from "node:assert/strict";
import { grepTool } from "../../lib/tools/grep.ts";
import type { ToolResult } from "../../lib/tools/tool.ts";
import { call, type Harness, hasRipgrep, ripgrep, text, toolTest } from "./helpers.ts";

/** mulberry32: a small seeded PRNG, so every run builds the same trees and pages. */
function random(seed: number): (n: number) => number {
  let a = seed >>> 0;
  return (n) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

const FILLER = [
  "alpha beta gamma",
  "",
  "  indented text",
  'a "quoted" \\ back\\slash',
  "\ttab started",
  "static int x = 1;",
  "}",
];
const MATCHING = [
  "the needle is here",
  "  needle indented",
  'needle "with" \\quotes\\',
  "needleneedle twice on one line",
];

/**
 * `files` files in nested folders; each line matches with probability 1/`sparsity`; some files
 * end without LF, some use CRLF, some never match, and runs of matches let context groups merge.
 */
function tree(files: number, sparsity: number, seed: number): Record<string, string> {
  const r = random(seed);
  const out: Record<string, string> = {};
  for (let i = 0; i < files; i++) {
    const path = `d${i % 7}/s${(i >> 3) % 5}/f${String(i).padStart(5, "0")}.txt`;
    const count = files === 1 || r(10) === 0 ? 40 + r(80) : r(14);
    const lines: string[] = [];
    for (let k = 0; k < count; k++) {
      const hit = r(sparsity) === 0 || (lines.length > 0 && lines.at(-1)!.includes("needle") &&
        r(3) === 0);
      lines.push(hit ? MATCHING[r(MATCHING.length)] : FILLER[r(FILLER.length)]);
    }
    const eol = r(8) === 0 ? "\r\n" : "\n";
    out[path] = lines.join(eol) + (r(6) === 0 || lines.length === 0 ? "" : eol);
  }
  return out;
}

interface Query {
  label: string;
  /** Default: PATTERN. */
  pattern?: string;
  args: Record<string, unknown>;
  rg: string[];
}

const PATTERN = "ne+dle";
const QUERIES: Query[] = [
  { label: "files", args: {}, rg: ["-l"] },
  { label: "count", args: { output_mode: "count" }, rg: ["-c"] },
  { label: "content", args: { output_mode: "content" }, rg: ["-n"] },
  { label: "content -A2", args: { output_mode: "content", "-A": 2 }, rg: ["-n", "-A", "2"] },
  { label: "content -B1", args: { output_mode: "content", "-B": 1 }, rg: ["-n", "-B", "1"] },
  { label: "content -C3", args: { output_mode: "content", "-C": 3 }, rg: ["-n", "-C", "3"] },
  {
    label: "content -n false -C1",
    args: { output_mode: "content", "-n": false, "-C": 1 },
    rg: ["-N", "-C", "1"],
  },
  {
    label: "content multiline -A1",
    pattern: "needle[^\\n]*\\n[^\\n]*ne+dle",
    args: { output_mode: "content", multiline: true, "-A": 1 },
    rg: ["-n", "-U", "--multiline-dotall", "-A", "1"],
  },
  {
    label: "count multiline",
    pattern: "needle[^\\n]*\\n[^\\n]*ne+dle",
    args: { output_mode: "count", multiline: true },
    rg: ["-c", "-U", "--multiline-dotall"],
  },
];

function structured(result: ToolResult): Record<string, unknown> {
  assert.notEqual(result.isError, true, text(result));
  return result.structuredContent as Record<string, unknown>;
}

function items(result: ToolResult): string[] {
  const sc = structured(result);
  return (sc.files ?? sc.counts ?? sc.lines) as string[];
}

function requireRipgrep(): void {
  if (!hasRipgrep()) {
    throw new Error("These tests compare with ripgrep: install it (apt-get install -y ripgrep)");
  }
}

/** ripgrep's unpaged answer, in our output form (LF lines, sorted by path). */
function rgOutput(root: string, query: Query): string[] {
  const out = ripgrep(root, [
    ...query.rg,
    "--no-heading",
    "--with-filename",
    "--hidden",
    "-L",
    "--no-unicode",
    "--crlf",
    "--color",
    "never",
    "--sort",
    "path",
    "-e",
    query.pattern ?? PATTERN,
  ]);
  const lines = out.replaceAll("\r\n", "\n").split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

/** Checks one page against the unpaged output. */
function checkPage(
  result: ToolResult,
  all: string[],
  expected: { offset: number; limit: number | null },
  where: string,
): { shown: string[]; next?: number } {
  const sc = structured(result);
  const shown = items(result);
  const { offset, limit } = expected;
  assert.equal(sc.offset, offset, where);
  assert.deepEqual(shown, all.slice(offset, offset + shown.length), `${where}: page content`);
  if (limit !== null && limit > 0) {
    assert.equal(shown.length, Math.min(limit, Math.max(0, all.length - offset)), `${where}: size`);
  }
  const end = offset + shown.length;
  assert.equal(sc.truncated, end < all.length, `${where}: truncated`);
  assert.equal(sc.next_offset, end < all.length ? end : undefined, `${where}: next_offset`);
  // The text block shows the same page: the entries, then the hint line when cut.
  const lines = text(result).split("\n");
  if (shown.length > 0) assert.deepEqual(lines.slice(0, shown.length), shown, `${where}: text`);
  if (end < all.length) {
    assert.match(lines.at(-1)!, new RegExp(`call again with offset=${end}\\]$`), where);
  }
  return { shown, next: end < all.length ? end : undefined };
}

/**
 * For each query: the unpaged answer equals ripgrep's; `pages` random pages (offset, limit) are
 * the matching slices; a chain of random limits and a chain of budget-cut pages (no head_limit)
 * each concatenate to the whole.
 */
async function checkScope(
  h: Harness,
  options: { seed: number; pages: number; queries?: Query[]; budget: number },
): Promise<void> {
  requireRipgrep();
  // Paging is under test, not the per-file timeout: a loaded CI machine must not trip it.
  h.ctx.config.regexTimeoutMs = 120_000;
  const r = random(options.seed);
  for (const query of options.queries ?? QUERIES) {
    const label = `seed ${options.seed}, ${query.label}`;
    const base = { pattern: query.pattern ?? PATTERN, ...query.args };
    const all = items(await call(grepTool, { ...base, head_limit: 0 }, h));
    assert.deepEqual(all, rgOutput(h.root, query), `${label}: unpaged output equals rg's`);
    assert.ok(all.length > 0, `${label}: the fixture has matches`);

    for (let p = 0; p < options.pages; p++) {
      const offset = r(3) === 0 ? r(all.length + 3) : Math.max(0, all.length - 1 - r(40));
      const limit = 1 + r(r(2) === 0 ? 30 : all.length + 1);
      const result = await call(grepTool, { ...base, offset, head_limit: limit }, h);
      checkPage(result, all, { offset, limit }, `${label}, offset ${offset} limit ${limit}`);
    }

    const chained: string[] = [];
    let offset: number | undefined = 0;
    const step = Math.max(1, Math.ceil(all.length / 6));
    while (offset !== undefined) {
      const limit = 1 + r(step * 2);
      const result = await call(grepTool, { ...base, offset, head_limit: limit }, h);
      const page = checkPage(result, all, { offset, limit }, `${label}, chain at ${offset}`);
      chained.push(...page.shown);
      offset = page.next;
    }
    assert.deepEqual(chained, all, `${label}: the chained pages are the whole output`);

    h.ctx.config.maxOutputChars = options.budget;
    const budgeted: string[] = [];
    offset = 0;
    for (let guard = 0; offset !== undefined; guard++) {
      assert.ok(guard < 10_000, `${label}: budget paging moves on`);
      const result = await call(grepTool, { ...base, ...(offset > 0 ? { offset } : {}) }, h);
      const page = checkPage(result, all, { offset, limit: null }, `${label}, budget at ${offset}`);
      assert.ok(text(result).length <= options.budget, `${label}: page within the budget`);
      budgeted.push(...page.shown);
      offset = page.next;
    }
    h.ctx.config.maxOutputChars = 20_000;
    assert.deepEqual(budgeted, all, `${label}: the budget pages are the whole output`);
  }
}

toolTest(
  "grep paging: one file, every mode, random pages agree with rg",
  tree(1, 3, 1),
  (h) => checkScope(h, { seed: 1, pages: 12, budget: 300 }),
);

toolTest(
  "grep paging: 40 files, every mode, random pages agree with rg",
  tree(40, 4, 2),
  (h) => checkScope(h, { seed: 2, pages: 12, budget: 600 }),
);

toolTest(
  "grep paging: 700 files, every mode, random pages agree with rg",
  tree(700, 12, 3),
  (h) => checkScope(h, { seed: 3, pages: 6, budget: 4000 }),
);

const BIG_QUERIES = QUERIES.filter((q) => ["count", "content", "content -C3"].includes(q.label));

toolTest(
  "grep paging: 5,000 files, counts and content with and without context agree with rg",
  tree(5000, 60, 4),
  (h) => checkScope(h, { seed: 4, pages: 4, queries: BIG_QUERIES, budget: 20_000 }),
);

/** One matching line per file in many files: the shape of the kernel repro. */
const ONE_PER_FILE: Record<string, string> = {};
for (let i = 0; i < 1076; i++) {
  ONE_PER_FILE[`drivers/m${String(i).padStart(4, "0")}.c`] =
    `int a;\nstatic const struct file_operations fops_${i} = {\nint b;\n`;
}

function fopsLine(k: number): string {
  return `drivers/m${String(k).padStart(4, "0")}.c:2:static const struct file_operations ` +
    `fops_${k} = {`;
}

toolTest(
  "grep paging: content pages deep into many one-match files are full, exact and repeatable",
  ONE_PER_FILE,
  async (h) => {
    const args = {
      pattern: "^static const struct file_operations \\w+ = \\{",
      output_mode: "content",
    };
    // The repro (offset 1000 answered "No more matches") and offsets inside the batches
    // that were in flight when collecting stopped (their line counts varied from run to run).
    for (const offset of [197, 520, 600, 700, 1000, 1070]) {
      for (let run = 0; run < 3; run++) {
        const r = await call(grepTool, { ...args, offset, head_limit: 20 }, h);
        const sc = structured(r);
        assert.equal(sc.total_matches, 1076);
        const end = Math.min(offset + 20, 1076);
        const expected = Array.from({ length: end - offset }, (_, k) => fopsLine(offset + k));
        assert.deepEqual(sc.lines, expected, `offset ${offset}, run ${run}`);
        assert.equal(sc.truncated, end < 1076);
        assert.equal(sc.next_offset, end < 1076 ? end : undefined);
      }
    }
  },
);

toolTest(
  "grep paging: following the budget hints from any offset reaches the end with every line",
  ONE_PER_FILE,
  async (h) => {
    h.ctx.config.maxOutputChars = 8000;
    for (const context of [0, 1]) {
      const args = { pattern: "file_operations", output_mode: "content", "-C": context };
      const all = items(await call(grepTool, { ...args, head_limit: 0 }, h));
      assert.equal(all.length, context === 0 ? 1076 : 1076 * 4 - 1);
      const got: string[] = [];
      let offset: number | undefined = 197;
      while (offset !== undefined) {
        const page = checkPage(
          await call(grepTool, { ...args, offset }, h),
          all,
          { offset, limit: null },
          `-C ${context}, offset ${offset}`,
        );
        got.push(...page.shown);
        offset = page.next;
      }
      assert.deepEqual(got, all.slice(197));
    }
  },
);
