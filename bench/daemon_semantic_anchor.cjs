// The standalone anchor of bench/daemon_semantic.ts: the same TypeScript under Node, cold, asked
// one question at one position, with the same answer the server gives: go_to_definition
// (getDefinitionAtPosition in the owning project, the first config) or find_references
// (findReferences in every project the server searched, merged). Each project's language service
// is TypeScript's own Node host (ts_project_service.cjs). Prints one JSON line: the time from the
// script's start to the answer, the answer as sorted "path:line:column" inside the root (a
// library file's definitions left out), and the peak RSS.
"use strict";
const started = process.hrtime.bigint();
const ms = () => Number(process.hrtime.bigint() - started) / 1e6;
const fs = require("fs");
const task = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const ts = require(task.typescript);
const { projectService } = require("./ts_project_service.cjs");
const root = task.root;
const file = `${root}/${task.path}`;
const inside = (name) => name.startsWith(`${root}/`) && !name.includes("/node_modules/");
const where = (program, name, start) => {
  const lc = program.getSourceFile(name).getLineAndCharacterOfPosition(start);
  return { path: name.slice(root.length + 1), line: lc.line + 1, column: lc.character + 1 };
};
const answer = new Set();
let files = 0;
const configs = task.tool === "go_to_definition" ? task.configs.slice(0, 1) : task.configs;
for (const config of configs) {
  const { parsed, service } = projectService(ts, root, `${root}/${config}`);
  files += parsed.fileNames.length;
  const program = service.getProgram();
  const offset = program.getSourceFile(file)
    .getPositionOfLineAndCharacter(task.line - 1, task.column - 1);
  if (task.tool === "go_to_definition") {
    for (const d of service.getDefinitionAtPosition(file, offset) ?? []) {
      if (!inside(d.fileName)) continue;
      const at = where(program, d.fileName, d.textSpan.start);
      answer.add(`${at.path}:${at.line}:${at.column}`);
    }
    continue;
  }
  for (const symbol of service.findReferences(file, offset) ?? []) {
    for (const r of symbol.references) {
      if (!inside(r.fileName)) continue;
      const at = where(program, r.fileName, r.textSpan.start);
      answer.add(`${at.path}:${at.line}:${at.column}`);
    }
  }
}
process.stdout.write(
  JSON.stringify({
    ms: ms(),
    answer: [...answer].sort(),
    files,
    maxRssKiB: process.resourceUsage().maxRSS,
  }) + "\n",
);
