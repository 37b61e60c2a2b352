/** What the symbol tools share: the search scope from path/glob/type, and parse refusals. */
import { ToolError } from "./tool.ts";
import { isFile, resolvePath } from "./tool_support.ts";
import { FILE_TYPES } from "../search/file_types.ts";
import { compileGlob } from "../search/glob_match.ts";
import { languageNames, languageOf } from "../symbols/languages.ts";
import type { Workspace } from "../workspace/workspace.ts";

export interface SymbolScope {
  /** Root-relative folder to search, or the one file. */
  base: string;
  single: boolean;
  globs: string[];
  typeGlobs: string[];
}

/** The scope of path, glob and type; ToolError (or WorkspaceError) for the model to fix. */
export async function symbolScope(
  ws: Workspace,
  args: Record<string, unknown>,
): Promise<SymbolScope> {
  const globs: string[] = [];
  if (typeof args.glob === "string" && args.glob !== "") {
    try {
      compileGlob(args.glob);
    } catch (error) {
      throw new ToolError((error as Error).message);
    }
    globs.push(args.glob);
  }
  let typeGlobs: string[] = [];
  if (typeof args.type === "string") {
    const globsOfType = FILE_TYPES[args.type];
    if (globsOfType === undefined || !Object.hasOwn(FILE_TYPES, args.type)) {
      throw new ToolError(
        `Unknown file type "${args.type}"; use one of: ${Object.keys(FILE_TYPES).join(", ")}`,
      );
    }
    typeGlobs = [...globsOfType];
  }
  const base = resolvePath(ws, args.path);
  const single = base === "" ? false : await isFile(ws, base);
  if (single) supportedLanguage(base, "search");
  return { base, single, globs, typeGlobs };
}

/** Throws the ToolError naming the languages when `path` is not in one of them. */
export function supportedLanguage(path: string, verb: string): void {
  if (languageOf(path) === null) {
    throw new ToolError(
      `Cannot ${verb} "${path}": not a file of a supported language; symbols are read from ` +
        `${languageNames()} files`,
    );
  }
}

/** A name as the symbol tools take it: one identifier-like word. */
export function checkName(name: string): void {
  if (name.length > 256) throw new ToolError("The name is too long; give at most 256 characters");
  if (/\s/.test(name) || name === "") {
    throw new ToolError(
      `Invalid name "${name}": give one identifier without spaces (use grep for phrases)`,
    );
  }
}

/** The refusal for a file the parser did not read. */
export function parseRefusal(
  path: string,
  outcome: { reason: "binary" | "too-large" | "unreadable"; size?: number },
  maxBytes: number,
): ToolError {
  if (outcome.reason === "too-large") {
    return new ToolError(
      `Cannot read symbols of "${path}": it is ${outcome.size} bytes, over the ${maxBytes}-byte ` +
        `limit (the server's --max-read-bytes); use grep or read_file with offset and limit`,
    );
  }
  if (outcome.reason === "binary") {
    return new ToolError(`Cannot read symbols of "${path}": it is a binary file`);
  }
  return new ToolError(`Cannot read symbols of "${path}": it could not be read; try again`);
}
