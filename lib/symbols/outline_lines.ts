/** An outline as lines: one symbol per line, two spaces per level, `<start>-<end> <kind> <name>`. */
import type { CodeSymbol } from "./types.ts";

export interface FlatSymbol {
  depth: number;
  symbol: CodeSymbol;
}

/** Pre-order (source order) list of the symbols down to `maxDepth` levels (1 = top level only). */
export function flattenSymbols(symbols: readonly CodeSymbol[], maxDepth = Infinity): FlatSymbol[] {
  const out: FlatSymbol[] = [];
  const visit = (list: readonly CodeSymbol[], depth: number) => {
    if (depth >= maxDepth) return;
    for (const symbol of list) {
      out.push({ depth, symbol });
      if (symbol.children !== undefined) visit(symbol.children, depth + 1);
    }
  };
  visit(symbols, 0);
  return out;
}

export function outlineLine(flat: FlatSymbol): string {
  const s = flat.symbol;
  return `${"  ".repeat(flat.depth)}${s.start_line}-${s.end_line} ${s.kind} ${s.name}`;
}
