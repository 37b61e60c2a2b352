/**
 * The module part of a definition's qualified path, in its language's own form, from the file's
 * path (and, for Go, its package clause): what a qualified name's leading parts must match
 * (qualified_name.ts). Each file may have several readings; a name matches when one of them,
 * followed by the definition's enclosing names, ends with the asked container.
 *
 * - Python: the file's path from its package root (the highest folder of a chain of `__init__.py`
 *   packages, else a `src/` folder on the way, else the file's own folder), dotted, without `.py`;
 *   an `__init__.py` is its package (`fastapi/routing.py` -> `fastapi.routing`).
 * - Go: the package clause's name, as code that imports it writes it (`tui.Renderer`; `package
 *   fzf` in `src/terminal.go`: `fzf.Terminal.Input`), else the folder's name.
 * - Rust: the path under the crate's `src/` (`mod.rs`, `lib.rs`, `main.rs` name their folder),
 *   with and without the crate's folder name first (`-` read as `_`).
 * - Java: the package clause (`package com.acme.util;`), else the folders.
 * - Other languages: no module part; namespaces and classes come from the syntax tree.
 */
import type { Workspace } from "../workspace/workspace.ts";
import { languageOf } from "./languages.ts";

/** How much of a file is read for its package clause (licence headers come first). */
const HEAD_BYTES = 16384;
const GO_PACKAGE = /^package[ \t]+([A-Za-z_]\w*)/m;
const CLAUSES_KEPT = 8192;
const JAVA_PACKAGE = /^[ \t]*package[ \t]+([A-Za-z_][\w.]*)[ \t]*;/m;

/** Module readings per file, and `__init__.py` checks per folder, for one call. */
export class ModulePaths {
  /** Package clauses read, by root and path, with the file's stamp then (oldest dropped first). */
  static readonly #clauses = new Map<
    string,
    { size: number; mtimeMs: number; clause: string | null }
  >();
  readonly #ws: Workspace;
  readonly #packages = new Map<string, boolean>();
  readonly #files = new Map<string, Promise<string[][]>>();

  constructor(ws: Workspace) {
    this.#ws = ws;
  }

  /** The module readings of root-relative `path` (each a list of parts; [] when none apply). */
  of(path: string): Promise<string[][]> {
    let found = this.#files.get(path);
    if (found === undefined) {
      found = this.#read(path);
      this.#files.set(path, found);
    }
    return found;
  }

  async #read(path: string): Promise<string[][]> {
    const language = languageOf(path)?.id;
    const folders = path.split("/").slice(0, -1);
    const file = path.slice(path.lastIndexOf("/") + 1);
    if (language === "python") return [this.#python(folders, file)];
    if (language === "rust") return rustModules(folders, file);
    if (language === "java") {
      const clause = await this.#packageClause(path, JAVA_PACKAGE);
      return [clause === null ? folders : clause.split(".")];
    }
    if (language === "go") {
      const clause = await this.#packageClause(path, GO_PACKAGE);
      return [clause === null ? folders.slice(-1) : [clause]];
    }
    return [[]];
  }

  #python(folders: readonly string[], file: string): string[] {
    const stem = file.replace(/\.pyi?$/, "");
    let root = folders.length;
    while (root > 0 && this.#isPackage(folders.slice(0, root).join("/"))) root--;
    if (root === folders.length) {
      // Not in a package: a `src/` folder on the way is the root, else the file's own folder.
      const src = folders.lastIndexOf("src");
      if (src >= 0) root = src + 1;
    }
    const parts = folders.slice(root);
    return stem === "__init__" ? parts : [...parts, stem];
  }

  /** True when folder `rel` holds an `__init__.py`. */
  #isPackage(rel: string): boolean {
    let known = this.#packages.get(rel);
    if (known === undefined) {
      known = this.#ws.stamp(rel === "" ? "__init__.py" : `${rel}/__init__.py`) !== null;
      this.#packages.set(rel, known);
    }
    return known;
  }

  /**
   * The name in a file's `package` clause (`clause` captures it), or null; kept across calls
   * while the file's size and modification time stay the same.
   */
  async #packageClause(path: string, clause: RegExp): Promise<string | null> {
    const stamp = this.#ws.stamp(path);
    const key = `${this.#ws.root}\0${path}`;
    const known = ModulePaths.#clauses.get(key);
    if (stamp !== null && known?.size === stamp.size && known.mtimeMs === stamp.mtimeMs) {
      return known.clause;
    }
    let found: string | null;
    try {
      const head = await this.#ws.readFile(path, { maxBytes: HEAD_BYTES });
      found = clause.exec(new TextDecoder().decode(head))?.[1] ?? null;
    } catch {
      return null;
    }
    if (stamp !== null) {
      const clauses = ModulePaths.#clauses;
      if (clauses.size >= CLAUSES_KEPT) clauses.delete(clauses.keys().next().value!);
      clauses.set(key, { ...stamp, clause: found });
    }
    return found;
  }
}

function rustModules(folders: readonly string[], file: string): string[][] {
  const stem = file.replace(/\.rs$/, "");
  const src = folders.lastIndexOf("src");
  const under = src >= 0 ? folders.slice(src + 1) : [...folders];
  const names = stem === "mod" || stem === "lib" || stem === "main" ? under : [...under, stem];
  const crate = src > 0 ? folders[src - 1].replaceAll("-", "_") : null;
  return crate === null ? [names] : [names, [crate, ...names]];
}
