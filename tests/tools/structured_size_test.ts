/**
 * Hosts (Claude Code, VS Code) give the model JSON.stringify(structuredContent) instead of the
 * text block whenever structuredContent is present, so the structured form must stay as compact
 * as the text (docs/tools.md, "Results"): at most 1.5x its length on ordinary calls, and carrying
 * every line the text shows.
 */
import assert from "node:assert/strict";
import { findReferencesTool } from "../../lib/tools/find_references.ts";
import { findSymbolTool } from "../../lib/tools/find_symbol.ts";
import { gitDiffTool } from "../../lib/tools/git_diff.ts";
import { gitLogTool } from "../../lib/tools/git_log.ts";
import { gitStatusTool } from "../../lib/tools/git_status.ts";
import { globTool } from "../../lib/tools/glob.ts";
import { grepTool } from "../../lib/tools/grep.ts";
import { listDirTool } from "../../lib/tools/list_dir.ts";
import { outlineTool } from "../../lib/tools/outline.ts";
import { readFileTool } from "../../lib/tools/read_file.ts";
import type { Tool } from "../../lib/tools/tool.ts";
import { call, text } from "./helpers.ts";
import { gitHarness, hasGit, makeRepo } from "../git/fixture.ts";

const MAX_RATIO = 1.5;

/** A TypeScript module as projects write them: imports, a class with fields and methods, docs. */
function tsModule(name: string, n: number): string {
  const Name = name[0].toUpperCase() + name.slice(1);
  const methods = Array.from({ length: n }, (_, i) =>
    [
      `  /** Returns the ${i}th ${name} value, or the default when it is missing. */`,
      `  ${name}Value${i}(key: string, fallback = ${i}): number {`,
      `    const found = this.#cache.get(key) ?? lookup${Name}(key, "${name}-${i}");`,
      `    return found === undefined ? fallback : found + ${i};`,
      `  }`,
    ].join("\n")).join("\n\n");
  return [
    `import { lookup${Name} } from "./lookup.ts";`,
    `import type { Options } from "./options.ts";`,
    "",
    `/** ${Name}: values by key, cached. */`,
    `export class ${Name}Store {`,
    `  #cache = new Map<string, number>();`,
    `  readonly options: Options;`,
    "",
    `  constructor(options: Options) {`,
    `    this.options = options;`,
    `  }`,
    "",
    methods,
    `}`,
    "",
    `export function make${Name}Store(options: Options): ${Name}Store {`,
    `  return new ${Name}Store(options);`,
    `}`,
    "",
    `export const ${name.toUpperCase()}_LIMIT = ${n * 10};`,
    "",
  ].join("\n");
}

function testModule(name: string): string {
  const Name = name[0].toUpperCase() + name.slice(1);
  return [
    `import { make${Name}Store } from "./${name}_store.ts";`,
    "",
    `Deno.test("${name}: a missing key gives the fallback", () => {`,
    `  const store = make${Name}Store({ limit: 3 });`,
    `  if (store.${name}Value0("missing", 7) !== 7) throw new Error("no fallback");`,
    `});`,
    "",
  ].join("\n");
}

const C_FILE = Array.from({ length: 24 }, (_, i) =>
  [
    `/* Starts engine part ${i}. */`,
    `static int engine_part_${i}(struct engine *e, int flags)`,
    `{`,
    `\tif (!e)`,
    `\t\treturn -EINVAL;`,
    `\treturn engine_start(e, flags | ${i});`,
    `}`,
  ].join("\n")).join("\n\n") + "\n";

const NAMES = [
  "cache",
  "config",
  "session",
  "worker",
  "parser",
  "render",
  "router",
  "schema",
  "storage",
  "scheduler",
  "telemetry",
  "notifier",
  "registry",
  "resolver",
  "formatter",
  "validator",
];

function files(round: number): Record<string, string> {
  const tree: Record<string, string> = {
    "README.md": "# Demo\n\nA project to measure answers on.\n",
    "src/lookup.ts": NAMES.map((n) =>
      `export function lookup${n[0].toUpperCase()}${n.slice(1)}(key: string, tag: string) {\n` +
      `  return key.length + tag.length;\n}\n`
    ).join("\n"),
    "src/options.ts": "export interface Options {\n  limit: number;\n  verbose?: boolean;\n}\n",
    "native/engine.c": C_FILE,
  };
  NAMES.forEach((name, i) => {
    // The cache module is the large one (outline, read_file).
    const methods = (name === "cache" ? 30 : 6) + ((i + round) % 4);
    tree[`src/${name}/${name}_store.ts`] = tsModule(name, methods);
    tree[`src/${name}/${name}_store_test.ts`] = testModule(name);
  });
  return tree;
}

const SUBJECTS = [
  "Cache: drop entries when the options change",
  "Fix the worker's shutdown when a job is still queued",
  "Parser: accept trailing commas in argument lists",
  "Router: match paths case-sensitively, as documented",
  "Add a schema check for the session options",
  "Render: keep the indentation of nested blocks",
  "Config: read the limit from the environment",
  "Session: one store per session instead of a global one",
];

/** A repository with history, unstaged and untracked changes. */
function buildRepo() {
  const repo = makeRepo(files(0));
  for (let round = 1; round <= SUBJECTS.length; round++) {
    for (const [rel, content] of Object.entries(files(round))) repo.write(rel, content);
    repo.commit(SUBJECTS[round - 1]);
  }
  for (const name of NAMES) {
    repo.write(`src/${name}/${name}_store_test.ts`, `${testModule(name)}// more to come\n`);
    repo.write(`src/${name}/NOTES.md`, "notes\n");
  }
  return repo;
}

/** Calls as an agent makes them, with the defaults (no head_limit): the pages hosts see. */
const CALLS: Array<[Tool, Record<string, unknown>]> = [
  [grepTool, { pattern: "Value" }],
  [grepTool, { pattern: "return", output_mode: "content" }],
  [grepTool, { pattern: "fallback", output_mode: "content", "-C": 1 }],
  [grepTool, { pattern: "export", output_mode: "count" }],
  [readFileTool, { path: "src/cache/cache_store.ts" }],
  [globTool, { pattern: "**/*.ts" }],
  [listDirTool, {}],
  [gitLogTool, {}],
  [gitDiffTool, { target: "HEAD~3" }],
  [gitDiffTool, { base: "HEAD~6", target: "HEAD", stat_only: true }],
  [gitStatusTool, {}],
  [findSymbolTool, { name: "Value", match: "substring" }],
  [findSymbolTool, { name: "make", match: "prefix" }],
  [findReferencesTool, { name: "options" }],
  [outlineTool, { path: "src/cache/cache_store.ts" }],
  [outlineTool, { path: "native/engine.c" }],
];

Deno.test({
  name:
    "structuredContent: at most 1.5x the text block on ordinary calls of every tool (needs git)",
  ignore: !hasGit(),
  async fn() {
    const repo = buildRepo();
    const h = await gitHarness(repo);
    try {
      const rows: string[] = [];
      for (const [tool, args] of CALLS) {
        const result = await call(tool, args, h);
        assert.notEqual(
          result.isError,
          true,
          `${tool.name} ${JSON.stringify(args)}: ${text(result)}`,
        );
        const shown = text(result);
        const structured = JSON.stringify(result.structuredContent);
        const ratio = structured.length / shown.length;
        rows.push(`${tool.name} ${JSON.stringify(args)}: ${ratio.toFixed(2)} (${shown.length})`);
        // Pages of an ordinary size: the fixed fields (totals, offset, truncated: ~100
        // characters) are not what the ratio is about.
        assert.ok(shown.length > 400, `${tool.name} ${JSON.stringify(args)} gave a real page`);
        assert.ok(
          ratio <= MAX_RATIO,
          `${tool.name} ${JSON.stringify(args)}: structured ${structured.length} chars for ` +
            `${shown.length} of text (${ratio.toFixed(2)}x)\n${rows.join("\n")}`,
        );
      }
    } finally {
      h.ctx.session.close();
      await repo.dispose();
    }
  },
});

Deno.test({
  name: "structuredContent: every line the text shows is in it (needs git)",
  ignore: !hasGit(),
  async fn() {
    const repo = buildRepo();
    const h = await gitHarness(repo);
    try {
      for (const [tool, args] of CALLS) {
        const result = await call(tool, args, h);
        const structured = JSON.stringify(result.structuredContent);
        for (const line of text(result).split("\n")) {
          // Notes in brackets (the next-page hint, list_dir's depth) are fields (next_offset,
          // depth); git_status's "## branch" header is branch, upstream, ahead and behind.
          if (line.startsWith("[") || line.startsWith("## ")) continue;
          assert.match(structured, structuredForm(tool, line), `${tool.name}: "${line}"`);
        }
      }
    } finally {
      h.ctx.session.close();
      await repo.dispose();
    }
  },
});

/** How a text line appears in the JSON of structuredContent. */
function structuredForm(tool: Tool, line: string): RegExp {
  const quoted = (part: string) => escape(JSON.stringify(part).slice(1, -1));
  if (tool === readFileTool) {
    // structuredContent.text holds the numbered lines, joined with newlines.
    return new RegExp(`("|\\\\n)${quoted(line)}(\\\\n|")`);
  }
  const head = /^([^:]+:\d+):(.*)$/.exec(line);
  if (tool === findReferencesTool && head !== null) {
    // With the column of the reference: path:line:column:text.
    return new RegExp(`"${quoted(head[1])}:\\d+:${quoted(head[2])}"`);
  }
  if (tool === findSymbolTool && head !== null) {
    // With the definition's last line: path:line-end_line: kind name.
    return new RegExp(`"${quoted(head[1])}-\\d+:${quoted(head[2])}"`);
  }
  return new RegExp(`"${quoted(line)}"`);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
