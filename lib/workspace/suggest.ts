/**
 * Suggestions for a path that does not exist (docs/tools.md, shared rules): up to three served
 * paths with the nearest names, found without a full walk. Everything listed goes through the
 * workspace's walk, so ignored, secret, `.git` and outside entries are never suggested.
 *
 * 1. From the deepest existing folder of the path, follow the missing segments one level at a
 *    time, keeping the few nearest names at each level (a beam): `kernal/sched/cor.c` finds
 *    `kernel/sched/core.c` by listing three folders.
 * 2. When that finds nothing (a missing or misplaced leading folder, as in `sched/core.c`), a
 *    breadth-first walk below that folder, bounded to MAX_LISTED entries and MAX_MS (it runs on
 *    the caller's thread), looks for the first missing segment as a folder (then follows the
 *    rest as in 1) and for the last one as a name.
 */
/** What the suggestions need of the workspace (the Workspace itself; no import cycle). */
export interface SuggestScope {
  /** Throws when the path is missing or not served. */
  resolve(input: string): { rel: string; abs: string };
  walk(rel: string, options: { dirs: boolean; maxDepth: number }): Iterable<
    { rel: string; isDir: boolean }
  >;
}

/** Entries listed at most for one suggestion. */
const MAX_LISTED = 5000;
/** Time spent listing at most, in milliseconds (suggestions are best effort). */
const MAX_MS = 250;
/** Candidates kept per level of the beam. */
const BEAM = 6;

interface Child {
  rel: string;
  name: string;
  isDir: boolean;
}

interface Candidate {
  rel: string;
  isDir: boolean;
  cost: number;
}

/** Levenshtein distance, ASCII case differences costing a quarter, Unicode normal forms a tenth. */
export function nameDistance(a: string, b: string): number {
  if (a === b) return 0;
  // The same name in another Unicode normal form (NFC vs NFD) is nearly the same name.
  if (a.normalize("NFC") === b.normalize("NFC")) return 0.1;
  const al = a.toLowerCase();
  const bl = b.toLowerCase();
  if (al === bl) return 0.25;
  let previous = Array.from({ length: bl.length + 1 }, (_, j) => j);
  for (let i = 1; i <= al.length; i++) {
    const row = [i];
    for (let j = 1; j <= bl.length; j++) {
      const same = al.charCodeAt(i - 1) === bl.charCodeAt(j - 1);
      row.push(Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (same ? 0 : 1)));
    }
    previous = row;
  }
  return previous[bl.length];
}

/** The distance of two names when they are near enough to suggest one for the other, else null. */
function near(wanted: string, name: string): number | null {
  if (Math.abs(wanted.length - name.length) > Math.max(2, wanted.length / 2)) return null;
  const d = nameDistance(wanted, name);
  return d <= Math.max(1, Math.floor(wanted.length * 0.4)) ? d : null;
}

class Lister {
  listed = 0;
  readonly #ws: SuggestScope;
  readonly #max: number;
  readonly #deadline = performance.now() + MAX_MS;
  constructor(ws: SuggestScope, max: number) {
    this.#ws = ws;
    this.#max = max;
  }

  get exhausted(): boolean {
    return this.listed >= this.#max || performance.now() > this.#deadline;
  }

  /** The served entries directly inside folder `rel` (none once the bound is reached). */
  children(rel: string): Child[] {
    const out: Child[] = [];
    if (this.exhausted) return out;
    try {
      for (const entry of this.#ws.walk(rel, { dirs: true, maxDepth: 1 })) {
        if (entry.rel === rel) continue;
        const name = entry.rel.slice(entry.rel.lastIndexOf("/") + 1);
        out.push({ rel: entry.rel, name, isDir: entry.isDir });
        if (++this.listed >= this.#max) break;
      }
    } catch {
      // vanished or refused meanwhile: nothing to suggest there
    }
    return out;
  }
}

/** Follows `segments` from the folder `from`, keeping the BEAM nearest names per level. */
function follow(
  lister: Lister,
  from: Candidate,
  segments: readonly string[],
): Candidate[] {
  let beam: Candidate[] = [from];
  for (let i = 0; i < segments.length; i++) {
    const last = i === segments.length - 1;
    const next: Candidate[] = [];
    for (const folder of beam) {
      for (const child of lister.children(folder.rel)) {
        if (!last && !child.isDir) continue;
        const d = near(segments[i], child.name);
        if (d !== null) next.push({ rel: child.rel, isDir: child.isDir, cost: folder.cost + d });
      }
    }
    beam = rank(next).slice(0, BEAM);
    if (beam.length === 0) break;
  }
  return beam;
}

function rank(candidates: Candidate[]): Candidate[] {
  return candidates.sort((a, b) =>
    a.cost - b.cost || a.rel.split("/").length - b.rel.split("/").length ||
    (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0)
  );
}

/** The deepest existing served folder among the leading segments, and how many it spans. */
function deepestFolder(ws: SuggestScope, segments: readonly string[]): number {
  for (let k = segments.length - 1; k > 0; k--) {
    try {
      const { abs } = ws.resolve(segments.slice(0, k).join("/"));
      if (Deno.statSync(abs).isDirectory) return k;
    } catch {
      // missing or refused: try a shorter prefix
    }
  }
  return 0;
}

export interface SuggestOptions {
  /** Paths returned at most (default 3). */
  max?: number;
  /** Entries listed at most (default MAX_LISTED). */
  maxListed?: number;
}

/** Up to `max` served paths near the root-relative `rel` (which does not exist). */
export function suggestPaths(
  ws: SuggestScope,
  rel: string,
  options: SuggestOptions = {},
): string[] {
  const max = options.max ?? 3;
  const segments = rel.split("/").filter((s) => s !== "" && s !== ".");
  if (segments.length === 0) return [];
  const lister = new Lister(ws, options.maxListed ?? MAX_LISTED);
  const k = deepestFolder(ws, segments);
  const anchor = segments.slice(0, k).join("/");
  const rest = segments.slice(k);
  const found = new Map<string, Candidate>();
  const add = (c: Candidate) => {
    const had = found.get(c.rel);
    if (had === undefined || had.cost > c.cost) found.set(c.rel, c);
  };
  for (const c of follow(lister, { rel: anchor, isDir: true, cost: 0 }, rest)) {
    if (c.rel !== anchor) add(c);
  }
  if (found.size === 0) {
    // Breadth first below the anchor: a misplaced or missing leading folder costs one more.
    const wanted = rest[rest.length - 1];
    let level: string[] = [anchor];
    while (level.length > 0 && !lister.exhausted) {
      const deeper: string[] = [];
      for (const folder of level) {
        for (const child of lister.children(folder)) {
          if (child.isDir) deeper.push(child.rel);
          if (rest.length > 1 && child.isDir) {
            const d = near(rest[0], child.name);
            if (d !== null) {
              const start = { rel: child.rel, isDir: true, cost: d + 1 };
              for (const c of follow(lister, start, rest.slice(1))) {
                if (c.rel !== child.rel) add(c);
              }
            }
          }
          const d = near(wanted, child.name);
          if (d !== null && (rest.length === 1 || !child.isDir)) {
            add({ rel: child.rel, isDir: child.isDir, cost: d + 1 + rest.length - 1 });
          }
        }
        if (lister.exhausted) break;
      }
      level = deeper;
    }
  }
  found.delete(segments.join("/")); // it exists after all (created meanwhile): nothing to suggest
  return rank([...found.values()]).slice(0, max).map((c) => c.isDir ? `${c.rel}/` : c.rel);
}

/** `; did you mean a, b or c?` to end the message of a missing path, or "" when nothing is near. */
export function didYouMean(suggestions: readonly string[]): string {
  if (suggestions.length === 0) return "";
  const list = suggestions.length === 1
    ? suggestions[0]
    : `${suggestions.slice(0, -1).join(", ")} or ${suggestions.at(-1)}`;
  return `; did you mean ${list}?`;
}
