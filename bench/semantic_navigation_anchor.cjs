// The standalone anchor of bench/semantic_navigation.ts: the same TypeScript (6.0.3) under Node,
// over the same project (a tsconfig parsed by TypeScript), with TypeScript's own Node file system
// (ts.sys) as the host (ts_project_service.cjs). Reads its task as JSON from argv[2] (root,
// config, positions of each question) and prints one JSON line per phase: the first answer
// (program build), then for each position the same language-service calls our tool call makes,
// timed, with their answers.
"use strict";
const started = process.hrtime.bigint();
const ms = () => Number(process.hrtime.bigint() - started) / 1e6;
const task = JSON.parse(require("fs").readFileSync(process.argv[2], "utf8"));
const ts = require(task.typescript);
const root = task.root;
const { projectService } = require("./ts_project_service.cjs");
const { service } = projectService(ts, root, `${root}/${task.config}`);
const rel = (f) => (f.startsWith(`${root}/`) ? f.slice(root.length + 1) : null);
function place(fileName, offset) {
  const file = service.getProgram().getSourceFile(fileName);
  const lc = file.getLineAndCharacterOfPosition(offset);
  const where = rel(fileName) ?? fileName.slice(fileName.lastIndexOf("/") + 1);
  return `${where}:${lc.line + 1}:${lc.character + 1}`;
}
function at(p) {
  const file = `${root}/${p.path}`;
  const source = service.getProgram().getSourceFile(file);
  return { file, offset: source.getPositionOfLineAndCharacter(p.line - 1, p.column - 1) };
}
function out(obj) {
  process.stdout.write(JSON.stringify(obj) + "\n");
}
/** The quick info as our answers carry it: the whole display text. */
function quickInfo(file, offset) {
  const info = service.getQuickInfoAtPosition(file, offset);
  return info === undefined ? "" : ts.displayPartsToString(info.displayParts);
}

const first = at(task.first);
service.getDefinitionAtPosition(first.file, first.offset);
out({ phase: "first", ms: ms() });

const results = { implementations: [], incoming: [], outgoing: [], type: [] };
for (const p of task.implementations) {
  const { file, offset } = at(p);
  const t0 = ms();
  const found = service.getImplementationAtPosition(file, offset) ?? [];
  quickInfo(file, offset);
  results.implementations.push({
    ms: ms() - t0,
    places: found.map((i) => place(i.fileName, i.textSpan.start)),
  });
}
for (const direction of ["incoming", "outgoing"]) {
  for (const p of task.calls) {
    const { file, offset } = at(p);
    const t0 = ms();
    const prepared = service.prepareCallHierarchy(file, offset);
    const roots = prepared === undefined ? [] : [prepared].flat();
    const places = [];
    for (const r of roots) {
      const calls = direction === "incoming"
        ? service.provideCallHierarchyIncomingCalls(r.file, r.selectionSpan.start)
          .filter((c) => rel(c.from.file) !== null && !c.from.file.includes("/node_modules/"))
          .map((c) => c.from)
        : service.provideCallHierarchyOutgoingCalls(r.file, r.selectionSpan.start)
          .map((c) => c.to);
      for (const c of calls) places.push(place(c.file, c.selectionSpan.start));
    }
    results[direction].push({ ms: ms() - t0, places });
  }
}
for (const p of task.types) {
  const { file, offset } = at(p);
  const t0 = ms();
  service.getDefinitionAtPosition(file, offset);
  const type = quickInfo(file, offset).replaceAll(`${root}/`, "");
  results.type.push({ ms: ms() - t0, type });
}
out({ phase: "positions", results, maxRssKiB: process.resourceUsage().maxRSS });
