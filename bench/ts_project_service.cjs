// The Node side of the TypeScript anchors (bench/semantic_anchor.cjs,
// semantic_navigation_anchor.cjs, monorepo_anchor.cjs, monorepo_first_anchor.cjs): a language
// service with TypeScript's own Node file system (ts.sys) as the host, a tsconfig's project
// references followed to their sources, as `tsc -p` and our engine read them.
"use strict";

/** A tsconfig parsed as `tsc -p` parses it (its paths from the tsconfig's folder). */
function parseProject(ts, configPath) {
  const json = ts.readConfigFile(configPath, ts.sys.readFile);
  return ts.parseJsonConfigFileContent(
    json.config,
    ts.sys,
    configPath.slice(0, configPath.lastIndexOf("/")),
    undefined,
    configPath,
  );
}

/**
 * A language service over `project` (its `options`, `fileNames` and, from a tsconfig,
 * `projectReferences`) in `root`; every file at version "1" unless `scriptVersion` says; its own
 * document registry unless one is given (to share parsed files between projects).
 */
function languageService(
  ts,
  root,
  project,
  scriptVersion = () => "1",
  registry = ts.createDocumentRegistry(),
) {
  const host = {
    getCompilationSettings: () => project.options,
    getScriptFileNames: () => project.fileNames,
    getProjectReferences: () => project.projectReferences,
    useSourceOfProjectReferenceRedirect: () => true,
    getScriptVersion: scriptVersion,
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
  return ts.createLanguageService(host, registry);
}

/**
 * The parsed config (`parsed`) and a language service over its files (`service`), with the
 * document registry given, if one is.
 */
function projectService(ts, root, configPath, registry = undefined) {
  const parsed = parseProject(ts, configPath);
  return { parsed, service: languageService(ts, root, parsed, undefined, registry) };
}

module.exports = { languageService, parseProject, projectService };
