/**
 * The oracle of the navigation tests: TypeScript's language service driven directly (the
 * Oracle of oracle.ts) for implementations, type definitions, quick info and the call hierarchy,
 * in the engine's terms (root-relative paths, 1-based lines and columns; lib files by name with
 * path null). The call hierarchy is walked here with TypeScript's own calls and the rules the
 * engine states: depth first; an item already above it is listed once more as a cycle and not
 * walked again; lib items, a file's top level and items outside the root are not walked; callers
 * outside the root (or under node_modules) are left out.
 */
import ts from "typescript";
import type { Oracle } from "./oracle.ts";

export interface OracleSpot {
  path: string | null;
  external?: string;
  line: number;
  column: number;
  kind: string;
}

export interface OracleCall extends OracleSpot {
  name: string;
  depth: number;
  sites: Array<{ line: number; column: number }>;
  cycle?: boolean;
}

export class NavigationOracle {
  readonly #oracle: Oracle;

  constructor(oracle: Oracle) {
    this.#oracle = oracle;
  }

  get #service(): ts.LanguageService {
    return this.#oracle.service;
  }

  #abs(rel: string): string {
    return `${this.#oracle.root}/${rel}`;
  }

  #inside(fileName: string): boolean {
    return fileName.startsWith(`${this.#oracle.root}/`) && !fileName.includes("/node_modules/");
  }

  #spot(fileName: string, start: number, kind: string): OracleSpot {
    const file = this.#service.getProgram()!.getSourceFile(fileName)!;
    const lc = file.getLineAndCharacterOfPosition(start);
    const inside = fileName.startsWith(`${this.#oracle.root}/`);
    const spot: OracleSpot = {
      path: inside ? fileName.slice(this.#oracle.root.length + 1) : null,
      line: lc.line + 1,
      column: lc.character + 1,
      kind,
    };
    if (!inside) spot.external = fileName.slice(fileName.lastIndexOf("/") + 1);
    return spot;
  }

  implementations(rel: string, line: number, column: number): OracleSpot[] {
    const found = this.#service.getImplementationAtPosition(
      this.#abs(rel),
      this.#oracle.offset(rel, line, column),
    ) ?? [];
    return found.map((i) => this.#spot(i.fileName, i.textSpan.start, i.kind));
  }

  typeDefinitions(rel: string, line: number, column: number): OracleSpot[] {
    const found = this.#service.getTypeDefinitionAtPosition(
      this.#abs(rel),
      this.#oracle.offset(rel, line, column),
    ) ?? [];
    return found.map((d) => this.#spot(d.fileName, d.textSpan.start, d.kind));
  }

  /** Quick info: the whole display text and the documentation up to its first blank line. */
  type(rel: string, line: number, column: number) {
    const info = this.#service.getQuickInfoAtPosition(
      this.#abs(rel),
      this.#oracle.offset(rel, line, column),
    );
    if (info === undefined) return null;
    const doc = ts.displayPartsToString(info.documentation).trim();
    const strip = (s: string) => s.replaceAll(`${this.#oracle.root}/`, "");
    return {
      kind: info.kind,
      type: strip(ts.displayPartsToString(info.displayParts)),
      documentation: strip(doc.split(/\n\s*\n/)[0].trim()),
    };
  }

  calls(
    rel: string,
    at: { line: number; column: number },
    walk: { direction: "incoming" | "outgoing"; depth: number },
  ): { roots: OracleSpot[]; calls: OracleCall[] } {
    const prepared = this.#service.prepareCallHierarchy(
      this.#abs(rel),
      this.#oracle.offset(rel, at.line, at.column),
    );
    const roots = prepared === undefined ? [] : [prepared].flat();
    const calls: OracleCall[] = [];
    const key = (i: ts.CallHierarchyItem) => `${i.file}:${i.selectionSpan.start}`;
    const visit = (item: ts.CallHierarchyItem, above: string[], depth: number) => {
      const pos = item.selectionSpan.start;
      const steps = walk.direction === "incoming"
        ? this.#service.provideCallHierarchyIncomingCalls(item.file, pos)
          .filter((c) => this.#inside(c.from.file))
          .map((c) => ({ next: c.from, spans: c.fromSpans, in: c.from.file }))
        : this.#service.provideCallHierarchyOutgoingCalls(item.file, pos)
          .map((c) => ({ next: c.to, spans: c.fromSpans, in: item.file }));
      for (const step of steps) {
        const file = this.#service.getProgram()!.getSourceFile(step.in)!;
        const starts = [...new Set(step.spans.map((s) => s.start))].sort((a, b) => a - b);
        const cycle = above.includes(key(step.next));
        const call: OracleCall = {
          ...this.#spot(step.next.file, step.next.selectionSpan.start, step.next.kind),
          name: step.next.name.replaceAll(`${this.#oracle.root}/`, ""),
          depth,
          sites: starts.map((s) => {
            const lc = file.getLineAndCharacterOfPosition(s);
            return { line: lc.line + 1, column: lc.character + 1 };
          }),
        };
        if (cycle) call.cycle = true;
        calls.push(call);
        const walkable = step.next.kind !== ts.ScriptElementKind.moduleElement &&
          this.#inside(step.next.file);
        if (!cycle && walkable && depth < walk.depth) {
          visit(step.next, [...above, key(step.next)], depth + 1);
        }
      }
    };
    for (const root of roots) visit(root, [key(root)], 1);
    return {
      roots: roots.map((r) => this.#spot(r.file, r.selectionSpan.start, r.kind)),
      calls,
    };
  }
}
