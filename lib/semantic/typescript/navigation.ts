/**
 * The deeper navigation questions of the TypeScript engine (docs/tools.md "go_to_definition",
 * "find_references"): implementations (`getImplementationAtPosition`), type definitions
 * (`getTypeDefinitionAtPosition`), the call hierarchy (`prepareCallHierarchy` and its incoming
 * and outgoing calls, walked to a depth) and the type at a position (`getQuickInfoAtPosition`),
 * in the tools' terms. Positions, places and names come from SemanticQueries, so that these
 * answers read files, count lines and hide the root exactly as definitions do. Library items
 * come as `external` with path null; callers in files the session does not serve are left out.
 */
import type ts from "typescript";
import type { CallEntry, CallItem, Definition, FilePosition, TypeInfo } from "../engine.ts";
import type { Project } from "./projects.ts";
import type { SemanticQueries } from "./queries.ts";
import type { TypeFiles } from "./type_files.ts";

type TS = typeof ts;

/** The deepest call hierarchy asked for. */
export const MAX_CALL_DEPTH = 3;
/** A walk stops once it holds this many calls (a common function at depth 3 reaches thousands). */
export const MAX_CALLS = 2000;

/** A call hierarchy as the engine answers it. */
export interface CallWalk {
  roots: CallItem[];
  calls: CallEntry[];
  partial?: string;
  /** The projects searched, when several hold the file asked about. */
  projects?: string[];
}

/** One step of a walk: an item of TypeScript's, where it sits, and the calls found under it. */
interface Node {
  item: ts.CallHierarchyItem;
  key: string;
  /** Keys of the items above it, itself included (a recursion is not expanded again). */
  path: ReadonlySet<string>;
}

export class NavigationQueries {
  readonly #ts: TS;
  readonly #files: TypeFiles;
  readonly #queries: SemanticQueries;

  constructor(tsModule: TS, files: TypeFiles, queries: SemanticQueries) {
    this.#ts = tsModule;
    this.#files = files;
    this.#queries = queries;
  }

  /**
   * Implementations of the interface, abstract member or class at a position, merged over every
   * project that holds its file (the owner's first).
   */
  implementations(at: FilePosition): { definitions: Definition[]; projects?: string[] } {
    const { project, path, offset } = this.#queries.located(at);
    const holders = this.#queries.holdersOf(project, path);
    const found = holders.flatMap((holder) =>
      holder.service.getImplementationAtPosition(path, offset) ?? []
    );
    const definitions = this.#definitions(
      found.map((i) => ({ span: i, kind: i.kind, name: this.#nameOf(i) })),
    );
    return holders.length > 1
      ? { definitions, projects: holders.map((h) => h.key) }
      : { definitions };
  }

  /**
   * An implementation's name: the identifier its span covers (a class, a method), else
   * TypeScript's words for it ("(object literal)"), else "(anonymous)".
   */
  #nameOf(found: ts.ImplementationLocation): string {
    const text = this.#queries.textAt(found.fileName, found.textSpan.start, found.textSpan.length);
    if (IDENTIFIER.test(text)) return text;
    return this.#ts.displayPartsToString(found.displayParts) || "(anonymous)";
  }

  /** Declarations of the type of the value at a position. */
  typeDefinitions(at: FilePosition): Definition[] {
    const { project, path, offset } = this.#queries.located(at);
    const found = project.service.getTypeDefinitionAtPosition(path, offset) ?? [];
    return this.#definitions(found.map((d) => ({ span: d, kind: d.kind, name: d.name })));
  }

  /** The quick info at a position: its whole display text and first documentation paragraph. */
  type(at: FilePosition): TypeInfo | null {
    const { project, path, offset } = this.#queries.located(at);
    const info = project.service.getQuickInfoAtPosition(path, offset);
    if (info === undefined) return null;
    const documentation = this.#ts.displayPartsToString(info.documentation ?? []).trim();
    return {
      kind: info.kind,
      type: this.#queries.shown(this.#ts.displayPartsToString(info.displayParts ?? [])),
      documentation: this.#queries.shown(firstParagraph(documentation)),
    };
  }

  /**
   * The calls into (incoming) or out of (outgoing) the function at a position, `depth` levels
   * deep, depth first. An item is expanded unless it is a library item, a file's top level, in a
   * file the session does not serve, or already expanded above it (recursion: `cycle`).
   */
  calls(at: FilePosition, direction: "incoming" | "outgoing", depth: number): CallWalk {
    const { project, path, offset } = this.#queries.located(at);
    const prepared = project.service.prepareCallHierarchy(path, offset);
    const roots = prepared === undefined ? [] : Array.isArray(prepared) ? prepared : [prepared];
    const walk: CallWalk = { roots: [], calls: [] };
    const holders = this.#queries.holdersOf(project, path);
    if (holders.length > 1) walk.projects = holders.map((h) => h.key);
    const seen = new Set<string>();
    for (const root of roots) {
      const shown = this.#item(root);
      if (shown === null) continue;
      walk.roots.push(shown);
      const key = keyOf(root);
      this.#expand(project, { item: root, key, path: new Set([key]) }, {
        direction,
        depth,
        level: 1,
        walk,
        seen,
      });
    }
    return walk;
  }

  #expand(
    project: Project,
    node: Node,
    options: {
      direction: "incoming" | "outgoing";
      depth: number;
      level: number;
      walk: CallWalk;
      /** The items listed at depth 1 (several roots may share callers). */
      seen: Set<string>;
    },
  ): void {
    const { direction, level, walk } = options;
    const steps = this.#steps(project, node.item, direction);
    for (const step of steps) {
      if (walk.calls.length >= MAX_CALLS) {
        walk.partial = `Stopped at ${MAX_CALLS} calls; ask with a smaller depth, or from a ` +
          `function further down`;
        return;
      }
      if (direction === "incoming" && !this.#served(step.item.file)) continue;
      const key = keyOf(step.item);
      if (level === 1) {
        if (options.seen.has(key)) continue;
        options.seen.add(key);
      }
      const shown = this.#item(step.item);
      if (shown === null) continue;
      const cycle = node.path.has(key);
      const entry: CallEntry = {
        ...shown,
        depth: level,
        sites: this.#sites(step.siteFile, step.spans),
      };
      if (cycle) entry.cycle = true;
      walk.calls.push(entry);
      if (cycle || level >= options.depth || !this.#expandable(step.item)) continue;
      this.#expand(project, { item: step.item, key, path: new Set([...node.path, key]) }, {
        ...options,
        level: level + 1,
      });
    }
  }

  /**
   * The calls into or out of an item, merged over every project whose program holds its file
   * (the owner's first; a call found in several has its sites once).
   */
  #steps(
    owner: Project,
    item: ts.CallHierarchyItem,
    direction: "incoming" | "outgoing",
  ): Array<{ item: ts.CallHierarchyItem; spans: ts.TextSpan[]; siteFile: string }> {
    const start = item.selectionSpan.start;
    const byKey = new Map<
      string,
      { item: ts.CallHierarchyItem; spans: ts.TextSpan[]; siteFile: string }
    >();
    for (const holder of this.#queries.holdersOf(owner, item.file)) {
      const found = direction === "incoming"
        ? holder.service.provideCallHierarchyIncomingCalls(item.file, start).map((c) => ({
          item: c.from,
          spans: c.fromSpans,
          // Incoming: the call sites are in the caller's file.
          siteFile: c.from.file,
        }))
        : holder.service.provideCallHierarchyOutgoingCalls(item.file, start).map((c) => ({
          item: c.to,
          spans: c.fromSpans,
          siteFile: item.file,
        }));
      for (const step of found) {
        const had = byKey.get(keyOf(step.item));
        if (had === undefined) byKey.set(keyOf(step.item), { ...step, spans: [...step.spans] });
        else had.spans.push(...step.spans);
      }
    }
    return [...byKey.values()];
  }

  /** True for an item whose own calls are listed: a served file's function, not its top level. */
  #expandable(item: ts.CallHierarchyItem): boolean {
    return item.kind !== this.#ts.ScriptElementKind.moduleElement && this.#served(item.file);
  }

  #served(fileName: string): boolean {
    if (this.#files.isLib(fileName)) return false;
    const rel = this.#files.relOf(fileName);
    return rel !== null && this.#files.isServed(rel);
  }

  /** The call sites, 1-based, in order, each once. */
  #sites(fileName: string, spans: readonly ts.TextSpan[]): CallEntry["sites"] {
    const out: CallEntry["sites"] = [];
    for (const start of [...new Set(spans.map((s) => s.start))].sort((a, b) => a - b)) {
      const place = this.#queries.placeOf(fileName, start);
      if (place !== null) out.push({ line: place.line, column: place.column });
    }
    return out;
  }

  /** An item in the tools' terms, or null for one outside the root that is not a lib file. */
  #item(item: ts.CallHierarchyItem): CallItem | null {
    const where = this.#where(item.file, item.selectionSpan.start, item.span);
    if (where === null) return null;
    return { ...where, kind: item.kind, name: this.#queries.shown(item.name) };
  }

  /** Definitions from TypeScript's spans, each once, in the order TypeScript gives them. */
  #definitions(
    found: ReadonlyArray<{ span: ts.DocumentSpan; kind: string; name: string }>,
  ): Definition[] {
    const out: Definition[] = [];
    const seen = new Set<string>();
    for (const { span, kind, name } of found) {
      const key = `${span.fileName}\0${span.textSpan.start}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const where = this.#where(
        span.fileName,
        span.textSpan.start,
        span.contextSpan ?? span.textSpan,
      );
      if (where === null) continue;
      out.push({ ...where, kind, name: this.#queries.shown(name) });
    }
    return out;
  }

  /**
   * Path (or `external` lib name), line and column of `start`, the last line of `whole`, and the
   * line's text; null for a file outside the root that is not a lib file.
   */
  #where(
    fileName: string,
    start: number,
    whole: ts.TextSpan,
  ): Omit<Definition, "kind" | "name"> | null {
    const external = this.#files.isLib(fileName);
    const rel = external ? null : this.#files.relOf(fileName);
    if (!external && rel === null) return null;
    const place = this.#queries.placeOf(fileName, start);
    if (place === null) return null;
    const end = this.#queries.placeOf(
      fileName,
      Math.max(whole.start, whole.start + whole.length - 1),
    );
    const out: Omit<Definition, "kind" | "name"> = {
      path: rel,
      line: place.line,
      column: place.column,
      end_line: Math.max(place.line, end?.line ?? place.line),
      text: place.text,
    };
    if (external) out.external = fileName.slice(fileName.lastIndexOf("/") + 1);
    return out;
  }
}

const IDENTIFIER = /^[\p{ID_Start}$_#][\p{ID_Continue}$\u200c\u200d]*$/u;

/** An item's identity: its file and the start of its name. */
function keyOf(item: ts.CallHierarchyItem): string {
  return `${item.file}\0${item.selectionSpan.start}`;
}

/** The first paragraph of a documentation text (up to its first blank line). */
export function firstParagraph(text: string): string {
  return text.split(/\r?\n[ \t]*\r?\n/, 1)[0].trim();
}
