/**
 * The oracle of the Python implementations test and benchmark: pyright standalone
 * (pyright_oracle.ts) asked for the references of a class, kept as the engine keeps them (in a
 * class statement's bases, defined by the class; an import alias asked in turn), walked to the
 * end; a method's overrides are the members of that name those subclasses define in their own
 * bodies (pyright's document symbols).
 */
import { classStatementOf, importAlias } from "../../../lib/semantic/python/implementations.ts";
import type { PyrightOracle } from "./pyright_oracle.ts";

/** A file's text and the offset of a 1-based line and column in it. */
function offsetIn(root: string, path: string, line: number, column: number) {
  const text = Deno.readTextFileSync(`${root}/${path}`);
  const starts = [0, ...[...text.matchAll(/\n/g)].map((m) => m.index! + 1)];
  return { text, starts, offset: starts[line - 1] + column - 1 };
}

/**
 * pyright standalone's subclasses of the class at `start` (path:line:column): its references
 * filtered as the engine filters them (in a class statement's bases, defined by the class; an
 * import alias asked in turn), walked to the end.
 */
export async function oracleSubclasses(oracle: PyrightOracle, start: string): Promise<string[]> {
  const out: string[] = [];
  const seen = new Set([start]);
  const classes = [start];
  while (classes.length > 0) {
    const cls = classes.shift()!;
    const names = [cls];
    const asked = new Set(names);
    while (names.length > 0) {
      const [path, line, column] = names.shift()!.split(":");
      const refs = await oracle.references(path, Number(line), Number(column));
      for (const r of refs) {
        if (r.path === null) continue;
        const { text, starts, offset } = offsetIn(oracle.root, r.path, r.line, r.column);
        const alias = importAlias(text, offset);
        if (alias !== null) {
          const name = `${r.path}:${r.line}:${r.column + alias}`;
          if (!asked.has(name)) names.push(name);
          asked.add(name);
          continue;
        }
        const statement = classStatementOf(text, offset);
        if (statement === null) continue;
        const defs = await oracle.definitions(r.path, r.line, r.column);
        if (!defs.some((d) => `${d.path}:${d.line}:${d.column}` === cls)) continue;
        const heads = [
          ...text.slice(0, offset).matchAll(new RegExp(`class\\s+${statement}\\b`, "g")),
        ];
        const last = heads[heads.length - 1];
        const head = last.index! + last[0].indexOf(statement);
        const headLine = starts.findLastIndex((s) => s <= head);
        const found = `${r.path}:${headLine + 1}:${head - starts[headLine] + 1}`;
        if (seen.has(found)) continue;
        seen.add(found);
        out.push(found);
        classes.push(found);
      }
    }
  }
  return out.sort();
}

interface DocumentSymbol {
  name: string;
  kind: number;
  selectionRange: { start: { line: number; character: number } };
  children?: DocumentSymbol[];
}

/** LSP's SymbolKind numbers of a class and of the members that may override a method. */
const CLASS = 5;
const MEMBERS: ReadonlySet<number> = new Set([6, 7, 12]);

/**
 * pyright standalone's overrides of the method `method` of the class at `cls` (path:line:column):
 * the members of that name each subclass (oracleSubclasses) defines in its own body.
 */
export async function oracleOverrides(
  oracle: PyrightOracle,
  cls: string,
  method: string,
): Promise<string[]> {
  const out: string[] = [];
  for (const sub of await oracleSubclasses(oracle, cls)) {
    const [path, line, column] = sub.split(":");
    const symbols = await oracle.request<DocumentSymbol[] | null>("textDocument/documentSymbol", {
      textDocument: { uri: `file://${oracle.root}/${path}` },
    }) ?? [];
    const want = { line: Number(line) - 1, character: Number(column) - 1 };
    want.character += oracle.shift(path, Number(line));
    const found = classAt(symbols, want);
    for (const member of found?.children ?? []) {
      if (member.name !== method || !MEMBERS.has(member.kind)) continue;
      const start = member.selectionRange.start;
      const shift = start.character > 0 ? oracle.shift(path, start.line + 1) : 0;
      out.push(`${path}:${start.line + 1}:${start.character + 1 - shift}`);
    }
  }
  return out.sort();
}

function classAt(
  list: DocumentSymbol[],
  at: { line: number; character: number },
): DocumentSymbol | null {
  for (const symbol of list) {
    const start = symbol.selectionRange.start;
    if (symbol.kind === CLASS && start.line === at.line && start.character === at.character) {
      return symbol;
    }
    const inner = classAt(symbol.children ?? [], at);
    if (inner !== null) return inner;
  }
  return null;
}
