// The standalone anchor of bench/monorepo_first.ts: the same TypeScript under Node, asked one
// question at one position as its first call: go_to_definition (getDefinitionAtPosition) or
// find_references (findReferences). With `all` false, over the owning project only (one tsconfig,
// with TypeScript's own Node host); with `all` true, find_references does the work our references
// answer does: every tsconfig.json/jsconfig.json under the root (and the configs their
// `references` name) built with one document registry, TypeScript's own, and the references of
// every project whose program holds the file merged (deduplicated by file and offset). Prints one
// JSON line: the time from the script's start to the answer, the answer's size, the projects that
// held the file and the process's peak RSS.
"use strict";
const started = process.hrtime.bigint();
const ms = () => Number(process.hrtime.bigint() - started) / 1e6;
const fs = require("fs");
const task = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const ts = require(task.typescript);
const { projectService } = require("./ts_project_service.cjs");
const root = task.root;
const file = `${root}/${task.path}`;

/** Every config file under the root (not in node_modules, .git or dist), with those referenced. */
function allConfigs() {
  const found = new Set();
  const visit = (path) => {
    if (found.has(path) || !fs.existsSync(path)) return;
    found.add(path);
    const json = ts.readConfigFile(path, ts.sys.readFile);
    for (const ref of json.config?.references ?? []) {
      const target = `${path.slice(0, path.lastIndexOf("/"))}/${ref.path}`;
      visit(ts.resolveProjectReferencePath({ path: ts.normalizePath(target) }));
    }
  };
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (![".git", "node_modules", "dist"].includes(entry.name)) walk(`${dir}/${entry.name}`);
      } else if (entry.name === "tsconfig.json" || entry.name === "jsconfig.json") {
        visit(`${dir}/${entry.name}`);
      }
    }
  };
  walk(root);
  return [...found].sort();
}

function offsetIn(service) {
  const source = service.getProgram().getSourceFile(file);
  return source?.getPositionOfLineAndCharacter(task.line - 1, task.column - 1);
}

let count = 0;
let files = 0;
let projects = 1;
if (task.all) {
  const registry = ts.createDocumentRegistry();
  const seen = new Set();
  projects = 0;
  for (const config of allConfigs()) {
    const { parsed, service } = projectService(ts, root, config, registry);
    const offset = offsetIn(service);
    if (offset === undefined) continue;
    projects++;
    if (config === `${root}/${task.config}`) files = parsed.fileNames.length;
    for (const s of service.findReferences(file, offset) ?? []) {
      for (const r of s.references) {
        if (!r.fileName.includes("/node_modules/")) seen.add(`${r.fileName}\0${r.textSpan.start}`);
      }
    }
  }
  count = seen.size;
} else {
  const { parsed, service } = projectService(ts, root, `${root}/${task.config}`);
  files = parsed.fileNames.length;
  const offset = offsetIn(service);
  if (task.tool === "go_to_definition") {
    count = (service.getDefinitionAtPosition(file, offset) ?? []).length;
  } else {
    for (const s of service.findReferences(file, offset) ?? []) {
      count += s.references.filter((r) => !r.fileName.includes("/node_modules/")).length;
    }
  }
}
process.stdout.write(
  JSON.stringify({
    ms: ms(),
    count,
    files,
    projects,
    maxRssKiB: process.resourceUsage().maxRSS,
  }) + "\n",
);
