/**
 * Diagnostics as `tsc --noEmit -p` gives them, project by project (docs/tools.md "diagnostics"):
 * every project checks its own listed files in the scope (a file several configs list is checked
 * in each, identical entries once), the files no config lists in the default project, and each
 * project's configuration problems (an `extends` that does not resolve, a `types` entry with no
 * package: TS2688) come first, placed at the offending entry of the config file. Complete unless
 * the caller set a time limit (then `partial` says where it stopped). The answer is kept with the
 * versions of every file it read: the same question asked again before any of them changes is
 * answered from it, so the pages of one answer are slices of one list.
 */
import type ts from "typescript";
import type { Diagnostic } from "../engine.ts";
import { byDiagnostic, byPlace } from "../diagnostic_order.ts";
import { isMinifiedScript, isScriptPath } from "./script_paths.ts";
import type { Project, ProjectSet } from "./projects.ts";
import type { TypeFiles } from "./type_files.ts";

type TS = typeof ts;

const SOURCE = "typescript";

export interface DiagnosticsRun {
  /** Root-relative scope ("" the whole root), or files (and their direct importers). */
  path: string;
  files?: string[];
  timeoutMs?: number;
  /** Told the scope once it is known. */
  scope(total: number, leftOut: number): void;
  /** Told each file checked (all its projects), with its diagnostics. */
  checked(path: string, list: Diagnostic[]): void;
  /** Told each step: files checked, of how many, in which project. */
  progress(done: number, total: number, project: string): void;
  /**
   * Told when a project's files are all checked (the memory budget may release it), with the
   * projects still to check (never released meanwhile).
   */
  afterProject?(pending: ReadonlySet<Project>): void;
}

export interface DiagnosticsResult {
  list: Diagnostic[];
  config: Diagnostic[];
  files: number;
  total: number;
  leftOut: number;
  projects: string[];
  partial?: string;
  kept?: boolean;
}

/** What a check reads for a place: the line and column of an offset, a message without root. */
export interface Placer {
  placeOf(path: string, offset: number): { line: number; column: number } | null;
  message(text: string): string;
}

interface Kept {
  key: string;
  result: DiagnosticsResult;
  versions: Map<string, string>;
}

export class ProjectDiagnostics {
  readonly #ts: TS;
  readonly #files: TypeFiles;
  readonly #projects: ProjectSet;
  readonly #placer: Placer;
  #kept: Kept | null = null;

  constructor(tsModule: TS, files: TypeFiles, projects: ProjectSet, placer: Placer) {
    this.#ts = tsModule;
    this.#files = files;
    this.#projects = projects;
    this.#placer = placer;
  }

  /** Forgets the kept answer (an overlay question, or files the server wrote). */
  forget(): void {
    this.#kept = null;
  }

  run(run: DiagnosticsRun, overlaid: boolean): DiagnosticsResult {
    const { targets, leftOut } = this.#targets(run);
    const key = `${run.path}\0${(run.files ?? []).join("\0")}\0${targets.join("\0")}`;
    const kept = this.#kept;
    if (!overlaid && kept !== null && kept.key === key && this.#unchanged(kept.versions)) {
      run.scope(kept.result.total, kept.result.leftOut);
      return { ...kept.result, kept: true };
    }
    const plan = this.#plan(targets);
    run.scope(targets.length, leftOut);
    const versions = new Map<string, string>();
    const result = this.#check(plan, { total: targets.length, leftOut, versions }, run);
    if (!overlaid && result.partial === undefined) {
      for (const path of this.#projects.configFiles) versions.set(path, this.#files.version(path));
      this.#kept = { key, result, versions };
    }
    return result;
  }

  /** The served TS/JS files of the scope; minified files no config lists are left out. */
  #targets(run: DiagnosticsRun): { targets: string[]; leftOut: number } {
    if (run.files !== undefined) return { targets: this.#withImporters(run.files), leftOut: 0 };
    const targets: string[] = [];
    let leftOut = 0;
    for (const entry of this.#files.ws.walk(run.path)) {
      if (entry.isDir || !isScriptPath(entry.rel)) continue;
      if (isMinifiedScript(entry.rel) && this.#projects.unclaimed(entry.rel)) leftOut++;
      else targets.push(entry.rel);
    }
    return { targets, leftOut };
  }

  /** `files` and every served file that imports one of them directly, in any project. */
  #withImporters(files: readonly string[]): string[] {
    const out = new Set(files.filter((f) => isScriptPath(f) && this.#files.isServed(f)));
    for (const rel of [...out]) {
      const path = this.#files.absOf(rel);
      for (const project of this.#holders(rel)) {
        for (const entry of project.service.getFileReferences(path)) {
          const from = this.#files.relOf(entry.fileName);
          if (from !== null && isScriptPath(from) && this.#files.isServed(from)) out.add(from);
        }
      }
    }
    return [...out].sort();
  }

  /** The projects whose program holds a file (built for the question). */
  #holders(rel: string): Project[] {
    const path = this.#files.absOf(rel);
    const out = this.#projects.configProjects().filter((p) => p.holds(path));
    if (this.#projects.unclaimed(rel)) out.push(this.#projects.defaultProject());
    return out;
  }

  /** Each project with the targets it lists, configs by path, the default project last. */
  #plan(targets: readonly string[]): Array<{ project: Project; files: string[] }> {
    const byProject = new Map<Project, string[]>();
    const unlisted: string[] = [];
    for (const rel of targets) {
      const listing = this.#projects.listing(rel);
      if (listing.length === 0) unlisted.push(rel);
      for (const config of listing) {
        const project = this.#projects.projectOf(config);
        byProject.set(project, [...(byProject.get(project) ?? []), rel]);
      }
    }
    const plan = [...byProject].map(([project, files]) => ({ project, files }));
    if (unlisted.length > 0) {
      let project = this.#projects.defaultProject();
      if (unlisted.some((rel) => !project.has(this.#files.absOf(rel)))) {
        // A file that came after the default project was read: read the projects again.
        this.#projects.reset();
        project = this.#projects.defaultProject();
      }
      plan.push({ project, files: unlisted });
    }
    return plan;
  }

  #check(
    plan: ReadonlyArray<{ project: Project; files: string[] }>,
    scope: { total: number; leftOut: number; versions: Map<string, string> },
    run: DiagnosticsRun,
  ): DiagnosticsResult {
    const { total, leftOut } = scope;
    const started = performance.now();
    const seen = new Set<string>();
    const list: Diagnostic[] = [];
    const config: Diagnostic[] = [];
    const remaining = new Map<string, number>();
    for (const step of plan) {
      for (const rel of step.files) remaining.set(rel, (remaining.get(rel) ?? 0) + 1);
    }
    const pending = new Map<string, Diagnostic[]>();
    const add = (into: Diagnostic[], d: Diagnostic) => {
      const id = `${d.path}\0${d.line}\0${d.column}\0${d.code}\0${d.message}`;
      if (seen.has(id)) return false;
      seen.add(id);
      into.push(d);
      return true;
    };
    let done = 0;
    let partial: string | undefined;
    const projects: string[] = [];
    outer: for (const [k, step] of plan.entries()) {
      projects.push(step.project.key);
      for (const d of this.#configProblems(step.project)) add(config, d);
      for (const rel of step.files) {
        if (run.timeoutMs !== undefined && performance.now() - started > run.timeoutMs) {
          partial =
            `Stopped at the time limit (${
              Math.round(run.timeoutMs / 1000)
            } s) with ${done} of ${total} files checked; call again without timeout_s for the ` +
            `complete answer`;
          break outer;
        }
        const found = pending.get(rel) ?? [];
        for (const d of this.#fileDiagnostics(step.project, rel)) if (add(list, d)) found.push(d);
        pending.set(rel, found);
        const left = remaining.get(rel)! - 1;
        remaining.set(rel, left);
        if (left === 0) {
          done++;
          run.checked(rel, found);
          pending.delete(rel);
        }
        run.progress(done, total, step.project.key);
      }
      this.#versionsOf(step.project, scope.versions);
      run.afterProject?.(new Set(plan.slice(k + 1).map((s) => s.project)));
    }
    list.sort(byDiagnostic);
    config.sort(byDiagnostic);
    const result: DiagnosticsResult = { list, config, files: done, total, leftOut, projects };
    if (partial !== undefined) result.partial = partial;
    return result;
  }

  /** A project's configuration problems, at the config's offending entry when it is found. */
  #configProblems(project: Project): Diagnostic[] {
    if (project.key === "") return [];
    const path = this.#files.absOf(project.key);
    const text = this.#files.readFile(path) ?? "";
    const found = [...project.configProblems, ...project.service.getCompilerOptionsDiagnostics()];
    return found.map((d) => {
      // A path outside the root is named by its last segment only (answers never show it).
      const message = this.#placer.message(
        this.#ts.flattenDiagnosticMessageText(d.messageText, "\n"),
      ).replace(/'\/[^']*\/([^'/]*)'/g, "'<outside the root>/$1'");
      let place: { line: number; column: number } | null = null;
      if (d.file !== undefined && d.start !== undefined && d.file.fileName === path) {
        place = this.#placer.placeOf(path, d.start);
      } else {
        const offset = entryOffset(text, d.code, message);
        if (offset >= 0) place = this.#placer.placeOf(path, offset);
      }
      return this.#entry(project.key, place, d, message);
    });
  }

  #fileDiagnostics(project: Project, target: string): Diagnostic[] {
    const path = this.#files.absOf(target);
    const found = [
      ...project.service.getSyntacticDiagnostics(path),
      ...project.service.getSemanticDiagnostics(path),
    ];
    const out: Diagnostic[] = [];
    for (const d of found) {
      const file = d.file?.fileName ?? path;
      const fileRel = this.#files.relOf(file);
      if (fileRel === null || !this.#files.isServed(fileRel)) continue;
      const message = this.#placer.message(
        this.#ts.flattenDiagnosticMessageText(d.messageText, "\n"),
      );
      out.push(this.#entry(fileRel, this.#placer.placeOf(file, d.start ?? 0), d, message));
    }
    return out.sort(byPlace);
  }

  #entry(
    path: string,
    place: { line: number; column: number } | null,
    d: ts.Diagnostic,
    message: string,
  ): Diagnostic {
    return {
      path,
      line: place?.line ?? 1,
      column: place?.column ?? 1,
      code: `TS${d.code}`,
      category: this.#ts.DiagnosticCategory[d.category].toLowerCase() as Diagnostic["category"],
      message,
      source: SOURCE,
    };
  }

  /** Adds the version of every file a project's program read (before it may be released). */
  #versionsOf(project: Project, out: Map<string, string>): void {
    for (const file of project.service.getProgram()?.getSourceFiles() ?? []) {
      if (!this.#files.isLib(file.fileName)) {
        out.set(file.fileName, this.#files.version(file.fileName));
      }
    }
  }

  #unchanged(versions: ReadonlyMap<string, string>): boolean {
    for (const [path, version] of versions) {
      if (this.#files.version(path) !== version) return false;
    }
    return true;
  }
}

/**
 * Where a configuration problem's entry sits in the config text: the `extends` value for a
 * file that cannot be read (TS5083, TS6053), else the first quoted name of the message
 * (`'vitest/globals'`) as a JSON string; -1 when not found.
 */
function entryOffset(text: string, code: number, message: string): number {
  if (code === 5083 || code === 6053) {
    const at = /"extends"\s*:\s*/.exec(text);
    if (at !== null) return at.index + at[0].length;
  }
  const quoted = /'([^']+)'/.exec(message);
  if (quoted === null) return -1;
  return text.indexOf(JSON.stringify(quoted[1]));
}
