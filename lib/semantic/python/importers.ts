/**
 * The files a safe rename's diagnostics check for Python (rename_conflicts.ts): the renamed files
 * and the Python files that import one of them directly. An importer is found by its import
 * statements' text: an `import` or `from` line naming the module's own name (`models` for
 * `shop/models.py`, `shop` for `shop/__init__.py`) as a word, or a bare relative `from . import`
 * (`from .. import` a folder up) that leads into the module's folder. This may take in a file that imports another module of that name: it
 * is then checked too, which costs time and changes no answer (entries are compared before and
 * after the rename).
 */
import type { Workspace } from "../../workspace/workspace.ts";
import { isPythonPath, pythonFilesIn } from "./scope.ts";

/** An import statement: one line, or a parenthesized `from` list over several. */
const IMPORT_LINE =
  /^[ \t]*(?:import[ \t][^\n]*|from[ \t]+[.\w]+[ \t]+import\b(?:[ \t]*\([^)]*\)|[^\n]*))/gm;
const BARE_RELATIVE = /^[ \t]*from[ \t]+(\.+)[ \t]+import\b/gm;
const utf8 = new TextDecoder("utf-8");

/** The module name a file is imported by (its stem; its folder's name for `__init__`). */
function moduleNameOf(rel: string): string {
  const segments = rel.split("/");
  const stem = segments[segments.length - 1].replace(/\.pyi?$/, "");
  return stem === "__init__" ? segments[segments.length - 2] ?? "" : stem;
}

function folderOf(rel: string): string {
  const at = rel.lastIndexOf("/");
  return at < 0 ? "" : rel.slice(0, at);
}

/**
 * `files` (root-relative; those that are not Python files of the workspace are left out) and
 * the workspace's Python files that import one of them directly, each once, in walk order.
 */
export function withImporters(ws: Workspace, files: readonly unknown[]): string[] {
  const touched = new Set<string>();
  for (const f of files) {
    if (typeof f !== "string" || !isPythonPath(f)) continue;
    if (ws.lookupForTypes(f)?.isFile === true) touched.add(f);
  }
  if (touched.size === 0) return [];
  const names = new Set([...touched].map(moduleNameOf).filter((n) => n !== ""));
  const folders = new Set([...touched].map(folderOf));
  const out = [...touched];
  for (const rel of pythonFilesIn(ws, "")) {
    if (touched.has(rel)) continue;
    let text: string;
    try {
      text = utf8.decode(ws.readFileSync(rel, { forTypes: true }));
    } catch {
      continue;
    }
    if (importsOne(text, names) || relativeInto(rel, text, folders)) {
      out.push(rel);
    }
  }
  return out;
}

/** True when a bare `from . import` (`..`: a folder up) of `rel` leads into one of `folders`. */
function relativeInto(rel: string, text: string, folders: ReadonlySet<string>): boolean {
  for (const match of text.matchAll(BARE_RELATIVE)) {
    const segments = folderOf(rel).split("/").filter((s) => s !== "");
    const up = match[1].length - 1;
    if (up > segments.length) continue;
    if (folders.has(segments.slice(0, segments.length - up).join("/"))) return true;
  }
  return false;
}

function importsOne(text: string, names: ReadonlySet<string>): boolean {
  for (const match of text.matchAll(IMPORT_LINE)) {
    for (const word of match[0].split(/[^\w]+/)) if (names.has(word)) return true;
  }
  return false;
}
