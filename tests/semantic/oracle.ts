/**
 * The oracle of the semantic tests: TypeScript's own language service driven directly, over the
 * same project, with TypeScript's own file system (ts.sys) instead of the server's workspace.
 * Answers in the tools' terms (root-relative paths, 1-based lines and columns).
 */
import ts from "typescript";

export interface OracleRef {
  path: string;
  line: number;
  column: number;
  definition: boolean;
}

export class Oracle {
  readonly root: string;
  readonly service: ts.LanguageService;
  readonly fileNames: string[];

  /** `config`: root-relative tsconfig path, or null for the default options over `files`. */
  constructor(root: string, config: string | null, files: string[] = []) {
    this.root = root;
    let options: ts.CompilerOptions;
    let fileNames: string[];
    if (config !== null) {
      const path = `${root}/${config}`;
      const json = ts.readConfigFile(path, ts.sys.readFile);
      const parsed = ts.parseJsonConfigFileContent(
        json.config,
        ts.sys,
        path.slice(0, path.lastIndexOf("/")),
        undefined,
        path,
      );
      options = parsed.options;
      fileNames = parsed.fileNames;
    } else {
      options = {
        allowJs: true,
        checkJs: false,
        target: ts.ScriptTarget.ESNext,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        allowImportingTsExtensions: true,
        jsx: ts.JsxEmit.Preserve,
        strict: true,
        noEmit: true,
      };
      fileNames = files.map((f) => `${root}/${f}`);
    }
    this.fileNames = fileNames;
    const host: ts.LanguageServiceHost = {
      getCompilationSettings: () => options,
      getScriptFileNames: () => fileNames,
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
    this.service = ts.createLanguageService(host, ts.createDocumentRegistry());
  }

  #abs(rel: string): string {
    return `${this.root}/${rel}`;
  }

  #rel(path: string): string {
    return path.startsWith(`${this.root}/`) ? path.slice(this.root.length + 1) : path;
  }

  /** The offset of a 1-based line and column. */
  offset(rel: string, line: number, column: number): number {
    const file = this.service.getProgram()!.getSourceFile(this.#abs(rel))!;
    return file.getPositionOfLineAndCharacter(line - 1, column - 1);
  }

  #place(fileName: string, offset: number): { line: number; column: number } {
    const file = this.service.getProgram()!.getSourceFile(fileName)!;
    const lc = file.getLineAndCharacterOfPosition(offset);
    return { line: lc.line + 1, column: lc.character + 1 };
  }

  definitions(rel: string, line: number, column: number) {
    const found = this.service.getDefinitionAtPosition(
      this.#abs(rel),
      this.offset(rel, line, column),
    ) ?? [];
    return found.map((d) => {
      const inside = d.fileName.startsWith(`${this.root}/`);
      return {
        path: inside ? this.#rel(d.fileName) : null,
        ...this.#place(d.fileName, d.textSpan.start),
        kind: d.kind as string,
        // The tools never show the root's absolute path: a module's name is root-relative.
        name: d.name.replaceAll(`"${this.root}/`, '"'),
      };
    });
  }

  /**
   * The references of a position; `definition` as the language service marks entries asked from
   * the declaration (asked from a use it marks none, from an import the import specifier): each
   * group that is not an alias is asked again at its definition.
   */
  references(rel: string, line: number, column: number): OracleRef[] {
    const symbols = this.service.findReferences(this.#abs(rel), this.offset(rel, line, column)) ??
      [];
    const declared = new Set<string>();
    for (const s of symbols) {
      if (s.definition.kind === ts.ScriptElementKind.alias) continue;
      const view = this.service.findReferences(s.definition.fileName, s.definition.textSpan.start);
      for (const group of view ?? []) {
        if (group.definition.kind === ts.ScriptElementKind.alias) continue;
        for (const r of group.references) {
          if (r.isDefinition === true) declared.add(`${r.fileName}:${r.textSpan.start}`);
        }
      }
    }
    const seen = new Map<string, OracleRef>();
    for (const s of symbols) {
      for (const r of s.references) {
        if (!r.fileName.startsWith(`${this.root}/`) || r.fileName.includes("/node_modules/")) {
          continue;
        }
        const entry = {
          path: this.#rel(r.fileName),
          ...this.#place(r.fileName, r.textSpan.start),
          definition: declared.has(`${r.fileName}:${r.textSpan.start}`),
        };
        const key = `${entry.path}:${r.textSpan.start}`;
        if (!seen.has(key)) seen.set(key, entry);
      }
    }
    return [...seen.values()].sort((a, b) =>
      a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line || a.column - b.column
    );
  }

  /** `path:line` of the entries the language service marks as definitions asked from here. */
  markedDefinitions(rel: string, line: number, column: number): string[] {
    const symbols = this.service.findReferences(this.#abs(rel), this.offset(rel, line, column));
    const out = new Set<string>();
    for (const s of symbols ?? []) {
      for (const r of s.references) {
        if (r.isDefinition === true && r.fileName.startsWith(`${this.root}/`)) {
          out.add(`${this.#rel(r.fileName)}:${this.#place(r.fileName, r.textSpan.start).line}`);
        }
      }
    }
    return [...out].sort();
  }

  /** Every file the rename changes, with the language service's edits applied. */
  renamed(rel: string, line: number, column: number, newName: string): Map<string, string> {
    const locations = this.service.findRenameLocations(
      this.#abs(rel),
      this.offset(rel, line, column),
      false,
      false,
      { providePrefixAndSuffixTextForRename: true },
    ) ?? [];
    const byFile = new Map<string, ts.RenameLocation[]>();
    for (const l of locations) byFile.set(l.fileName, [...(byFile.get(l.fileName) ?? []), l]);
    const out = new Map<string, string>();
    for (const [fileName, list] of byFile) {
      let text = ts.sys.readFile(fileName)!;
      for (const l of list.sort((a, b) => b.textSpan.start - a.textSpan.start)) {
        text = text.slice(0, l.textSpan.start) + (l.prefixText ?? "") + newName +
          (l.suffixText ?? "") + text.slice(l.textSpan.start + l.textSpan.length);
      }
      out.set(this.#rel(fileName), text);
    }
    return out;
  }

  diagnostics(rel: string) {
    const path = this.#abs(rel);
    return [
      ...this.service.getSyntacticDiagnostics(path),
      ...this.service.getSemanticDiagnostics(path),
    ].map((d) => ({
      path: rel,
      ...this.#place(path, d.start ?? 0),
      code: d.code,
      category: ts.DiagnosticCategory[d.category].toLowerCase(),
      message: ts.flattenDiagnosticMessageText(d.messageText, "\n").replaceAll(`${this.root}/`, ""),
    })).sort((a, b) => a.line - b.line || a.column - b.column || a.code - b.code)
      // As the tools print them: the code as TypeScript writes it, the engine named.
      .map((d) => ({ ...d, code: `TS${d.code}`, source: "typescript" }));
  }
}
