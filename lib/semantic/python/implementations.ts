/**
 * The Python engine's implementations (docs/tools.md "Type-aware Python"). pyright answers no
 * `textDocument/implementation`, so they are built from what it resolves: for a class, its
 * subclasses, direct and transitive: pyright's references to the class that stand in a class
 * statement's bases, each confirmed by pyright's definition of that base resolving to the class
 * (a look-alike of the same name elsewhere is not one); for a method, the methods of the same
 * name those subclasses define in their own bodies (pyright's document symbols), the overrides.
 * Places and definitions come from PythonQueries, as the other answers' do.
 */
import { comparePaths } from "../../workspace/names.ts";
import type { Definition, FilePosition } from "../engine.ts";
import type { LspClient } from "./lsp_client.ts";
import type { PythonQueries } from "./queries.ts";
import type { DocumentSymbol, LspLocation, LspLocationLink, LspPosition } from "./lsp_types.ts";

/** A walk stops once it has found this many subclasses. */
const MAX_CLASSES = 2000;

/** LSP's SymbolKind numbers of a class and of the members that may override a method. */
const CLASS = 5;
const MEMBERS: ReadonlySet<number> = new Set([6, 7, 12]);

/** What the position names: a class, or a method (by name) of a class. */
interface Target {
  cls: LspLocation;
  method: string | null;
}

export class PythonImplementations {
  readonly #client: LspClient;
  readonly #queries: PythonQueries;
  /** Per question: each file's document symbols. */
  readonly #symbols = new Map<string, DocumentSymbol[]>();

  constructor(client: LspClient, queries: PythonQueries) {
    this.#client = client;
    this.#queries = queries;
  }

  /** The subclasses of the class at `at`, or the overrides of the method at `at`. */
  async implementations(at: FilePosition, signal: AbortSignal): Promise<Definition[]> {
    const where = this.#queries.positionOf(at);
    const declared = await this.#locations("textDocument/definition", where, signal);
    const out: Definition[] = [];
    const seen = new Set<string>();
    for (const declaration of declared) {
      const target = await this.#targetOf(declaration, signal);
      if (target === null) continue;
      for (const sub of await this.#subclasses(target.cls, signal)) {
        const found = target.method === null ? [sub.location] : this.#members(sub, target.method);
        for (const location of found) {
          if (seen.has(key(location))) continue;
          seen.add(key(location));
          const entry = this.#queries.definitionAt(location);
          if (entry !== null) out.push(entry);
        }
      }
    }
    return out.sort((a, b) =>
      comparePaths(a.path ?? "", b.path ?? "") || a.line - b.line || a.column - b.column
    );
  }

  /** The class a declaration names, or the class whose method it is (null: neither). */
  async #targetOf(declaration: LspLocation, signal: AbortSignal): Promise<Target | null> {
    const symbols = await this.#symbolsOf(declaration.uri, signal);
    const here = (s: DocumentSymbol) => samePlace(s.selectionRange.start, declaration.range.start);
    const walk = (list: DocumentSymbol[], parent: DocumentSymbol | null): Target | null => {
      for (const symbol of list) {
        if (here(symbol)) {
          if (symbol.kind === CLASS) return { cls: at(declaration.uri, symbol), method: null };
          if (parent !== null && MEMBERS.has(symbol.kind)) {
            return { cls: at(declaration.uri, parent), method: symbol.name };
          }
          return null;
        }
        const inner = walk(symbol.children ?? [], symbol.kind === CLASS ? symbol : null);
        if (inner !== null) return inner;
      }
      return null;
    };
    return walk(symbols, null);
  }

  /** The subclasses of a class, direct then transitive, each once. */
  async #subclasses(
    cls: LspLocation,
    signal: AbortSignal,
  ): Promise<Array<{ location: LspLocation; symbol: DocumentSymbol }>> {
    const out: Array<{ location: LspLocation; symbol: DocumentSymbol }> = [];
    const seen = new Set([key(cls)]);
    const queue = [cls];
    while (queue.length > 0 && out.length < MAX_CLASSES) {
      const base = queue.shift()!;
      for (const sub of await this.#directSubclasses(base, signal)) {
        if (seen.has(key(sub.location))) continue;
        seen.add(key(sub.location));
        out.push(sub);
        queue.push(sub.location);
      }
    }
    return out;
  }

  /**
   * The classes whose bases name `base`: pyright's references to it that stand in a class
   * statement's bases and whose definition is `base` itself. pyright lists the name in
   * `from m import Base as B` but not the uses of `B`: those are asked of the alias in turn.
   */
  async #directSubclasses(
    base: LspLocation,
    signal: AbortSignal,
  ): Promise<Array<{ location: LspLocation; symbol: DocumentSymbol }>> {
    const out: Array<{ location: LspLocation; symbol: DocumentSymbol }> = [];
    const asked = new Set([key(base)]);
    const names = [base];
    while (names.length > 0) {
      const name = names.shift()!;
      for (const reference of await this.#references(name, signal)) {
        const read = this.#queries.offsetIn(reference.uri, reference.range.start);
        if (read === null) continue;
        const alias = importAlias(read.text, read.offset);
        if (alias !== null) {
          const start = reference.range.start;
          const position = { line: start.line, character: start.character + alias };
          const location = { uri: reference.uri, range: { start: position, end: position } };
          if (!asked.has(key(location))) names.push(location);
          asked.add(key(location));
          continue;
        }
        const statement = classStatementOf(read.text, read.offset);
        if (statement === null || !(await this.#resolvesTo(reference, base, signal))) continue;
        const symbol = await this.#classNamed(
          reference.uri,
          statement,
          reference.range.start,
          signal,
        );
        if (symbol !== null) out.push({ location: at(reference.uri, symbol), symbol });
      }
    }
    return out;
  }

  #references(name: LspLocation, signal: AbortSignal): Promise<LspLocation[]> {
    return this.#client.request<LspLocation[] | null>("textDocument/references", {
      textDocument: { uri: name.uri },
      position: name.range.start,
      context: { includeDeclaration: false },
    }, signal).then((found) => found ?? []);
  }

  /** True when pyright's definition of the name at `reference` is `target`. */
  async #resolvesTo(
    reference: LspLocation,
    target: LspLocation,
    signal: AbortSignal,
  ): Promise<boolean> {
    const resolved = await this.#locations(
      "textDocument/definition",
      { uri: reference.uri, position: reference.range.start },
      signal,
    );
    return resolved.some((r) => key(r) === key(target));
  }

  /**
   * The class symbol of the class statement named `name` that holds the reference: the nearest
   * one of that name starting on or before the reference's line.
   */
  async #classNamed(
    uri: string,
    name: string,
    reference: LspPosition,
    signal: AbortSignal,
  ): Promise<DocumentSymbol | null> {
    let best: DocumentSymbol | null = null;
    const visit = (list: DocumentSymbol[]) => {
      for (const symbol of list) {
        const start = symbol.selectionRange.start;
        if (symbol.kind === CLASS && symbol.name === name && start.line <= reference.line) {
          if (best === null || start.line > best.selectionRange.start.line) best = symbol;
        }
        visit(symbol.children ?? []);
      }
    };
    visit(await this.#symbolsOf(uri, signal));
    return best;
  }

  /** The members named `name` a class defines in its own body. */
  #members(
    sub: { location: LspLocation; symbol: DocumentSymbol },
    name: string,
  ): LspLocation[] {
    return (sub.symbol.children ?? [])
      .filter((c) => c.name === name && MEMBERS.has(c.kind))
      .map((c) => at(sub.location.uri, c));
  }

  async #symbolsOf(uri: string, signal: AbortSignal): Promise<DocumentSymbol[]> {
    const known = this.#symbols.get(uri);
    if (known !== undefined) return known;
    const found = await this.#client.request<unknown[] | null>(
      "textDocument/documentSymbol",
      { textDocument: { uri } },
      signal,
    ) ?? [];
    // Hierarchical symbols only (the capability asked for them); anything else counts as none.
    const symbols = found.filter((s): s is DocumentSymbol =>
      typeof s === "object" && s !== null && "selectionRange" in s
    );
    this.#symbols.set(uri, symbols);
    return symbols;
  }

  async #locations(
    method: string,
    where: { uri: string; position: LspPosition },
    signal: AbortSignal,
  ): Promise<LspLocation[]> {
    const found = await this.#client.request<
      LspLocation | Array<LspLocation | LspLocationLink> | null
    >(method, { textDocument: { uri: where.uri }, position: where.position }, signal);
    if (found === null || found === undefined) return [];
    const list = Array.isArray(found) ? found : [found];
    return list.map((l) =>
      "targetUri" in l ? { uri: l.targetUri, range: l.targetSelectionRange } : l
    );
  }
}

function at(uri: string, symbol: DocumentSymbol): LspLocation {
  return { uri, range: symbol.selectionRange };
}

function samePlace(a: LspPosition, b: LspPosition): boolean {
  return a.line === b.line && a.character === b.character;
}

function key(location: LspLocation): string {
  return `${location.uri}\0${location.range.start.line}\0${location.range.start.character}`;
}

/**
 * For a name imported under another (`from m import Base as B`, on one line), the distance from
 * the name to the alias; null otherwise.
 */
export function importAlias(text: string, offset: number): number | null {
  const name = /^[A-Za-z_]\w*/.exec(text.slice(offset))?.[0];
  if (name === undefined) return null;
  const before = text.slice(Math.max(0, offset - 2000), offset);
  if (!/\bimport[ \t(\\\n]+(?:[\w.]+(?:[ \t]+as[ \t]+\w+)?[ \t]*,[ \t\\\n]*)*$/.test(before)) {
    return null;
  }
  const alias = /^[ \t]+as[ \t]+([A-Za-z_]\w*)/.exec(text.slice(offset + name.length));
  return alias === null ? null : name.length + alias[0].length - alias[1].length;
}

const CLASS_HEAD = /(?:^|[\n;:])[ \t]*class[ \t]+([A-Za-z_]\w*)[ \t]*(?:\[[^\]]*\])?[ \t]*$/;

/**
 * The name of the class statement in whose bases the name at `offset` stands, or null: walking
 * back over balanced brackets to an open `(` preceded by `class Name` (type parameters allowed),
 * with nothing but a dotted prefix (`models.`) between the last comma and the name (not a keyword
 * argument such as `metaclass=`, not inside a subscript such as `Generic[T]`), and a comma, `)`
 * or `[` after it.
 */
export function classStatementOf(text: string, offset: number): string | null {
  const name = /^[A-Za-z_]\w*/.exec(text.slice(offset))?.[0];
  if (name === undefined) return null;
  const after = /^\s*(.)/.exec(text.slice(offset + name.length))?.[1];
  if (after !== "," && after !== ")" && after !== "[") return null;
  let depth = 0;
  let segmentStart = -1;
  for (let i = offset - 1; i >= 0; i--) {
    const c = text[i];
    if (c === ")" || c === "]" || c === "}") depth++;
    else if (c === "[" || c === "{") {
      if (depth === 0) return null;
      depth--;
    } else if (c === "(") {
      if (depth > 0) {
        depth--;
        continue;
      }
      const segment = text.slice(segmentStart < 0 ? i + 1 : segmentStart, offset);
      if (!/^\s*(?:[A-Za-z_]\w*\s*\.\s*)*$/.test(segment)) return null;
      return CLASS_HEAD.exec(text.slice(Math.max(0, i - 300), i))?.[1] ?? null;
    } else if (c === "," && depth === 0 && segmentStart < 0) segmentStart = i + 1;
  }
  return null;
}
