/**
 * The document registry the projects share, keyed so that projects whose settings differ only in
 * ways that cannot change a file's syntax tree share that tree. TypeScript's own registry keys a
 * parsed file by the raw values of every option that may affect a source file, so a monorepo's
 * projects that differ in `module: "ES2020"` against the default ES module kind, or in `jsx`,
 * each parse the lib `.d.ts` files (lib.dom.d.ts among them) and the shared sources again. Here
 * the key is built from the same options, with two differences that leave the parsed file (its
 * tree, its module indicator, the imports the program collects on it) exactly as it was:
 * - `target`, `module`, `moduleDetection` and `moduleResolution` by their effective values, and
 *   the ES module kinds (ES2015, ES2020, ES2022, ESNext) as one: they detect modules the same way
 *   (TypeScript's module detection treats only the Node16-NodeNext kinds apart);
 * - for declaration files, no `jsx`, `jsxImportSource` or `importHelpers`: a declaration file has
 *   no JSX, and the implicit JSX-runtime and helper imports are never added to one.
 */
import type ts from "typescript";

type TS = typeof ts;

/** The options whose values the registry key leaves to declarations' own rules. */
const EMIT_ONLY_FOR_SOURCES = new Set(["jsx", "jsxImportSource", "importHelpers"]);

/** The key's two halves, for sources and for declaration files, joined by this separator. */
const SEPARATOR = "\u0000";

/** An option declaration of TypeScript (internal type): its name is what the key reads. */
interface CommandLineOption {
  name: string;
}

interface Internals {
  sourceFileAffectingCompilerOptions: readonly CommandLineOption[];
  getCompilerOptionValue(options: ts.CompilerOptions, option: CommandLineOption): unknown;
  getEmitScriptTarget(options: ts.CompilerOptions): number;
  getEmitModuleKind(options: ts.CompilerOptions): number;
  getEmitModuleDetectionKind(options: ts.CompilerOptions): number;
  getEmitModuleResolutionKind(options: ts.CompilerOptions): number;
  isDeclarationFileName(path: string): boolean;
}

/** A registry over TypeScript's own (`createDocumentRegistry`), with the shared keys. */
export function sharedRegistry(tsModule: TS, inner: ts.DocumentRegistry): ts.DocumentRegistry {
  const internals = tsModule as unknown as Internals;
  const esKinds = new Set([
    tsModule.ModuleKind.ES2015,
    tsModule.ModuleKind.ES2020,
    tsModule.ModuleKind.ES2022,
    tsModule.ModuleKind.ESNext,
  ]);
  const value = (options: ts.CompilerOptions, option: CommandLineOption): unknown => {
    switch (option.name) {
      case "target":
        return internals.getEmitScriptTarget(options);
      case "module": {
        const kind = internals.getEmitModuleKind(options);
        return esKinds.has(kind) ? "es" : kind;
      }
      case "moduleDetection":
        return internals.getEmitModuleDetectionKind(options);
      case "moduleResolution":
        return internals.getEmitModuleResolutionKind(options);
      default:
        return internals.getCompilerOptionValue(options, option);
    }
  };
  const keyOf = (options: ts.CompilerOptions): string => {
    const sources: string[] = [];
    const declarations: string[] = [];
    for (const option of internals.sourceFileAffectingCompilerOptions) {
      const text = `${option.name}=${JSON.stringify(value(options, option) ?? null)}`;
      sources.push(text);
      if (!EMIT_ONLY_FOR_SOURCES.has(option.name)) declarations.push(text);
    }
    const base = `|${options.pathsBasePath ?? ""}`;
    return `${sources.join("|")}${base}${SEPARATOR}${declarations.join("|")}${base}`;
  };
  /** The half of a key that applies to a file. */
  const half = (key: string, path: string): string => {
    const cut = key.indexOf(SEPARATOR);
    if (cut < 0) return key;
    return internals.isDeclarationFileName(path) ? `d:${key.slice(cut + 1)}` : key.slice(0, cut);
  };
  // The forms without a key are TypeScript's own (the language service calls only the keyed ones).
  const registry: ts.DocumentRegistry = {
    getKeyForCompilationSettings: (options) => keyOf(options) as ts.DocumentRegistryBucketKey,
    acquireDocument: inner.acquireDocument.bind(inner),
    updateDocument: inner.updateDocument.bind(inner),
    releaseDocument: inner.releaseDocument.bind(inner),
    acquireDocumentWithKey: (fileName, path, host, key, snapshot, version, kind, options) =>
      inner.acquireDocumentWithKey(
        fileName,
        path,
        host,
        half(key, path) as ts.DocumentRegistryBucketKey,
        snapshot,
        version,
        kind,
        options,
      ),
    updateDocumentWithKey: (fileName, path, host, key, snapshot, version, kind, options) =>
      inner.updateDocumentWithKey(
        fileName,
        path,
        host,
        half(key, path) as ts.DocumentRegistryBucketKey,
        snapshot,
        version,
        kind,
        options,
      ),
    releaseDocumentWithKey:
      ((path: ts.Path, key: ts.DocumentRegistryBucketKey, kind, mode) =>
        inner.releaseDocumentWithKey(
          path,
          half(key, path) as ts.DocumentRegistryBucketKey,
          kind,
          mode,
        )) as ts.DocumentRegistry["releaseDocumentWithKey"],
    reportStats: () => inner.reportStats(),
  };
  return registry;
}
