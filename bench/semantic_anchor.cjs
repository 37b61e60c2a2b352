// The standalone anchor of bench/semantic.ts: the same TypeScript (6.0.3) under Node, over the
// same project, with TypeScript's own Node file system (ts.sys) as the host
// (ts_project_service.cjs). Reads its task as JSON from argv[2] (root, config or files, positions)
// and prints one JSON line per phase.
"use strict";
const started = process.hrtime.bigint();
const ms = () => Number(process.hrtime.bigint() - started) / 1e6;
const task = JSON.parse(require("fs").readFileSync(process.argv[2], "utf8"));
const ts = require(task.typescript);
const root = task.root;
const { languageService, parseProject } = require("./ts_project_service.cjs");
let project;
if (task.config) {
  project = parseProject(ts, `${root}/${task.config}`);
} else {
  const options = {
    allowJs: true,
    checkJs: false,
    target: ts.ScriptTarget.ESNext,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    allowImportingTsExtensions: true,
    jsx: ts.JsxEmit.Preserve,
    strict: true,
    noEmit: true,
  };
  // A Deno workspace's members by name (computed by bench/semantic.ts from their deno.json).
  if (task.paths) options.paths = task.paths;
  project = { options, fileNames: task.files.map((f) => `${root}/${f}`) };
}
// Each file's version: its size and mtime.
const service = languageService(ts, root, project, (f) => {
  try {
    const s = require("fs").statSync(f);
    return `${s.size}:${s.mtimeMs}`;
  } catch {
    return "absent";
  }
});
const rel = (f) => (f.startsWith(`${root}/`) ? f.slice(root.length + 1) : null);
function place(fileName, offset) {
  const file = service.getProgram().getSourceFile(fileName);
  const lc = file.getLineAndCharacterOfPosition(offset);
  return `${rel(fileName)}:${lc.line + 1}:${lc.character + 1}`;
}
function offsetOf(p) {
  const file = service.getProgram().getSourceFile(`${root}/${p.path}`);
  return file.getPositionOfLineAndCharacter(p.line - 1, p.column - 1);
}
function out(obj) {
  process.stdout.write(JSON.stringify(obj) + "\n");
}

const first = task.positions[0];
const defs = service.getDefinitionAtPosition(`${root}/${first.path}`, offsetOf(first)) ?? [];
out({
  phase: "first",
  ms: ms(),
  definitions: defs.filter((d) => rel(d.fileName)).map((d) => place(d.fileName, d.textSpan.start)),
});

const results = [];
for (const p of task.positions) {
  const file = `${root}/${p.path}`;
  const t0 = ms();
  const symbols = service.findReferences(file, offsetOf(p)) ?? [];
  const t1 = ms();
  const refs = new Set();
  for (const s of symbols) {
    for (const r of s.references) {
      const r2 = rel(r.fileName);
      if (r2 !== null && !r2.split("/").includes("node_modules")) {
        refs.add(place(r.fileName, r.textSpan.start));
      }
    }
  }
  const d = (service.getDefinitionAtPosition(file, offsetOf(p)) ?? []).filter((x) =>
    rel(x.fileName)
  )
    .map((x) => place(x.fileName, x.textSpan.start));
  const t2 = ms();
  service.findRenameLocations(file, offsetOf(p), false, false, {
    providePrefixAndSuffixTextForRename: true,
  });
  const t3 = ms();
  service.findRenameLocations(file, offsetOf(p), false, false, {
    providePrefixAndSuffixTextForRename: true,
  });
  const t4 = ms();
  results.push({
    references: [...refs].sort(),
    definitions: d,
    refsMs: t1 - t0,
    renameColdMs: t3 - t2,
    renameMs: t4 - t3,
  });
}
out({ phase: "positions", results, maxRssKiB: process.resourceUsage().maxRSS });
