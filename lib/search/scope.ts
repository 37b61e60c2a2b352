/** Which walked files a grep or glob covers: its ripgrep -g globs and file types (docs/tools.md). */
import { globFilter } from "./glob_match.ts";

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
