/**
 * The four questions the semantic worker answers, from a project's language service: definitions,
 * references, rename edits and diagnostics, in the tools' terms (root-relative paths, 1-based
 * lines and UTF-16 columns as read_file counts lines, each entry's line of text). Only files
 * inside the root are answered about; lib files appear as `external` definitions; text of files
 * the server does not serve (ignored declarations) is never returned, but for one definition line.
 */
import type ts from "typescript";
import { cutLine } from "../../read/long_lines.ts";
import { lineColumn, lineStarts, lineText, locate } from "../positions.ts";
import {
  type Definition,
  type FilePosition,
  type Reference,
  SemanticRefusal as Refusal,
  type SpanEdit,
  type Untouched,
} from "../engine.ts";
import { byPlace } from "../diagnostic_order.ts";
import { isMinifiedScript, isScriptPath } from "./script_paths.ts";
import type { Project, ProjectSet } from "./projects.ts";
import type { TypeFiles } from "./type_files.ts";

type TS = typeof ts;

interface Lines {
  text: string;
  starts: number[];
}

/** What the questions need: the TypeScript module, the file system view, the projects. */
export class SemanticQueries {
  readonly #ts: TS;
  readonly #files: TypeFiles;
  readonly #projects: ProjectSet;
  readonly #lines = new Map<string, Lines>();
  /** Called when the projects must be rebuilt (a file is not where the project set thought). */
  readonly #reset: () => void;

  constructor(tsModule: TS, files: TypeFiles, projects: ProjectSet, reset: () => void) {
    this.#ts = tsModule;
    this.#files = files;
    this.#projects = projects;
    this.#reset = reset;
  }

  #linesOf(path: string): Lines | null {
    const text = this.#files.readFile(path);
    if (text === undefined) return null;
    let lines = this.#lines.get(path);
    if (lines === undefined || lines.text !== text) {
      lines = { text, starts: lineStarts(text) };
      if (this.#lines.size > 4096) this.#lines.clear();
      this.#lines.set(path, lines);
    }
    return lines;
  }

  /** The project of a position's file and the offset it names. */
  #at(at: FilePosition): { project: Project; path: string; offset: number } {
    if (!isScriptPath(at.path)) {
      throw new Refusal(`"${at.path}" is not a TypeScript or JavaScript file`);
    }
    if (isMinifiedScript(at.path) && this.#projects.unclaimed(at.path)) {
      throw new Refusal(
        `"${at.path}" is a minified file, which the type-aware tools leave out when no tsconfig ` +
          `includes it; use grep or read_file on it`,
      );
    }
    const path = this.#files.absOf(at.path);
    const lines = this.#linesOf(path);
    if (lines === null) throw new Refusal(`Cannot read "${at.path}"; check the path`);
    const located = locate(lines.text, lines.starts, at.path, at);
    if (!located.ok) throw new Refusal(located.message);
    let project = this.#projects.projectFor(at.path);
    if (!project.has(path)) {
      // A file that came after the projects were read: read them again.
      this.#reset();
      project = this.#projects.projectFor(at.path);
    }
    return { project, path, offset: located.offset };
  }

  #place(path: string, offset: number): { line: number; column: number; text: string } | null {
    const lines = this.#linesOf(path);
    if (lines === null) return null;
    const { line, column } = lineColumn(lines.starts, offset);
    return { line, column, text: cutLine(lineText(lines.text, lines.starts, line)) };
  }

  definitions(at: FilePosition): Definition[] {
    const { project, path, offset } = this.#at(at);
    const found = project.service.getDefinitionAtPosition(path, offset) ?? [];
    const out: Definition[] = [];
    const seen = new Set<string>();
    for (const d of found) {
      const key = `${d.fileName}\0${d.textSpan.start}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const external = this.#files.isLib(d.fileName);
      const rel = external ? null : this.#files.relOf(d.fileName);
      if (!external && rel === null) continue;
      const place = this.#place(d.fileName, d.textSpan.start);
      if (place === null) continue;
      const span = d.contextSpan ?? d.textSpan;
      const end = this.#place(d.fileName, Math.max(span.start, span.start + span.length - 1));
      const entry: Definition = {
        path: rel,
        line: place.line,
        column: place.column,
        end_line: Math.max(place.line, end?.line ?? place.line),
        kind: d.kind,
        name: this.#shownName(d.name),
        text: place.text,
      };
      if (external) entry.external = d.fileName.slice(d.fileName.lastIndexOf("/") + 1);
      out.push(external ? { ...entry, path: null } : entry);
    }
    return out;
  }

  /**
   * A declaration's name as TypeScript gives it, with the absolute path of a module
   * (`"/home/me/app/lib/application"`) made root-relative (`"lib/application"`), or its last
   * segment when it is outside the root: answers never show where the root lives.
   */
  #shownName(name: string): string {
    const quoted = /^"(\/.*)"$/.exec(name);
    if (quoted === null) return name;
    const rel = this.#files.relOf(quoted[1]);
    return JSON.stringify(rel ?? quoted[1].slice(quoted[1].lastIndexOf("/") + 1));
  }

  /**
   * A message with the root's absolute path taken out of the paths it names
   * (`typeof import("/home/me/app/src/a")` -> `typeof import("src/a")`), and the typescript
   * package's lib folder out of its lib files' paths.
   */
  #withoutRoot(text: string): string {
    return text.replaceAll(`${this.#files.root}/`, "").replaceAll(`${this.#files.libDir}/`, "");
  }

  /**
   * Every project whose program holds `path` (listed or reached through imports and `paths`):
   * the owner first, then the other configs' projects by path (built for the question, each
   * after a cancellation check, but those whose imports cannot reach the file:
   * ProjectSet.candidates).
   */
  #holders(owner: Project, path: string): Project[] {
    const out = [owner];
    // The owner's program first: its files are then parsed for the others to share.
    owner.holds(path);
    for (const project of this.#projects.candidates(path)) {
      if (project === owner) continue;
      this.#projects.throwIfCancelled();
      if (project.holds(path)) out.push(project);
    }
    return out;
  }

  /** The references of the symbol at a position, merged over every project that holds its file. */
  /**
   * One sentence per project with configuration problems (a `types` package not installed, an
   * `extends` that does not resolve): answers from it may miss what the config meant to bring.
   */
  #configNotes(projects: readonly Project[]): string[] {
    const out: string[] = [];
    for (const project of projects) {
      if (project.key === "") continue;
      const found = [...project.configProblems, ...project.service.getCompilerOptionsDiagnostics()];
      if (found.length === 0) continue;
      const first = this.#withoutRoot(
        this.#ts.flattenDiagnosticMessageText(found[0].messageText, "\n").split("\n")[0],
      ).replace(/'\/[^']*\/([^'/]*)'/g, "'<outside the root>/$1'");
      out.push(
        `${project.key} has ${found.length} configuration problem${
          found.length === 1 ? "" : "s"
        } (TS${found[0].code}: ${first}); answers from that project may be incomplete: ` +
          `diagnostics lists them`,
      );
    }
    return out;
  }

  references(
    at: FilePosition,
  ): { references: Reference[]; projects?: string[]; notes?: string[] } {
    const { project, path, offset } = this.#at(at);
    const holders = this.#holders(project, path);
    const declared = new Set<string>();
    const byKey = new Map<string, { rel: string; fileName: string; start: number }>();
    for (const holder of holders) {
      const symbols = holder.service.findReferences(path, offset) ?? [];
      for (const key of this.#declarations(holder, symbols, { path, offset })) declared.add(key);
      for (const symbol of symbols) {
        for (const r of symbol.references) {
          const rel = this.#files.relOf(r.fileName);
          if (rel === null || this.#files.isLib(r.fileName) || !this.#files.isServed(rel)) continue;
          const key = `${r.fileName}\0${r.textSpan.start}`;
          if (!byKey.has(key)) {
            byKey.set(key, { rel, fileName: r.fileName, start: r.textSpan.start });
          }
        }
      }
    }
    const out: Reference[] = [];
    for (const [key, r] of byKey) {
      const place = this.#place(r.fileName, r.start);
      if (place === null) continue;
      out.push({ path: r.rel, ...place, definition: declared.has(key) });
    }
    const answer: { references: Reference[]; projects?: string[]; notes?: string[] } = {
      references: out.sort(byPlace),
    };
    if (holders.length > 1) answer.projects = holders.map((h) => h.key);
    const notes = this.#configNotes(holders);
    if (notes.length > 0) answer.notes = notes;
    return answer;
  }

  /**
   * The entries that declare the symbol (`fileName\0start`), as the language service marks them
   * (`isDefinition`) when asked from a declaration: asked from a use it marks none, and asked from
   * an import it marks the import specifier, which declares only the alias. So each group whose
   * definition is not an alias (an import or export specifier) is asked again at that
   * definition, unless the question was asked there.
   */
  #declarations(
    project: Project,
    symbols: readonly ts.ReferencedSymbol[],
    asked: { path: string; offset: number },
  ): Set<string> {
    const alias = this.#ts.ScriptElementKind.alias;
    const out = new Set<string>();
    const take = (groups: readonly ts.ReferencedSymbol[]) => {
      for (const group of groups) {
        if (group.definition.kind === alias) continue;
        for (const r of group.references) {
          if (r.isDefinition === true) out.add(`${r.fileName}\0${r.textSpan.start}`);
        }
      }
    };
    for (const group of symbols) {
      if (group.definition.kind === alias) continue;
      const { fileName, textSpan } = group.definition;
      const atDefinition = fileName === asked.path && textSpan.start <= asked.offset &&
        asked.offset <= textSpan.start + textSpan.length;
      take(atDefinition ? symbols : project.service.findReferences(fileName, textSpan.start) ?? []);
    }
    return out;
  }

  rename(
    at: FilePosition,
    newName: string,
  ): { edits: SpanEdit[]; untouched?: Untouched; projects?: string[]; notes?: string[] } {
    this.#checkName(newName);
    const { project, path, offset } = this.#at(at);
    const holders = this.#holders(project, path);
    const info = project.service.getRenameInfo(path, offset, { allowRenameOfImportPath: false });
    if (!info.canRename) {
      throw new Refusal(
        `Cannot rename at line ${at.line} of "${at.path}": ${info.localizedErrorMessage}`,
      );
    }
    const locations = holders.flatMap((holder) =>
      holder.service.findRenameLocations(path, offset, false, false, {
        providePrefixAndSuffixTextForRename: true,
      }) ?? []
    );
    const byFile = new Map<string, ts.RenameLocation[]>();
    for (const location of locations) {
      const rel = this.#files.relOf(location.fileName);
      if (rel === null || this.#files.isLib(location.fileName)) {
        throw new Refusal(
          `Cannot rename "${
            this.#shownName(info.displayName)
          }": it is also declared outside the workspace`,
        );
      }
      if (!this.#files.isServed(rel)) {
        throw new Refusal(
          `Cannot rename "${
            this.#shownName(info.displayName)
          }": it would change "${rel}", which this session ` +
            `may not write (ignored, secret or not served); nothing was changed`,
        );
      }
      const list = byFile.get(rel) ?? [];
      list.push(location);
      byFile.set(rel, list);
    }
    const edits: SpanEdit[] = [];
    for (const [rel, list] of byFile) {
      const lines = this.#linesOf(this.#files.absOf(rel));
      if (lines === null) throw new Refusal(`Cannot rename: "${rel}" could not be read; try again`);
      list.sort((a, b) => a.textSpan.start - b.textSpan.start);
      let from = 0;
      for (const location of list) {
        const { start, length } = location.textSpan;
        if (start < from) continue; // the same span twice
        const place = lineColumn(lines.starts, start);
        const end = lineColumn(lines.starts, start + length);
        edits.push({
          path: rel,
          line: place.line,
          column: place.column,
          end_line: end.line,
          end_column: end.column,
          old_text: lines.text.slice(start, start + length),
          new_text: `${location.prefixText ?? ""}${newName}${location.suffixText ?? ""}`,
        });
        from = start + length;
      }
    }
    const answer: {
      edits: SpanEdit[];
      untouched?: Untouched;
      projects?: string[];
      notes?: string[];
    } = { edits: edits.sort(byPlace) };
    const notes = this.#configNotes(holders);
    if (notes.length > 0) answer.notes = notes;
    const untouched = this.#untouched(project, { path, offset }, locations);
    if (untouched !== null) answer.untouched = untouched;
    if (holders.length > 1) answer.projects = holders.map((h) => h.key);
    return answer;
  }

  /**
   * The declaration a rename leaves as it is, when there is one: asked at a use of an imported
   * name (`import { camelize as toCamelCase }`, or a plain import, which becomes `camelize as
   * newName`), the language service renames only the local name, and the declaration and its
   * other uses stay. The first declaration inside the served tree that no location covers.
   */
  #untouched(
    project: Project,
    asked: { path: string; offset: number },
    locations: readonly ts.RenameLocation[],
  ): Untouched | null {
    const covered = new Set(locations.map((l) => `${l.fileName}\0${l.textSpan.start}`));
    const found = project.service.getDefinitionAtPosition(asked.path, asked.offset) ?? [];
    if (found.some((d) => covered.has(`${d.fileName}\0${d.textSpan.start}`))) return null;
    for (const d of found) {
      const rel = this.#files.relOf(d.fileName);
      if (rel === null || this.#files.isLib(d.fileName) || !this.#files.isServed(rel)) continue;
      const place = this.#place(d.fileName, d.textSpan.start);
      if (place === null) continue;
      return { name: this.#shownName(d.name), path: rel, line: place.line, column: place.column };
    }
    return null;
  }

  /** A new name must be one identifier token that is not a reserved word. */
  #checkName(name: string): void {
    const tsModule = this.#ts;
    const scanner = tsModule.createScanner(
      tsModule.ScriptTarget.ESNext,
      false,
      tsModule.LanguageVariant.Standard,
      name,
    );
    const kind = scanner.scan();
    const whole = scanner.getTokenEnd() === name.length && name.length > 0;
    const k = tsModule.SyntaxKind;
    if (
      whole &&
      ((kind >= k.FirstReservedWord && kind <= k.LastReservedWord) ||
        (kind >= k.FirstFutureReservedWord && kind <= k.LastFutureReservedWord))
    ) {
      throw new Refusal(
        `Invalid new_name ${JSON.stringify(name)}: it is a reserved word; give another identifier`,
      );
    }
    if (
      !whole || (kind !== k.Identifier && kind !== k.PrivateIdentifier && !isContextual(kind, k))
    ) {
      throw new Refusal(`Invalid new_name ${JSON.stringify(name)}: give a valid identifier`);
    }
  }

  /**
   * For the navigation questions: every project whose program holds `path` (absolute), the
   * owner first when it does, as references and rename search them.
   */
  holdersOf(owner: Project, path: string): Project[] {
    return this.#holders(owner, path).filter((p) => p.holds(path));
  }

  /** For the navigation questions (navigation.ts): the project and offset of a position. */
  located(at: FilePosition): { project: Project; path: string; offset: number } {
    return this.#at(at);
  }

  /** The 1-based line and column of an offset in a file, with that line's text. */
  placeOf(path: string, offset: number): { line: number; column: number; text: string } | null {
    return this.#place(path, offset);
  }

  /** The text of `length` code units at `start` of a file ("" when it cannot be read). */
  textAt(path: string, start: number, length: number): string {
    return this.#linesOf(path)?.text.slice(start, start + length) ?? "";
  }

  /** A message as answers show it: no absolute path of the root or the lib. */
  message(text: string): string {
    return this.#withoutRoot(text);
  }

  /** A name or display text as answers show it: no absolute path of the root or the lib. */
  shown(text: string): string {
    return this.#withoutRoot(this.#shownName(text));
  }
}

/** Contextual keywords (`type`, `as`, `of`, `async`...) are valid identifiers. */
function isContextual(kind: ts.SyntaxKind, k: typeof ts.SyntaxKind): boolean {
  return kind > k.LastFutureReservedWord && kind <= k.LastKeyword;
}
