// The standalone anchor of bench/monorepo_diagnostics.ts: the same TypeScript under Node, over
// each tsconfig the server checked, as `tsc --noEmit -p` reports it: the config's problems and
// the syntactic and semantic diagnostics of each file the config lists, with TypeScript's own
// Node host. Prints one JSON line: the wall time, the entries (deduplicated as the server
// deduplicates them) and the process's peak RSS.
"use strict";
const fs = require("fs");
const task = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const ts = require(task.typescript);
const { projectService } = require("./ts_project_service.cjs");
const t0 = performance.now();
const seen = new Set();
const perProject = [];
for (const config of task.projects) {
  const t = performance.now();
  const path = `${task.root}/${config}`;
  const { parsed, service } = projectService(ts, task.root, path);
  let count = 0;
  const add = (d, file) => {
    const text = ts.flattenDiagnosticMessageText(d.messageText, "\n");
    const key = `${file}\0${d.start ?? 0}\0${d.code}\0${text}`;
    if (!seen.has(key)) seen.add(key);
    count++;
  };
  for (const d of [...parsed.errors, ...service.getCompilerOptionsDiagnostics()]) add(d, config);
  for (const file of parsed.fileNames) {
    for (const d of service.getSyntacticDiagnostics(file)) add(d, file);
    for (const d of service.getSemanticDiagnostics(file)) add(d, file);
  }
  perProject.push({
    config,
    files: parsed.fileNames.length,
    entries: count,
    ms: performance.now() - t,
  });
  service.dispose();
}
process.stdout.write(
  JSON.stringify({
    ms: performance.now() - t0,
    entries: seen.size,
    perProject,
    maxRssKiB: process.resourceUsage().maxRSS,
  }) + "\n",
);
