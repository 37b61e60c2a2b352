/**
 * The tool table: every tool the server can offer, and when a session offers it. Adding a tool
 * is one file in this folder and one line here (docs/tools.md, "Adding a tool").
 */
import type { Tool } from "./tool.ts";
import { editFileTool } from "./edit_file.ts";
import { findReferencesTool } from "./find_references.ts";
import { findSymbolTool } from "./find_symbol.ts";
import type { GitTarget } from "../git/target.ts";
import { diagnosticsTool } from "./diagnostics.ts";
import { globTool } from "./glob.ts";
import { goToDefinitionTool } from "./go_to_definition.ts";
import { grepTool } from "./grep.ts";
import { listDirTool } from "./list_dir.ts";
import { outlineTool } from "./outline.ts";
import { readFileTool } from "./read_file.ts";
import { renameSymbolTool, renameSymbolWriteTool } from "./rename_symbol.ts";
import { writeFileTool } from "./write_file.ts";
import { deleteFileTool } from "./delete_file.ts";
import { moveFileTool } from "./move_file.ts";
import { gitBlameTool } from "./git_blame.ts";
import { gitDiffTool } from "./git_diff.ts";
import { gitLogTool } from "./git_log.ts";
import { gitShowTool } from "./git_show.ts";
import { gitStatusTool } from "./git_status.ts";

/** What a session can do, decided once at start from the flags and the machine. */
export interface ToolAvailability {
  /** --write was given: the edit tools may be listed. */
  write: boolean;
  /** A git binary exists and the root is the top of a usable git work tree (not --no-git). */
  git: boolean;
  /** Where the git tools run (lib/git/availability.ts), when `git` is true. */
  gitTarget?: GitTarget | null;
  /** --tools: the names this session may offer (null or absent: all). */
  selected?: ReadonlySet<string> | null;
}

export interface ToolEntry {
  tool: Tool;
  /** Offered only when this holds (always, when absent). */
  when?: (available: ToolAvailability) => boolean;
}

export const TOOL_TABLE: readonly ToolEntry[] = [
  { tool: diagnosticsTool },
  { tool: findReferencesTool },
  { tool: findSymbolTool },
  { tool: globTool },
  { tool: goToDefinitionTool },
  { tool: grepTool },
  { tool: listDirTool },
  { tool: outlineTool },
  { tool: readFileTool },
  { tool: renameSymbolTool, when: (s) => !s.write },
  { tool: renameSymbolWriteTool, when: (s) => s.write },
  { tool: editFileTool, when: (s) => s.write },
  { tool: writeFileTool, when: (s) => s.write },
  { tool: deleteFileTool, when: (s) => s.write },
  { tool: moveFileTool, when: (s) => s.write },
  { tool: gitBlameTool, when: (s) => s.git },
  { tool: gitDiffTool, when: (s) => s.git },
  { tool: gitLogTool, when: (s) => s.git },
  { tool: gitShowTool, when: (s) => s.git },
  { tool: gitStatusTool, when: (s) => s.git },
];

/** The tools one session offers. */
export function toolsFor(available: ToolAvailability): Tool[] {
  const chosen = available.selected ?? null;
  return TOOL_TABLE.filter((entry) =>
    (entry.when?.(available) ?? true) && (chosen === null || chosen.has(entry.tool.name))
  ).map((entry) => entry.tool);
}
