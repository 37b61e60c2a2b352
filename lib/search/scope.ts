/**
 * Where a search looks: grep's and the symbol tools' `path`, `glob` and `type`, resolved once
 * (resolveScope), and which walked files that scope covers (scopeFilter, used by the walk and
 * the index alike).
 */
import { compileGlob, globFilter, normalizeGlob } from "./glob_match.ts";
import { typeGlobs as typeGlobsOf } from "./type_names.ts";
import type { Workspace } from "../workspace/workspace.ts";

/** The scope arguments of grep and the symbol tools, as the caller sent them. */
export interface ScopeArguments {
  readonly path?: string;
  readonly glob?: string;
  readonly type?: string;
}

/** A resolved scope: what every later step of a search reads. */
export interface SearchScope {
  /** Root-relative folder to search, or the one file. */
  base: string;
  /** `base` is a file. */
  single: boolean;
  /** ripgrep -g globs, relative to base (checked: each compiles). */
  globs: string[];
  /** Basename globs of the chosen file type (any must match), or none. */
  typeGlobs: string[];
}

/** A scope argument the model must fix (a glob that does not parse, an unknown type). */
export class ScopeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ScopeError";
  }
}

/**
 * The scope of `path`, `glob` and `type`: ScopeError for a bad glob or type, WorkspaceError
 * when the path is missing or refused.
 */
export function resolveScope(ws: Workspace, args: ScopeArguments): SearchScope {
  const globs: string[] = [];
  if (args.glob !== undefined && args.glob !== "") {
    const glob = normalizeGlob(args.glob);
    try {
      compileGlob(glob);
    } catch (error) {
      throw new ScopeError((error as Error).message);
    }
    globs.push(glob);
  }
  let typeGlobs: string[] = [];
  if (args.type !== undefined) {
    const found = typeGlobsOf(args.type);
    if ("error" in found) throw new ScopeError(found.error);
    typeGlobs = [...found.globs];
  }
  const base = ws.resolve(args.path ?? "").rel;
  const single = base !== "" && ws.kind(base) === "file";
  return { base, single, globs, typeGlobs };
}

/**
 * The filter of files below `base` (root-relative): globs match the path relative to `base`
 * (the path itself when it is `base`), file-type globs match the root-relative path.
 */
export function scopeFilter(
  base: string,
  globs: readonly string[],
  typeGlobs: readonly string[],
): (rel: string) => boolean {
  const keep = globs.length > 0 ? globFilter(globs) : null;
  const typeKeep = typeGlobs.length > 0 ? globFilter(typeGlobs) : null;
  return (rel) => {
    const below = base === "" ? rel : rel.slice(base.length + 1);
    if (keep !== null && !keep(below === "" ? rel : below)) return false;
    if (typeKeep !== null && !typeKeep(rel)) return false;
    return true;
  };
}

/** True when `rel` is `base` or below it. */
export function isUnder(rel: string, base: string): boolean {
  return base === "" || rel === base || (rel.startsWith(base) && rel[base.length] === "/");
}
