/**
 * The projects of a workspace, as the semantic worker builds them: the nearest
 * `tsconfig.json`/`jsconfig.json` above a file inside the root (its `extends` chain followed only
 * inside the root, through TypeFiles), the projects a solution config's `references` name, and one
 * default project for every served TS/JS file that no config claims. One language service per
 * project, built on first use; `compilerOptions.plugins` are dropped (nothing of the repository
 * ever runs). The default project also resolves what a root `deno.json` maps to the
 * root's own files (deno_config.ts).
 */
import type ts from "typescript";
import { isMinifiedScript, isScriptPath } from "./script_paths.ts";
import type { TypeFiles } from "./type_files.ts";
import { DenoConfigReader } from "./deno_config.ts";
import { ProjectReach } from "./reach.ts";

type TS = typeof ts;

/** One parsed config: its options and the files it includes. */
export interface Config {
  path: string;
  options: ts.CompilerOptions;
  fileNames: string[];
  files: Set<string>;
  references: readonly ts.ProjectReference[];
  /** Config files inside the root that it referenced (for the refs walk). */
  referencedConfigs: string[];
  /** Problems of the config itself (an `extends` that does not resolve, a bad option). */
  problems: readonly ts.Diagnostic[];
}

export class Project {
  /** Root-relative path of the config, or "" for the default project. */
  readonly key: string;
  readonly service: ts.LanguageService;
  readonly #files: Set<string>;
  /** The config's own problems (parse errors, an `extends` that does not resolve). */
  readonly configProblems: readonly ts.Diagnostic[];

  constructor(
    key: string,
    service: ts.LanguageService,
    files: Set<string>,
    configProblems: readonly ts.Diagnostic[] = [],
  ) {
    this.key = key;
    this.service = service;
    this.#files = files;
    this.configProblems = configProblems;
  }

  /** True when `path` (absolute) is one of the project's root files (its config lists it). */
  has(path: string): boolean {
    return this.#files.has(path);
  }

  /** The project's listed files (absolute). */
  get listed(): ReadonlySet<string> {
    return this.#files;
  }

  /** True when the project's program holds `path` (listed, or reached through imports). */
  holds(path: string): boolean {
    return this.#files.has(path) || this.service.getProgram()?.getSourceFile(path) !== undefined;
  }
}

/** The host of one project's language service: TypeFiles for every read. */
class ProjectHost implements ts.LanguageServiceHost {
  readonly #ts: TS;
  readonly #files: TypeFiles;
  readonly #options: ts.CompilerOptions;
  readonly #names: string[];
  readonly #references: readonly ts.ProjectReference[] | undefined;
  readonly #token: ts.CancellationToken;

  constructor(
    tsModule: TS,
    files: TypeFiles,
    config: {
      options: ts.CompilerOptions;
      fileNames: string[];
      references?: readonly ts.ProjectReference[];
    },
    token: ts.CancellationToken,
  ) {
    this.#ts = tsModule;
    this.#files = files;
    this.#options = config.options;
    this.#names = config.fileNames;
    this.#references = config.references;
    this.#token = token;
  }

  getCompilationSettings(): ts.CompilerOptions {
    return this.#options;
  }
  getScriptFileNames(): string[] {
    return this.#names;
  }
  getProjectReferences(): readonly ts.ProjectReference[] | undefined {
    return this.#references;
  }
  /** Sources of referenced projects, not their build output (which need not exist). */
  useSourceOfProjectReferenceRedirect(): boolean {
    return true;
  }
  getScriptVersion(fileName: string): string {
    return this.#files.version(fileName);
  }
  getScriptSnapshot(fileName: string): ts.IScriptSnapshot | undefined {
    const text = this.#files.readFile(fileName);
    return text === undefined ? undefined : this.#ts.ScriptSnapshot.fromString(text);
  }
  getCurrentDirectory(): string {
    return this.#files.root;
  }
  getDefaultLibFileName(options: ts.CompilerOptions): string {
    return `${this.#files.libDir}/${this.#ts.getDefaultLibFileName(options)}`;
  }
  getCancellationToken(): ts.CancellationToken {
    return this.#token;
  }
  useCaseSensitiveFileNames(): boolean {
    return true;
  }
  fileExists(path: string): boolean {
    return this.#files.fileExists(path);
  }
  readFile(path: string): string | undefined {
    return this.#files.readFile(path);
  }
  directoryExists(path: string): boolean {
    return this.#files.directoryExists(path);
  }
  getDirectories(path: string): string[] {
    return this.#files.getDirectories(path);
  }
  realpath(path: string): string {
    return this.#files.realpath(path);
  }
  readDirectory(
    path: string,
    extensions?: readonly string[],
    exclude?: readonly string[],
    include?: readonly string[],
    depth?: number,
  ): string[] {
    return readServedDirectory(this.#ts, this.#files, path, extensions, exclude, include, depth);
  }
}

function readServedDirectory(
  tsModule: TS,
  files: TypeFiles,
  path: string,
  extensions?: readonly string[],
  exclude?: readonly string[],
  include?: readonly string[],
  depth?: number,
): string[] {
  // deno-lint-ignore no-explicit-any
  const matchFiles = (tsModule as any).matchFiles as (...args: unknown[]) => string[];
  return matchFiles(
    path,
    extensions,
    exclude,
    include,
    true,
    files.root,
    depth,
    (dir: string) => files.servedEntries(dir),
    (p: string) => files.realpath(p),
  );
}

/** The options of the default project (and of files no config claims). */
export function defaultOptions(tsModule: TS): ts.CompilerOptions {
  return {
    allowJs: true,
    checkJs: false,
    target: tsModule.ScriptTarget.ESNext,
    module: tsModule.ModuleKind.ESNext,
    moduleResolution: tsModule.ModuleResolutionKind.Bundler,
    allowImportingTsExtensions: true,
    jsx: tsModule.JsxEmit.Preserve,
    strict: true,
    noEmit: true,
  };
}

const CONFIG_NAMES = ["tsconfig.json", "jsconfig.json"];

export class ProjectSet {
  readonly #ts: TS;
  readonly #files: TypeFiles;
  readonly #registry: ts.DocumentRegistry;
  readonly #token: ts.CancellationToken;
  readonly #log: (message: string) => void;
  readonly #configs = new Map<string, Config | null>();
  readonly #nearest = new Map<string, string | null>();
  readonly #projects = new Map<string, Project>();
  /** When each project was last asked for (a counter), for releasing the idle ones first. */
  readonly #used = new Map<string, number>();
  #clock = 0;
  readonly #told = new Set<string>();
  /** The config files read (absolute), whose change makes every project stale. */
  readonly configFiles = new Set<string>();
  /** Each config file's version (TypeFiles.version) when it was read. */
  readonly #configVersions = new Map<string, string>();
  #defaultFiles: string[] | null = null;
  readonly #reach: ProjectReach;
  /** Every config of the root (found by name, and those their references name), once read. */
  #allConfigs: Config[] | null = null;

  constructor(
    tsModule: TS,
    files: TypeFiles,
    registry: ts.DocumentRegistry,
    token: ts.CancellationToken,
    log: (message: string) => void,
  ) {
    this.#ts = tsModule;
    this.#files = files;
    this.#registry = registry;
    this.#token = token;
    this.#log = log;
    this.#reach = new ProjectReach(tsModule, files);
  }

  /** Every project is dropped (a config changed, files came or went); parsed files are kept. */
  reset(): void {
    for (const project of this.#projects.values()) project.service.dispose();
    this.#projects.clear();
    this.#configs.clear();
    this.#nearest.clear();
    this.#defaultFiles = null;
    this.#allConfigs = null;
    this.#reach.reset();
    this.configFiles.clear();
    this.#configVersions.clear();
  }

  /**
   * True when a config file read for the projects is not what it was (changed, gone, or made
   * where one was looked for): asked at each request, so an edit made outside the server is
   * seen by the next question whether or not the file watcher has told of it yet (or runs).
   */
  configsChanged(): boolean {
    for (const [path, version] of this.#configVersions) {
      if (this.#files.version(path) !== version) return true;
    }
    return false;
  }

  /** Remembers a config file the projects depend on, with its version as read now. */
  #noteConfig(path: string): void {
    this.configFiles.add(path);
    if (!this.#configVersions.has(path)) this.#configVersions.set(path, this.#files.version(path));
  }

  /**
   * Keeps the programs within a memory budget: when the heap holds `heapBytes`, over
   * `budgetBytes`, the projects used longest ago are released (their programs dropped; a later
   * question builds them again) until the share of program text they held covers the share of
   * the heap that is over; the project used last, and those in `keep`, are kept. Returns the
   * keys released.
   */
  release(
    heapBytes: number,
    budgetBytes: number,
    keep: ReadonlySet<Project> = new Set(),
  ): string[] {
    if (heapBytes <= budgetBytes || this.#projects.size < 2) return [];
    const weight = (project: Project) => {
      let n = 0;
      for (const file of project.service.getProgram()?.getSourceFiles() ?? []) {
        n += file.text.length;
      }
      return n;
    };
    const byAge = [...this.#projects.values()].sort((a, b) =>
      (this.#used.get(a.key) ?? 0) - (this.#used.get(b.key) ?? 0)
    );
    const weights = new Map(byAge.map((p) => [p, weight(p)]));
    const total = [...weights.values()].reduce((a, b) => a + b, 0) || 1;
    const needed = (heapBytes - budgetBytes) / heapBytes;
    const released: string[] = [];
    let freed = 0;
    for (const project of byAge.slice(0, -1)) {
      if (freed / total >= needed) break;
      if (keep.has(project)) continue;
      project.service.dispose();
      this.#projects.delete(project.key);
      freed += weights.get(project)!;
      released.push(project.key);
    }
    return released;
  }

  /** Projects built so far. */
  get built(): Project[] {
    return [...this.#projects.values()];
  }

  /** The project whose answers count for `rel` (a served TS/JS file). */
  projectFor(rel: string): Project {
    const path = this.#files.absOf(rel);
    const config = this.#claim(rel, path);
    return config === null ? this.#defaultProject() : this.#project(config);
  }

  /**
   * The config that owns a file: the nearest config above it that lists it (or one its
   * references lead to), else any config of the root that lists it; null: the default project's.
   */
  #claim(rel: string, path: string): Config | null {
    let dir = rel.lastIndexOf("/") < 0 ? "" : rel.slice(0, rel.lastIndexOf("/"));
    const seen = new Set<string>();
    const visit = (configPath: string): Config | null => {
      if (seen.has(configPath) || seen.size > 64) return null;
      seen.add(configPath);
      const config = this.#config(configPath);
      if (config === null) return null;
      if (config.files.has(path)) return config;
      for (const ref of config.referencedConfigs) {
        const found = visit(ref);
        if (found !== null) return found;
      }
      return null;
    };
    for (;;) {
      const nearest = this.#nearestIn(dir);
      if (nearest === null) break;
      const found = visit(nearest);
      if (found !== null) return found;
      const configDir = this.#files.relOf(nearest.slice(0, nearest.lastIndexOf("/"))) ?? "";
      if (configDir === "") break;
      dir = configDir.lastIndexOf("/") < 0 ? "" : configDir.slice(0, configDir.lastIndexOf("/"));
    }
    return this.allConfigs().find((config) => config.files.has(path)) ?? null;
  }

  /**
   * Every config of the root: each served `tsconfig.json`/`jsconfig.json` and the configs their
   * `references` name (inside the root), by path; configs that cannot be read are left out.
   */
  allConfigs(): Config[] {
    if (this.#allConfigs !== null) return this.#allConfigs;
    const found = new Map<string, Config>();
    const visit = (path: string) => {
      if (found.has(path) || found.size > 4096) return;
      const config = this.#config(path);
      if (config === null) return;
      found.set(path, config);
      for (const ref of config.referencedConfigs) visit(ref);
    };
    for (const entry of this.#files.ws.walk("")) {
      if (entry.isDir) continue;
      const name = entry.rel.slice(entry.rel.lastIndexOf("/") + 1);
      if (CONFIG_NAMES.includes(name)) visit(this.#files.absOf(entry.rel));
    }
    this.#allConfigs = [...found.values()].sort((a, b) => a.path < b.path ? -1 : 1);
    return this.#allConfigs;
  }

  /** The projects of every config of the root (built on first use), by config path. */
  configProjects(): Project[] {
    return this.allConfigs().map((config) => this.#project(config));
  }

  /**
   * Throws TypeScript's cancellation when the question was cancelled: between two program
   * builds, which TypeScript itself never interrupts (so that a worker a cancelled question
   * leaves to finish, lib/semantic/worker_engine.ts, builds no more than the program it is in).
   */
  throwIfCancelled(): void {
    this.#token.throwIfCancellationRequested();
  }

  /**
   * The projects of the root's configs whose programs may hold `path` (absolute): those built
   * already, those that list it, and those whose imports may reach it (ProjectReach); the others
   * are not built for the question. Whether a candidate holds it is Project.holds.
   */
  candidates(path: string): Project[] {
    return this.allConfigs()
      .filter((config) =>
        this.#projects.has(this.#files.relOf(config.path) ?? config.path) ||
        this.#reach.couldHold(config, path)
      )
      .map((config) => this.#project(config));
  }

  /** The default project (files no config lists). */
  defaultProject(): Project {
    return this.#defaultProject();
  }

  /** The keys (root-relative config paths) of the configs that list `rel`. */
  listing(rel: string): Config[] {
    const path = this.#files.absOf(rel);
    return this.allConfigs().filter((config) => config.files.has(path));
  }

  /** The project of a config. */
  projectOf(config: Config): Project {
    return this.#project(config);
  }

  #nearestIn(dir: string): string | null {
    const cached = this.#nearest.get(dir);
    if (cached !== undefined) return cached;
    let found: string | null = null;
    for (const name of CONFIG_NAMES) {
      const path = this.#files.absOf(dir === "" ? name : `${dir}/${name}`);
      if (this.#files.fileExists(path)) {
        found = path;
        break;
      }
    }
    if (found === null && dir !== "") {
      const slash = dir.lastIndexOf("/");
      found = this.#nearestIn(slash < 0 ? "" : dir.slice(0, slash));
    }
    this.#nearest.set(dir, found);
    return found;
  }

  #config(path: string): Config | null {
    if (this.#configs.has(path)) return this.#configs.get(path)!;
    const config = this.#parse(path);
    this.#configs.set(path, config);
    return config;
  }

  #parse(path: string): Config | null {
    const tsModule = this.#ts;
    const files = this.#files;
    this.#noteConfig(path);
    const read = (p: string) => {
      const text = files.readFile(p);
      if (text !== undefined && files.relOf(p) !== null) this.#noteConfig(p);
      return text;
    };
    const text = read(path);
    if (text === undefined) return null;
    const json = tsModule.parseJsonText(path, text);
    const syntax = (json as unknown as { parseDiagnostics?: ts.Diagnostic[] }).parseDiagnostics;
    if (syntax !== undefined && syntax.length > 0) {
      this.#tell(path, syntax);
      return {
        path,
        options: {},
        fileNames: [],
        files: new Set(),
        references: [],
        referencedConfigs: [],
        problems: syntax,
      };
    }
    const host: ts.ParseConfigHost = {
      useCaseSensitiveFileNames: true,
      readDirectory: (dir, extensions, exclude, include, depth) =>
        readServedDirectory(tsModule, files, dir, extensions, exclude, include, depth),
      fileExists: (p) => files.fileExists(p),
      readFile: read,
    };
    const dir = path.slice(0, path.lastIndexOf("/"));
    const parsed = tsModule.parseJsonSourceFileConfigFileContent(json, host, dir, undefined, path);
    this.#tell(path, parsed.errors);
    const options = { ...parsed.options };
    // Language-service plugins run code: never loaded (the language service alone never loads
    // them either; dropped so that nothing downstream could).
    delete options.plugins;
    const references = (parsed.projectReferences ?? []).filter((ref) =>
      files.relOf(ref.path) !== null
    );
    const referencedConfigs = references
      .map((ref) => tsModule.resolveProjectReferencePath(ref))
      .filter((p) => files.relOf(p) !== null);
    const fileNames = parsed.fileNames.filter((p) => files.relOf(p) !== null);
    return {
      path,
      options,
      fileNames,
      files: new Set(fileNames),
      references,
      referencedConfigs,
      problems: parsed.errors,
    };
  }

  /** Config diagnostics, once per config and message, on stderr (never as file diagnostics). */
  #tell(path: string, errors: readonly ts.Diagnostic[]): void {
    const rel = this.#files.relOf(path) ?? path;
    for (const error of errors) {
      const text = this.#ts.flattenDiagnosticMessageText(error.messageText, "\n");
      const key = `${rel}\0${text}`;
      if (this.#told.has(key)) continue;
      this.#told.add(key);
      this.#log(`${rel}: TS${error.code}: ${text}`);
    }
  }

  #project(config: Config): Project {
    const key = this.#files.relOf(config.path) ?? config.path;
    this.#used.set(key, ++this.#clock);
    let project = this.#projects.get(key);
    if (project === undefined) {
      const host = new ProjectHost(this.#ts, this.#files, config, this.#token);
      const service = this.#ts.createLanguageService(host, this.#registry);
      project = new Project(key, service, config.files, config.problems);
      this.#projects.set(key, project);
    }
    return project;
  }

  #defaultProject(): Project {
    this.#used.set("", ++this.#clock);
    let project = this.#projects.get("");
    if (project === undefined) {
      const fileNames = this.defaultFiles();
      const options = defaultOptions(this.#ts);
      const deno = new DenoConfigReader(this.#ts, this.#files).read();
      if (deno !== null) {
        for (const path of deno.configFiles) this.#noteConfig(path);
        if (Object.keys(deno.paths).length > 0) options.paths = deno.paths;
      }
      const host = new ProjectHost(this.#ts, this.#files, { options, fileNames }, this.#token);
      const service = this.#ts.createLanguageService(host, this.#registry);
      project = new Project("", service, new Set(fileNames));
      this.#projects.set("", project);
    }
    return project;
  }

  /** True when no config claims `rel` (a served TS/JS file): the default project's business. */
  unclaimed(rel: string): boolean {
    return this.#claim(rel, this.#files.absOf(rel)) === null;
  }

  /**
   * Every served TS/JS file under the root that no config claims (absolute paths), but minified
   * ones (isMinifiedScript).
   */
  defaultFiles(): string[] {
    if (this.#defaultFiles !== null) return this.#defaultFiles;
    const out: string[] = [];
    for (const entry of this.#files.ws.walk("")) {
      if (entry.isDir || !isScriptPath(entry.rel) || isMinifiedScript(entry.rel)) continue;
      const path = this.#files.absOf(entry.rel);
      if (this.#claim(entry.rel, path) === null) out.push(path);
    }
    this.#defaultFiles = out;
    return out;
  }
}
