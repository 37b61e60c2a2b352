/**
 * Where a search looks: grep's and the symbol tools' `path`, `glob` and `type`, resolved once
 * (resolveScope), and which walked files that scope covers (scopeFilter, used by the walk and
 * the index alike).
 */
import { compileGlob, globCanMatchUnder, globFilter, normalizeGlob } from "./glob_match.ts";
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
  /** ripgrep -g globs (checked: each compiles); one with `/` matches the root-relative path. */
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
 * The filter of files below `base` (root-relative), as `rg -g GLOB -t TYPE PATH` run at the root
 * filters them: a glob with `/` matches the root-relative path (not the path below `base`), one
 * without matches the name; a file named as `base` itself is searched whatever the globs and
 * type say, as rg searches a file named on its command line.
 */
export function scopeFilter(
  base: string,
  globs: readonly string[],
  typeGlobs: readonly string[],
): (rel: string) => boolean {
  const keep = globs.length > 0 ? globFilter(globs, base) : null;
  const typeKeep = typeGlobs.length > 0 ? globFilter(typeGlobs) : null;
  return (rel) => {
    if (rel === base) return true;
    if (keep !== null && !keep(rel)) return false;
    if (typeKeep !== null && !typeKeep(rel)) return false;
    return true;
  };
}

/**
 * The words for a search that found nothing because its glob cannot match below `base` (a glob
 * with `/` matches from the root), with the glob that would have; null when that is not why.
 */
export function globScopeNote(base: string, globs: readonly string[]): string | null {
  const glob = globs.find((g) => !globCanMatchUnder(g, base));
  if (glob === undefined) return null;
  const body = glob.startsWith("/") ? glob.slice(1) : glob;
  return `No files searched: glob "${glob}" has a "/", so it matches paths from the workspace ` +
    `root (as rg -g does), and no path under "${base}" can match it; use "${base}/${body}"`;
}

/** True when `rel` is `base` or below it. */
export function isUnder(rel: string, base: string): boolean {
  return base === "" || rel === base || (rel.startsWith(base) && rel[base.length] === "/");
}
