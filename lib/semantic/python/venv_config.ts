/**
 * The root virtual environment rule: a root with no pyright configuration (no
 * `pyrightconfig.json`, no `[tool.pyright]` table in `pyproject.toml`) and a `.venv` or `venv`
 * folder holding `pyvenv.cfg` is checked as if a `pyrightconfig.json` named that folder
 * (`venvPath` "." and `venv`), so that pyright reads its `lib/python3.N/site-packages` as files.
 * Nothing is run to find it.
 */
import type { Workspace } from "../../workspace/workspace.ts";

/** The names of the folders tried, in order. */
const VENV_NAMES = [".venv", "venv"];
const TOOL_PYRIGHT = /^\s*\[\s*tool\s*\.\s*pyright\s*[.\]]/m;

/** The text of the configuration to show pyright at the root, or null when none is needed. */
export function venvConfig(ws: Workspace): string | null {
  if (ws.lookupForTypes("pyrightconfig.json") !== null) return null;
  const pyproject = ws.lookupForTypes("pyproject.toml");
  if (pyproject !== null && pyproject.isFile) {
    try {
      const text = new TextDecoder().decode(ws.readFileSync("pyproject.toml", { forTypes: true }));
      if (TOOL_PYRIGHT.test(text)) return null;
    } catch {
      // unreadable: as if it had no pyright table
    }
  }
  for (const name of VENV_NAMES) {
    const cfg = ws.lookupForTypes(`${name}/pyvenv.cfg`);
    if (cfg !== null && cfg.isFile) return JSON.stringify({ venvPath: ".", venv: name });
  }
  return null;
}
