// The Node side of the TypeScript anchors (bench/monorepo_anchor.cjs, monorepo_first_anchor.cjs):
// one tsconfig project's language service with TypeScript's own Node file system (ts.sys) as the
// host, project references followed to their sources, as `tsc -p` and our engine read them.
"use strict";

/** The parsed config (`parsed`) and a language service over its files (`service`). */
function projectService(ts, root, configPath) {
  const json = ts.readConfigFile(configPath, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(
    json.config,
    ts.sys,
    configPath.slice(0, configPath.lastIndexOf("/")),
    undefined,
    configPath,
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
    getCurrentDirectory: () => root,
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
    realpath: ts.sys.realpath,
    useCaseSensitiveFileNames: () => true,
  };
  return { parsed, service: ts.createLanguageService(host, ts.createDocumentRegistry()) };
}

module.exports = { projectService };
