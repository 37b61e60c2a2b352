/**
 * The Python files a diagnostics question checks: the served `.py` and `.pyi` files under a
 * path, less what pyright excludes on its own (names starting with a dot, `node_modules`,
 * `__pycache__`, and virtual environments: folders holding `pyvenv.cfg`).
 */
import type { Workspace } from "../../workspace/workspace.ts";

/** `.py` and `.pyi` files: the Python engine answers these. */
export function isPythonPath(path: string): boolean {
  return path.endsWith(".py") || path.endsWith(".pyi");
}

/** The Python files under root-relative `path` ("" for the root) that pyright would check. */
export function pythonFilesIn(ws: Workspace, path: string): string[] {
  const venvs = new Map<string, boolean>();
  const isVenv = (folder: string): boolean => {
    let venv = venvs.get(folder);
    if (venv === undefined) {
      venv = ws.lookupForTypes(`${folder}/pyvenv.cfg`)?.isFile === true;
      venvs.set(folder, venv);
    }
    return venv;
  };
  const files: string[] = [];
  for (const entry of ws.walk(path)) {
    if (entry.isDir || !isPythonPath(entry.rel)) continue;
    const segments = entry.rel.split("/");
    if (segments.some((s) => s.startsWith(".") || s === "node_modules" || s === "__pycache__")) {
      continue;
    }
    let excluded = false;
    for (let n = 1; n < segments.length && !excluded; n++) {
      excluded = isVenv(segments.slice(0, n).join("/"));
    }
    if (!excluded) files.push(entry.rel);
  }
  return files;
}
