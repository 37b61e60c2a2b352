/**
 * Whether a project's program could hold a file it does not list, told without building the
 * program: the files its program would read are walked from the listed ones through what each
 * file names (imports, exports, `import()`, `require`, triple-slash references, type reference
 * directives, the `types` option or the automatic `@types` packages, the implicit JSX-runtime and
 * helper imports), each resolved as the program resolves it (TypeScript's own module and type
 * reference resolution, with the project's options, over the same files), scanning each file's
 * imports (`preProcessFile`) instead of parsing it. A file not found on that walk is not in the
 * program. Whenever the walk cannot be as sure as the program (project references, which redirect
 * resolved build output to sources; JSDoc imports in a JavaScript file; a walk too long) the
 * answer is "could", and the program is built to know.
 */
import type ts from "typescript";
import type { TypeFiles } from "./type_files.ts";

type TS = typeof ts;

/** What the walk reads of a parsed config (projects.ts Config). */
export interface ReachConfig {
  path: string;
  options: ts.CompilerOptions;
  fileNames: readonly string[];
  files: ReadonlySet<string>;
  references: readonly ts.ProjectReference[];
}

/** Past this many files the walk stops and says "could" (the program is built to know). */
const MAX_WALK = 20_000;
const JS_FILE = /\.[cm]?jsx?$/;
/** A JSDoc comment that imports (`@import`, or `import("x")` in a type). */
const JSDOC_IMPORT = /\/\*\*(?:(?!\*\/)[\s\S])*?(?:@import\b|import\s*\()/;
const JSX_PRAGMA = /@jsxImportSource\s+([^\s*]+)/g;

export class ProjectReach {
  readonly #ts: TS;
  readonly #files: TypeFiles;
  readonly #host: ts.ModuleResolutionHost;
  /** Per config path: the files its program would hold, or null when the walk cannot tell. */
  readonly #walked = new Map<string, Set<string> | null>();

  constructor(tsModule: TS, files: TypeFiles) {
    this.#ts = tsModule;
    this.#files = files;
    this.#host = {
      fileExists: (p) => files.fileExists(p),
      readFile: (p) => files.readFile(p),
      directoryExists: (p) => files.directoryExists(p),
      realpath: (p) => files.realpath(p),
      getCurrentDirectory: () => files.root,
      getDirectories: (p) => files.getDirectories(p),
      useCaseSensitiveFileNames: true,
    };
  }

  /** The walks are stale (files or configs changed). */
  reset(): void {
    this.#walked.clear();
  }

  /** False only when the program of `config` cannot hold `path` (absolute). */
  couldHold(config: ReachConfig, path: string): boolean {
    if (config.files.has(path)) return true;
    let walked = this.#walked.get(config.path);
    if (walked === undefined) {
      walked = this.#walk(config);
      this.#walked.set(config.path, walked);
    }
    return walked === null || walked.has(path);
  }

  #walk(config: ReachConfig): Set<string> | null {
    // A program without root files holds nothing: TypeScript adds the default lib and the
    // automatic type packages only beside root files, and project references redirected to
    // their sources (as the projects use them) bring no file of their own (a solution config).
    if (config.fileNames.length === 0) return new Set();
    if (config.references.length > 0) return null;
    const tsModule = this.#ts;
    const options = config.options;
    const seen = new Set<string>();
    const queue: string[] = [];
    const add = (path: string | undefined) => {
      if (path === undefined || seen.has(path) || this.#files.isLib(path)) return;
      seen.add(path);
      queue.push(path);
    };
    for (const name of config.fileNames) add(name);
    const implicit = implicitImports(tsModule, options);
    const typeNames = options.types ?? tsModule.getAutomaticTypeDirectiveNames(options, this.#host);
    const configFile = config.path;
    const cache = tsModule.createModuleResolutionCache(this.#files.root, (p) => p, options);
    for (const name of typeNames) add(this.#typeReference(name, configFile, options));
    while (queue.length > 0) {
      if (seen.size > MAX_WALK) return null;
      const file = queue.pop()!;
      const text = this.#files.readFile(file);
      if (text === undefined) continue;
      // A JavaScript file's JSDoc may import (`@import`, `import("x")` in a type): comments are
      // not scanned here.
      if (JS_FILE.test(file) && JSDOC_IMPORT.test(text)) return null;
      const found = tsModule.preProcessFile(text, true, true);
      // A `@jsxImportSource` pragma: the program imports that runtime from the file.
      const pragmas = [...text.matchAll(JSX_PRAGMA)].flatMap((m) => [
        `${m[1]}/jsx-runtime`,
        `${m[1]}/jsx-dev-runtime`,
      ]);
      for (const ref of found.referencedFiles) {
        const target = tsModule.resolveTripleslashReference(ref.fileName, file);
        for (const candidate of [target, `${target}.ts`, `${target}.d.ts`]) {
          if (this.#files.fileExists(candidate)) add(candidate);
        }
      }
      for (const ref of found.typeReferenceDirectives) {
        add(this.#typeReference(ref.fileName, file, options));
      }
      for (const name of [...found.importedFiles.map((i) => i.fileName), ...implicit, ...pragmas]) {
        for (const target of this.#module(name, file, options, cache)) add(target);
      }
    }
    return seen;
  }

  /** Where an import resolves from a file, in either resolution mode (import, require). */
  #module(
    name: string,
    from: string,
    options: ts.CompilerOptions,
    cache: ts.ModuleResolutionCache,
  ): string[] {
    const tsModule = this.#ts;
    const out: string[] = [];
    for (const mode of [tsModule.ModuleKind.ESNext, tsModule.ModuleKind.CommonJS, undefined]) {
      const resolved = tsModule.resolveModuleName(
        name,
        from,
        options,
        this.#host,
        cache,
        undefined,
        mode as ts.ResolutionMode,
      ).resolvedModule;
      if (resolved !== undefined) out.push(resolved.resolvedFileName);
    }
    return out;
  }

  #typeReference(name: string, from: string, options: ts.CompilerOptions): string | undefined {
    return this.#ts.resolveTypeReferenceDirective(name, from, options, this.#host)
      .resolvedTypeReferenceDirective?.resolvedFileName;
  }
}

/** The imports a program adds to its files: the JSX runtime, the emit helpers. */
function implicitImports(tsModule: TS, options: ts.CompilerOptions): string[] {
  const out: string[] = [];
  if (options.importHelpers) out.push("tslib");
  const automatic = options.jsx === tsModule.JsxEmit.ReactJSX ||
    options.jsx === tsModule.JsxEmit.ReactJSXDev || options.jsxImportSource !== undefined;
  if (automatic) {
    const source = options.jsxImportSource ?? "react";
    out.push(`${source}/jsx-runtime`, `${source}/jsx-dev-runtime`);
  }
  return out;
}
