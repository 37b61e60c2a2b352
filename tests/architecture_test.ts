/**
 * The tree tells the architecture (docs/tools.md, "Adding a tool"): imports point one way, with
 * no cycle between files or between folders, and lib/ never reaches outside itself.
 */

import assert from "node:assert/strict";

const ROOT = new URL("../", import.meta.url).pathname;
const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s*["'](\.{1,2}\/[^"']+)["']/g;

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of Deno.readDirSync(`${ROOT}${dir}`)) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory) out.push(...sourceFiles(rel));
    else if (entry.name.endsWith(".ts")) out.push(rel);
  }
  return out;
}

function normalize(path: string): string {
  const out: string[] = [];
  for (const part of path.split("/")) {
    if (part === "..") out.pop();
    else if (part !== "." && part !== "") out.push(part);
  }
  return out.join("/");
}

/** file -> the project files it imports (relative specifiers only). */
function importGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles("lib")) {
    const text = Deno.readTextFileSync(`${ROOT}${file}`);
    const folder = file.slice(0, file.lastIndexOf("/"));
    const targets = new Set<string>();
    for (const match of text.matchAll(IMPORT)) targets.add(normalize(`${folder}/${match[1]}`));
    graph.set(file, targets);
  }
  return graph;
}

function findCycle(graph: Map<string, Set<string>>): string[] | null {
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (node: string): string[] | null => {
    state.set(node, "open");
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === "open") return [...stack.slice(stack.indexOf(next)), next];
      if (!state.has(next)) {
        const found = visit(next);
        if (found !== null) return found;
      }
    }
    stack.pop();
    state.set(node, "done");
    return null;
  };
  for (const node of graph.keys()) {
    if (!state.has(node)) {
      const found = visit(node);
      if (found !== null) return found;
    }
  }
  return null;
}

const folderOf = (file: string) => file.slice(0, file.lastIndexOf("/"));

Deno.test("architecture: no import cycle between files of lib/", () => {
  const cycle = findCycle(importGraph());
  assert.equal(cycle, null, `import cycle: ${cycle?.join(" -> ")}`);
});

Deno.test("architecture: no import cycle between folders of lib/", () => {
  const folders = new Map<string, Set<string>>();
  for (const [file, targets] of importGraph()) {
    const from = folderOf(file);
    if (!folders.has(from)) folders.set(from, new Set());
    for (const target of targets) {
      if (folderOf(target) !== from) folders.get(from)!.add(folderOf(target));
    }
  }
  const cycle = findCycle(folders);
  assert.equal(cycle, null, `folder cycle: ${cycle?.join(" -> ")}`);
});

Deno.test("architecture: lib/ imports nothing outside lib/ but npm packages and node: modules", () => {
  for (const [file, targets] of importGraph()) {
    for (const target of targets) {
      assert.ok(target.startsWith("lib/"), `${file} imports ${target}, outside lib/`);
    }
  }
});

Deno.test("architecture: the cycle finder sees a cycle (so a pass means none)", () => {
  const graph = new Map([["a", new Set(["b"])], ["b", new Set(["c"])], ["c", new Set(["a"])]]);
  assert.deepEqual(findCycle(graph), ["a", "b", "c", "a"]);
});

/** The repository stands on its own: nothing may cite a document that is not in it. */
Deno.test("architecture: no comment, test, doc or script cites a file outside the repository", () => {
  const outside = new RegExp(
    String.raw`\b(?:WIRE|WORKSPACE|TOOLS|GIT|EDITS|SYMBOLS|DECISIONS|STYLE)\.md\b|\.\.` +
      String.raw`/shared\b`,
  );
  const files = [
    ...["lib", "tests", "bench", "docs", ".ci", ".github"].flatMap((dir) => everyFile(dir)),
    "main.ts",
    "README.md",
    "deno.json",
  ];
  const hits: string[] = [];
  for (const file of files) {
    const text = Deno.readTextFileSync(`${ROOT}${file}`);
    text.split("\n").forEach((line, i) => {
      if (outside.test(line)) hits.push(`${file}:${i + 1}: ${line.trim()}`);
    });
  }
  assert.deepEqual(hits, []);
});

/** Text files below `dir` (skipping binary test data such as the grammars). */
function everyFile(dir: string): string[] {
  const out: string[] = [];
  for (const entry of Deno.readDirSync(`${ROOT}${dir}`)) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory) out.push(...everyFile(rel));
    else if (/\.(ts|md|txt|json|yml|sh)$/.test(entry.name) || !entry.name.includes(".")) {
      out.push(rel);
    }
  }
  return out;
}

Deno.test("architecture: lib/git/runner.ts is the only code in lib/ that starts a process, but the daemon's start", () => {
  const spawners = sourceFiles("lib").filter((file) =>
    /\bDeno\.(?:Command|run)\b/.test(Deno.readTextFileSync(`${ROOT}${file}`))
  );
  // The one exception: a relay starts the shared daemon, which is this program itself (never
  // another), named as the launch line's --allow-run grants it.
  assert.deepEqual(spawners, ["lib/daemon/launch.ts", "lib/git/runner.ts"]);
});

Deno.test("architecture: lib/cli/allocator.ts is the only code that loads native code", () => {
  const loaders = [...sourceFiles("lib"), "main.ts"].filter((file) =>
    /\bDeno\.dlopen\b/.test(Deno.readTextFileSync(`${ROOT}${file}`))
  );
  assert.deepEqual(loaders, ["lib/cli/allocator.ts"]);
});

Deno.test("architecture: workers start in lib/worker_start.ts (read only), but the cache writer", () => {
  const starters = sourceFiles("lib").filter((file) =>
    /\bnew Worker\(/.test(Deno.readTextFileSync(`${ROOT}${file}`))
  );
  assert.deepEqual(starters.sort(), ["lib/index/store/cache_owner.ts", "lib/worker_start.ts"]);
});

/** Top-level `let` and `var` declarations: state outside any object. */
function moduleLets(text: string): string[] {
  return text.split("\n").filter((line) => /^(?:export\s+)?(?:let|var)\s/.test(line));
}

Deno.test("architecture: the index's threads keep their state in objects, not in module lets", () => {
  const threads = [
    "lib/index/watch_worker.ts",
    "lib/index/store/cache_writer.ts",
    ...sourceFiles("lib/index/worker"),
  ];
  const hits = threads.flatMap((file) =>
    moduleLets(Deno.readTextFileSync(`${ROOT}${file}`)).map((line) => `${file}: ${line}`)
  );
  assert.deepEqual(hits, []);
});

Deno.test("architecture: the module-let finder sees a top-level let and skips a nested one", () => {
  assert.deepEqual(moduleLets("let a = 1;\nfunction f() {\n  let b = 2;\n}\nexport let c;"), [
    "let a = 1;",
    "export let c;",
  ]);
});

/** File-system calls by path (reads, stats, real paths, listings, writes, watchers). */
const FS_CALL =
  /\bDeno\.(?:stat|lstat|open|readFile|readTextFile|realPath|readDir|readLink|watchFs|writeFile|writeTextFile|remove|rename|mkdir|makeTempDir|makeTempFile|truncate|chmod|create|copyFile|link|symlink|utime)(?:Sync)?\b/;

/**
 * Code outside lib/workspace/ that may touch the disk by path, each with the reason: it owns
 * state other than the served files, or it changes served files after the workspace's checks.
 * Everything else asks the workspace (resolve, kind, stamp, containsReal, readFile, openFile,
 * walk), which is the only code that decides what is served.
 */
const FS_ALLOWED: Record<string, string> = {
  "lib/edits/atomic_write.ts": "writes a temp file beside a checked target and renames it over",
  "lib/edits/batch_write.ts": "re-checks the identity of targets write_target.ts checked",
  "lib/edits/file_moves.ts": "deletes and moves files write_target.ts checked",
  "lib/edits/folder_move.ts": "lists a folder to move, each path then checked by write_target.ts",
  "lib/edits/no_replace.ts": "links, renames and makes folders for moves already checked",
  "lib/edits/operations.ts": "re-checks a target's identity right before its atomic write",
  "lib/edits/stale_temps.ts": "removes the server's own temp files left by a crash",
  "lib/git/availability.ts": "finds the git binary and reads .git (git's state, not served)",
  "lib/git/config_guard.ts": "stats git's config files (git's state, not served)",
  "lib/index/store/cache_dir.ts": "makes the index's own cache folder",
  "lib/index/store/cache_writer.ts": "writes the index's own cache files",
  "lib/index/store/index_store.ts": "reads and lists the index's own cache files",
  "lib/index/store/stored_shard.ts": "reads the index's own cache files",
  "lib/index/worker/freshness.ts":
    "stats the folders in a query's scope for the watcher-race guard (no content)",
  "lib/index/worker/persistence.ts": "its own shard files",
  "lib/index/store/root_key.ts":
    "stats the root for its cache key, and its own manifest for whether one is stored",
  "lib/index/worker/stored_start.ts": "lstats stored files in the stat pass (no content)",
  "lib/index/worker/tree.ts": "takes the real path of a folder for the folder table (no content)",
  "lib/index/early_start.ts":
    "takes the real path of the root for the index's settings (no content)",
  "lib/index/store/folder_table.ts":
    "stats folders and their ignore files for the stored folder table (no content)",
  "lib/index/watch_worker.ts": "watches the tree for the index (no content)",
  "lib/semantic/python/pyright_server.ts": "takes the real path of pyright's own npm package",
  "lib/semantic/python/queries.ts": "reads pyright's bundled typeshed stubs from its npm package",
  "lib/semantic/python/worker.ts": "watches the tree to tell pyright what changed (no content)",
  "lib/semantic/typescript/type_files.ts":
    "reads TypeScript's own lib .d.ts files from its npm package",
  "lib/semantic/typescript/worker.ts": "watches the tree to drop stale programs (no content)",
  "lib/symbols/parser_worker.ts": "loads its own grammar .wasm files (lib/symbols/grammars)",
  "lib/daemon/socket_folder.ts": "checks and makes the daemons' own socket folder",
  "lib/daemon/daemon.ts": "the daemon's own lock and socket files in the socket folder",
  "lib/daemon/build_id.ts": "stats the program's own files for its build id (no content)",
  "lib/daemon/key.ts": "takes the root's real path, device and inode for the key (no content)",
  "lib/daemon/launch.ts": "takes the real path of this program's executable",
};

/** The lines of `text` that call the file system, comments left out. */
function fsCalls(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
  return code.split("\n").filter((line) => FS_CALL.test(line)).map((line) => line.trim());
}

Deno.test("architecture: only lib/workspace/ touches served paths on disk (and the allow-list)", () => {
  const hits: string[] = [];
  for (const file of sourceFiles("lib")) {
    if (file.startsWith("lib/workspace/") || Object.hasOwn(FS_ALLOWED, file)) continue;
    for (const line of fsCalls(Deno.readTextFileSync(`${ROOT}${file}`))) {
      hits.push(`${file}: ${line}`);
    }
  }
  assert.deepEqual(hits, []);
});

Deno.test("architecture: the file-system call finder sees a call and skips comments", () => {
  assert.deepEqual(fsCalls("const i = Deno.statSync(p);\n// Deno.readFile(x)\n/* Deno.open */"), [
    "const i = Deno.statSync(p);",
  ]);
});

/** `text` without its comments and string literals: the code that decides. */
function codeOnly(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1")
    .replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`/g, '""');
}

/** What routing by language looks like in code: a file-kind test, an engine's own folder. */
const LANGUAGE_ROUTING = [
  /\bis(?:Script|Python|TypeScript)Path\b/,
  /\b(?:typescript|pyright|python)Engine\b/i,
  /\bTypeScript\b|\bJavaScript\b|\bPython\b/,
];
const EXTENSION_TEST =
  /\.endsWith\(\s*["'`]\.(?:[cm]?[jt]sx?|pyi?)["'`]|\\\.\(\?:[cm]?[jt]s|\\\.py\b/;
const ENGINE_FOLDER_IMPORT = /from\s*["'][./]*\/semantic\/(?!router\/)[a-z_]+\/[^"']+["']/;

/** The lines of a tool file that route by language (comments and strings left out). */
function languageRouting(text: string): string[] {
  const hits = codeOnly(text).split("\n").filter((line) =>
    LANGUAGE_ROUTING.some((word) => word.test(line))
  );
  for (const line of text.split("\n")) {
    if (EXTENSION_TEST.test(line) || ENGINE_FOLDER_IMPORT.test(line)) hits.push(line);
  }
  return hits.map((line) => line.trim());
}

Deno.test("architecture: lib/tools/ names no language when it routes to a type engine", () => {
  const hits: string[] = [];
  for (const file of sourceFiles("lib/tools")) {
    for (const line of languageRouting(Deno.readTextFileSync(`${ROOT}${file}`))) {
      hits.push(`${file}: ${line}`);
    }
  }
  assert.deepEqual(hits, []);
});

Deno.test("architecture: the language-routing finder sees a file-kind test, an extension check and an engine folder", () => {
  assert.deepEqual(
    languageRouting(
      'if (isScriptPath(p)) ask();\n// isScriptPath in a comment\nconst d = "TypeScript";\n' +
        'if (p.endsWith(".py")) x();\nimport { q } from "../semantic/typescript/queries.ts";\n' +
        'import { r } from "../semantic/router/router.ts";\nif (name === TypeScript) y();',
    ),
    [
      "if (isScriptPath(p)) ask();",
      "if (name === TypeScript) y();",
      'if (p.endsWith(".py")) x();',
      'import { q } from "../semantic/typescript/queries.ts";',
    ],
  );
});

Deno.test("architecture: the typescript package is imported only under lib/semantic/typescript/", () => {
  const importers = [...sourceFiles("lib"), "main.ts"].filter((file) =>
    /(?:from\s*|import\(\s*)["']typescript["']/.test(Deno.readTextFileSync(`${ROOT}${file}`))
  );
  assert.ok(importers.length > 0, "the engine imports it");
  assert.deepEqual(importers.filter((file) => !file.startsWith("lib/semantic/typescript/")), []);
});

Deno.test("architecture: the pyright package is loaded only under lib/semantic/python/", () => {
  const importers = [...sourceFiles("lib"), "main.ts"].filter((file) =>
    /(?:from\s*|import\(\s*|import\.meta\.resolve\(\s*)["']pyright[/"']/.test(
      Deno.readTextFileSync(`${ROOT}${file}`),
    )
  );
  assert.ok(importers.length > 0, "the engine loads it");
  assert.deepEqual(importers.filter((file) => !file.startsWith("lib/semantic/python/")), []);
});

/** Functions (declarations, methods, arrows, expressions) over `max` lines, as `file:line N lines`. */
async function longFunctions(files: Array<{ name: string; text: string }>, max: number) {
  const ts = (await import("typescript")).default;
  const long: string[] = [];
  for (const { name, text } of files) {
    const source = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true);
    const visit = (node: import("typescript").Node) => {
      if (ts.isFunctionLike(node) && "body" in node && node.body !== undefined) {
        const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
        if (last - first + 1 > max) long.push(`${name}:${first + 1} ${last - first + 1} lines`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return long;
}

Deno.test("architecture: no function in lib/ or main.ts is over 100 lines", async () => {
  const files = [...sourceFiles("lib"), "main.ts"].map((name) => ({
    name,
    text: Deno.readTextFileSync(`${ROOT}${name}`),
  }));
  assert.deepEqual(await longFunctions(files, 100), []);
});

Deno.test("architecture: the long-function finder sees a long method and an arrow inside it", async () => {
  const body = Array.from({ length: 101 }, (_, i) => `    x += ${i};`).join("\n");
  const text = `class A {\n  m() {\n    let x = 0;\n${body}\n    const f = () => x;\n  }\n}\n`;
  assert.deepEqual(await longFunctions([{ name: "a.ts", text }], 100), ["a.ts:2 105 lines"]);
  assert.deepEqual(await longFunctions([{ name: "a.ts", text }], 200), []);
});
