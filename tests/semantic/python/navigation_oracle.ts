/**
 * The oracle of the Python call hierarchy tests: pyright standalone (pyright_oracle.ts) asked for
 * its call hierarchy, in the engine's terms. It is walked here with pyright's own calls and the rules the engine states: depth first;
 * an item already above it is listed once more as a cycle and not walked again; typeshed items and
 * a module's top level are not walked; callers outside the root are left out.
 */
import { type OracleLocation, pyrightFolder, type PyrightOracle } from "./pyright_oracle.ts";

interface LspRange {
  start: { line: number; character: number };
  end: { line: number; character: number };
}
interface Item {
  name: string;
  kind: number;
  uri: string;
  selectionRange: LspRange;
}

export interface OracleCall extends OracleLocation {
  name: string;
  depth: number;
  sites: Array<{ line: number; column: number }>;
  cycle?: boolean;
}

export class PythonNavigationOracle {
  readonly #oracle: PyrightOracle;
  readonly #typeshed = `${Deno.realPathSync(pyrightFolder())}/dist/typeshed-fallback/`;

  constructor(oracle: PyrightOracle) {
    this.#oracle = oracle;
  }

  #where(path: string, line: number, column: number) {
    return {
      textDocument: { uri: `file://${this.#oracle.root}/${path}` },
      position: { line: line - 1, character: column - 1 + this.#oracle.shift(path, line) },
    };
  }

  #location(uri: string, start: { line: number; character: number }): OracleLocation | null {
    const abs = decodeURIComponent(uri.replace(/^file:\/\//, ""));
    const line = start.line + 1;
    if (abs.startsWith(`${this.#oracle.root}/`)) {
      const path = abs.slice(this.#oracle.root.length + 1);
      // The BOM is line 1's first character to pyright: a column after it moves back by one.
      const shift = start.character > 0 ? this.#oracle.shift(path, line) : 0;
      return { path, line, column: start.character + 1 - shift };
    }
    if (abs.startsWith(this.#typeshed)) {
      return {
        path: null,
        external: abs.slice(this.#typeshed.length),
        line,
        column: start.character + 1,
      };
    }
    return null;
  }

  async calls(
    path: string,
    at: { line: number; column: number },
    walk: { direction: "incoming" | "outgoing"; depth: number },
  ): Promise<{ roots: OracleLocation[]; calls: OracleCall[] }> {
    const roots = await this.#oracle.request<Item[] | null>(
      "textDocument/prepareCallHierarchy",
      this.#where(path, at.line, at.column),
    ) ?? [];
    const calls: OracleCall[] = [];
    const key = (i: Item) =>
      `${i.uri}:${i.selectionRange.start.line}:${i.selectionRange.start.character}`;
    const visit = async (item: Item, above: string[], depth: number) => {
      const incoming = walk.direction === "incoming";
      const found = await this.#oracle.request<
        Array<{ from?: Item; to?: Item; fromRanges: LspRange[] }> | null
      >(incoming ? "callHierarchy/incomingCalls" : "callHierarchy/outgoingCalls", { item }) ?? [];
      for (const call of found) {
        const next = (incoming ? call.from : call.to)!;
        const place = this.#location(next.uri, next.selectionRange.start);
        if (place === null || (incoming && place.path === null)) continue;
        const siteUri = incoming ? next.uri : item.uri;
        const starts = [
          ...new Map(
            call.fromRanges.map((r) => [`${r.start.line}:${r.start.character}`, r.start]),
          ).values(),
        ].sort((a, b) => a.line - b.line || a.character - b.character);
        const cycle = above.includes(key(next));
        const entry: OracleCall = {
          ...place,
          name: next.name,
          depth,
          sites: starts.map((s) => {
            const site = this.#location(siteUri, s)!;
            return { line: site.line, column: site.column };
          }),
        };
        if (cycle) entry.cycle = true;
        calls.push(entry);
        if (!cycle && depth < walk.depth && place.path !== null && next.kind !== 2) {
          await visit(next, [...above, key(next)], depth + 1);
        }
      }
    };
    for (const root of roots) await visit(root, [key(root)], 1);
    return {
      roots: roots.map((r) => this.#location(r.uri, r.selectionRange.start)!),
      calls,
    };
  }
}
