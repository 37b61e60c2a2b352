/**
 * Pages of resources/list. A listing that continues where the previous page ended takes over
 * that page's walk, kept suspended (and filled ahead between requests) instead of resuming from
 * the cursor's path: same order, same keyset semantics (a walk reads each folder once, so files
 * created or deleted meanwhile may or may not appear; deleted ones are dropped by their stat).
 */
import type { Resource } from "./resource.ts";
import { joinRoot } from "../workspace/names.ts";
import { pathToFileUri } from "../workspace/uri.ts";
import type { WalkEntry, Workspace } from "../workspace/workspace.ts";
import { mimeTypeOf } from "./mime.ts";

/** Suspended listings kept at once; the oldest goes first. */
const MAX_KEPT = 4;
/** A suspended listing older than this is dropped: the next page resumes afresh from its path. */
const KEEP_MS = 30_000;
/** A first page walked ahead (prepareFirst) serves a request this soon after, else it is redone. */
const FIRST_KEEP_MS = 2_000;
/** The key of the first page walked ahead: no path contains NUL. */
const FIRST = "\0";
/** One slice of filling ahead on the main thread, between requests. */
const SLICE_MS = 8;

interface Continuation {
  walk: Generator<WalkEntry>;
  /** Walked ahead: paths and sizes only (Resources are built when a page is answered, so they
   * die young instead of aging into the old generation while they wait). */
  rels: string[];
  sizes: number[];
  head: number;
  done: boolean;
  broken: boolean;
  at: number;
  timer: ReturnType<typeof setTimeout> | undefined;
}

function baseName(rel: string): string {
  return rel.slice(rel.lastIndexOf("/") + 1);
}

/** The Resource of a served file: uri, name, mimeType (when known), size, in wire order. */
function toResource(root: string, rel: string, size: number): Resource {
  const resource: Resource = { uri: pathToFileUri(joinRoot(root, rel)), name: rel };
  const mimeType = mimeTypeOf(baseName(rel));
  if (mimeType !== undefined) resource.mimeType = mimeType;
  resource.size = size;
  return resource;
}

/** The pages of resources/list over one workspace, with suspended walks between pages. */
export class Listings {
  readonly #workspace: Workspace;
  readonly #pageSize: number;
  readonly #kept = new Map<string, Continuation>();

  constructor(workspace: Workspace, pageSize: number) {
    this.#workspace = workspace;
    this.#pageSize = pageSize;
  }

  #toResource(entry: WalkEntry): Resource {
    return toResource(this.#workspace.root, entry.rel, entry.size);
  }

  #pull(c: Continuation): Resource | null {
    if (c.head < c.rels.length) {
      const resource = toResource(this.#workspace.root, c.rels[c.head], c.sizes[c.head]);
      c.head++;
      if (c.head === c.rels.length) {
        c.rels = [];
        c.sizes = [];
        c.head = 0;
      }
      return resource;
    }
    if (c.done) return null;
    const next = c.walk.next();
    if (next.done) {
      c.done = true;
      return null;
    }
    return this.#toResource(next.value);
  }

  /** Walks one entry into the buffer; false when the walk is over. */
  #walkOne(c: Continuation): boolean {
    if (c.done) return false;
    const next = c.walk.next();
    if (next.done) {
      c.done = true;
      return false;
    }
    c.rels.push(next.value.rel);
    c.sizes.push(next.value.size);
    return true;
  }

  /** True when another entry follows (it is then buffered). */
  #hasMore(c: Continuation): boolean {
    return c.head < c.rels.length || this.#walkOne(c);
  }

  #take(after: string): Continuation | undefined {
    const c = this.#kept.get(after);
    if (c === undefined) return undefined;
    this.#kept.delete(after);
    if (c.timer !== undefined) clearTimeout(c.timer);
    c.timer = undefined;
    const keep = after === FIRST ? FIRST_KEEP_MS : KEEP_MS;
    if (c.broken || performance.now() - c.at > keep) {
      c.walk.return(undefined);
      return undefined;
    }
    return c;
  }

  #keep(position: string, c: Continuation): void {
    c.at = performance.now();
    const old = this.#kept.get(position);
    if (old !== undefined) this.#drop(position, old);
    while (this.#kept.size >= MAX_KEPT) {
      const [key, oldest] = this.#kept.entries().next().value!;
      this.#drop(key, oldest);
    }
    this.#kept.set(position, c);
    this.#fillAhead(position, c);
  }

  #drop(position: string, c: Continuation): void {
    this.#kept.delete(position);
    if (c.timer !== undefined) clearTimeout(c.timer);
    c.timer = undefined;
    c.walk.return(undefined);
  }

  /** Fills the next page in slices between requests, so the client's next call finds it ready. */
  #fillAhead(position: string, c: Continuation): void {
    const step = () => {
      c.timer = undefined;
      if (this.#kept.get(position) !== c) return;
      const until = performance.now() + SLICE_MS;
      try {
        let n = 0;
        while (c.rels.length - c.head <= this.#pageSize && this.#walkOne(c)) {
          if ((++n & 31) === 0 && performance.now() > until) break;
        }
      } catch {
        c.broken = true; // the next page resumes from the cursor's path instead
        return;
      }
      if (!c.done && c.rels.length - c.head <= this.#pageSize) schedule();
    };
    const schedule = () => {
      const timer = setTimeout(step, 0);
      Deno.unrefTimer(timer);
      c.timer = timer;
    };
    schedule();
  }

  #start(after: string | undefined): Continuation {
    return {
      walk: this.#workspace.walk("", { after, stat: true }),
      rels: [],
      sizes: [],
      head: 0,
      done: false,
      broken: false,
      at: 0,
      timer: undefined,
    };
  }

  /** Walks the first page ahead, in slices, for a request that comes soon. */
  prepareFirst(): void {
    this.#keep(FIRST, this.#start(undefined));
  }

  /** Drops every suspended listing. */
  close(): void {
    for (const [key, c] of [...this.#kept]) this.#drop(key, c);
  }

  /** The page after `after` (or the first); `more` when entries follow its last one. */
  page(after: string | undefined, signal: AbortSignal): { resources: Resource[]; more: boolean } {
    const c = this.#take(after ?? FIRST) ?? this.#start(after);
    const resources: Resource[] = [];
    try {
      while (resources.length < this.#pageSize) {
        if ((resources.length & 255) === 255) signal.throwIfAborted();
        const resource = this.#pull(c);
        if (resource === null) break;
        resources.push(resource);
      }
      signal.throwIfAborted();
      if (resources.length === this.#pageSize && this.#hasMore(c)) {
        this.#keep(resources[resources.length - 1].name, c);
        return { resources, more: true };
      }
    } catch (e) {
      c.walk.return(undefined);
      throw e;
    }
    c.walk.return(undefined);
    return { resources, more: false };
  }
}
