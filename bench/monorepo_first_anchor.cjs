// The standalone anchor of bench/monorepo_first.ts: the same TypeScript under Node, the owning
// project only (one tsconfig, with TypeScript's own Node host), asked one question at one
// position as its first call: go_to_definition (getDefinitionAtPosition) or find_references
// (findReferences). Prints one JSON line: the time from the script's start to the answer, the
// answer's size and the process's peak RSS.
"use strict";
const started = process.hrtime.bigint();
const ms = () => Number(process.hrtime.bigint() - started) / 1e6;
const fs = require("fs");
const task = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const ts = require(task.typescript);
const { projectService } = require("./ts_project_service.cjs");
const root = task.root;
const configPath = `${root}/${task.config}`;
const { parsed, service } = projectService(ts, root, configPath);
const file = `${root}/${task.path}`;
const source = service.getProgram().getSourceFile(file);
const offset = source.getPositionOfLineAndCharacter(task.line - 1, task.column - 1);
let count = 0;
if (task.tool === "go_to_definition") {
  count = (service.getDefinitionAtPosition(file, offset) ?? []).length;
} else {
  for (const s of service.findReferences(file, offset) ?? []) {
    count += s.references.filter((r) => !r.fileName.includes("/node_modules/")).length;
  }
}
process.stdout.write(
  JSON.stringify({
    ms: ms(),
    count,
    files: parsed.fileNames.length,
    maxRssKiB: process.resourceUsage().maxRSS,
  }) + "\n",
);
