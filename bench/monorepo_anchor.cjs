// The standalone anchor of bench/monorepo_diagnostics.ts: the same TypeScript under Node, over
// each tsconfig the server checked, as `tsc --noEmit -p` reports it: the config's problems and
// the syntactic and semantic diagnostics of each file the config lists, with TypeScript's own
// Node host. Prints one JSON line: the wall time, the entries (deduplicated as the server
// deduplicates them) and the process's peak RSS.
"use strict";
const fs = require("fs");
const task = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const ts = require(task.typescript);
const t0 = performance.now();
const seen = new Set();
const perProject = [];
for (const config of task.projects) {
  const t = performance.now();
  const path = `${task.root}/${config}`;
  const json = ts.readConfigFile(path, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(
    json.config,
    ts.sys,
    path.slice(0, path.lastIndexOf("/")),
    undefined,
    path,
  );
  const host = {
    getCompilationSettings: () => parsed.options,
    getScriptFileNames: () => parsed.fileNames,
    getProjectReferences: () => parsed.projectReferences,
    useSourceOfProjectReferenceRedirect: () => true,
    getScriptVersion: () => "1",
    getScriptSnapshot: (name) => {
      const text = ts.sys.readFile(name);
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => task.root,
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
    realpath: ts.sys.realpath,
    useCaseSensitiveFileNames: () => true,
  };
  const service = ts.createLanguageService(host, ts.createDocumentRegistry());
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
