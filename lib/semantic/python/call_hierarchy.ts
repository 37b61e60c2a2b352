/**
 * The Python engine's call hierarchy (docs/tools.md "Type-aware Python"), asked of pyright's
 * language server: `textDocument/prepareCallHierarchy`, then `callHierarchy/incomingCalls` or
 * `outgoingCalls`, walked to a depth with the TypeScript engine's rules: depth first; a recursion
 * listed once more and not walked again; typeshed items, a module's top level and items outside
 * the root not walked; callers outside the root left out. Positions, places and definitions come
 * from PythonQueries, so that these answers count lines (BOM, CRLF) and name typeshed files as
 * definitions do.
 */
import type { CallEntry, CallItem, FilePosition } from "../engine.ts";
import type { PythonQueries } from "./queries.ts";
import type { LspClient } from "./lsp_client.ts";
import type { LspRange } from "./lsp_types.ts";

/** A walk stops once it holds this many calls (as the TypeScript engine's). */
const MAX_CALLS = 2000;

interface LspCallItem {
  name: string;
  kind: number;
  uri: string;
  range: LspRange;
  selectionRange: LspRange;
}

/** LSP's SymbolKind numbers as the words TypeScript's answers use. */
const SYMBOL_KINDS: Record<number, string> = {
  1: "file",
  2: "module",
  3: "namespace",
  4: "package",
  5: "class",
  6: "method",
  7: "property",
  8: "field",
  9: "constructor",
  10: "enum",
  11: "interface",
  12: "function",
  13: "variable",
  14: "constant",
  23: "struct",
  26: "type parameter",
};

export interface CallWalk {
  roots: CallItem[];
  calls: CallEntry[];
  partial?: string;
}

export class PythonCallHierarchy {
  readonly #client: LspClient;
  readonly #queries: PythonQueries;

  constructor(client: LspClient, queries: PythonQueries) {
    this.#client = client;
    this.#queries = queries;
  }

  async calls(
    at: FilePosition,
    walk: { direction: "incoming" | "outgoing"; depth: number },
    signal: AbortSignal,
  ): Promise<CallWalk> {
    const where = this.#queries.positionOf(at);
    const prepared = await this.#client.request<LspCallItem[] | null>(
      "textDocument/prepareCallHierarchy",
      { textDocument: { uri: where.uri }, position: where.position },
      signal,
    ) ?? [];
    const out: CallWalk = { roots: [], calls: [] };
    const seen = new Set<string>();
    for (const root of prepared) {
      const shown = this.#item(root);
      if (shown === null) continue;
      out.roots.push(shown);
      await this.#expand(root, [keyOf(root)], { ...walk, level: 1, out, seen, signal });
    }
    return out;
  }

  async #expand(
    item: LspCallItem,
    above: readonly string[],
    walk: {
      direction: "incoming" | "outgoing";
      depth: number;
      level: number;
      out: CallWalk;
      seen: Set<string>;
      signal: AbortSignal;
    },
  ): Promise<void> {
    const incoming = walk.direction === "incoming";
    const found = await this.#client.request<
      Array<{ from?: LspCallItem; to?: LspCallItem; fromRanges: LspRange[] }> | null
    >(
      incoming ? "callHierarchy/incomingCalls" : "callHierarchy/outgoingCalls",
      { item },
      walk.signal,
    ) ?? [];
    for (const call of found) {
      const next = incoming ? call.from : call.to;
      if (next === undefined) continue;
      if (walk.out.calls.length >= MAX_CALLS) {
        walk.out.partial = `Stopped at ${MAX_CALLS} calls; ask with a smaller depth, or from a ` +
          `function further down`;
        return;
      }
      const shown = this.#item(next);
      // Callers outside the root are left out; callees there (typeshed) are listed.
      if (shown === null || (incoming && shown.path === null)) continue;
      const key = keyOf(next);
      if (walk.level === 1) {
        if (walk.seen.has(key)) continue;
        walk.seen.add(key);
      }
      const cycle = above.includes(key);
      const siteUri = incoming ? next.uri : item.uri;
      const entry: CallEntry = {
        ...shown,
        depth: walk.level,
        sites: this.#queries.sitesIn(siteUri, call.fromRanges.map((r) => r.start)),
      };
      if (cycle) entry.cycle = true;
      walk.out.calls.push(entry);
      if (cycle || walk.level >= walk.depth || shown.path === null || next.kind === 2) continue;
      await this.#expand(next, [...above, key], { ...walk, level: walk.level + 1 });
    }
  }

  /** A call item in the tools' terms: the place of its name, its own kind and name. */
  #item(item: LspCallItem): CallItem | null {
    const found = this.#queries.definitionAt({ uri: item.uri, range: item.selectionRange });
    if (found === null) return null;
    return { ...found, kind: SYMBOL_KINDS[item.kind] ?? "symbol", name: item.name };
  }
}

function keyOf(item: LspCallItem): string {
  const at = item.selectionRange.start;
  return `${item.uri}\0${at.line}\0${at.character}`;
}
