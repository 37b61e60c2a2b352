import type { Tool } from "./tool.ts";
import { globTool } from "./glob.ts";
import { grepTool } from "./grep.ts";
import { listDirTool } from "./list_dir.ts";
import { readFileTool } from "./read_file.ts";
import { searchPool } from "../search/pool.ts";

/** Every tool the server offers; tools/list sorts them by name. */
export const TOOLS: readonly Tool[] = [globTool, grepTool, listDirTool, readFileTool];

/** Starts the search workers (the server calls this right after the initialize handshake). */
export function warmUp(): void {
  searchPool().warm();
}

/** Terminates the search workers: idle workers keep the process alive, so call this on exit. */
export function stopWorkers(): void {
  searchPool().stop();
}
