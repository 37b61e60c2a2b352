/**
 * Where a syntax tree has errors, as the diagnostics of a file no type engine checks report them
 * (docs/tools.md "diagnostics"): the first node of each error region, that is each ERROR node or
 * invented (missing) node that no other error node holds, in tree order. Lines are 1-based;
 * columns 1-based in UTF-16 code units, as the symbols' columns are. The parser worker's count
 * of errors (which of two parses it keeps) and first error line come from the same walk.
 */
import type { Node } from "web-tree-sitter";

/** One error region: where it starts, and the token the parser had to invent, if it did. */
export interface SyntaxRegion {
  line: number;
  column: number;
  /** The node type tree-sitter inserted (`;`, `)`) for a missing token. */
  missing?: string;
}

/** Regions reported per file at most (the rest are counted, not listed). */
export const MAX_REGIONS = 20;

/** The error regions of a tree, at most `max` of them, and how many there are in all. */
export function errorRegions(
  root: Node,
  max = MAX_REGIONS,
): { regions: SyntaxRegion[]; total: number } {
  const regions: SyntaxRegion[] = [];
  let total = 0;
  eachError(root, (node) => {
    total++;
    if (regions.length < max) regions.push(regionOf(node));
    // A region is counted once: the error nodes inside it are not regions of their own.
    return "over";
  });
  return { regions, total };
}

/** Syntax errors in a tree: its ERROR nodes and the nodes the parser had to invent, nested too. */
export function errorCount(root: Node): number {
  let count = 0;
  eachError(root, () => {
    count++;
    return "into";
  });
  return count;
}

/** The 1-based line of a tree's first syntax error (an ERROR node or an invented one). */
export function firstErrorLine(root: Node): number {
  let line = root.startPosition.row + 1;
  eachError(root, (node) => {
    line = node.startPosition.row + 1;
    return "stop";
  });
  return line;
}

/** What the walk does after an error node: look inside it, go past it, or end. */
type AfterError = "into" | "over" | "stop";

/**
 * Calls `visit` for each ERROR or invented node in tree order, going down only into nodes that
 * hold an error.
 */
function eachError(root: Node, visit: (node: Node) => AfterError): void {
  if (!root.hasError) return;
  const cursor = root.walk();
  try {
    let down = true;
    while (true) {
      if (down) {
        const node = cursor.currentNode;
        const after = node.isError || node.isMissing ? visit(node) : "into";
        if (after === "stop") return;
        if (after === "into" && node.hasError && cursor.gotoFirstChild()) continue;
      }
      if (cursor.gotoNextSibling()) {
        down = true;
        continue;
      }
      if (!cursor.gotoParent()) break;
      down = false;
    }
  } finally {
    cursor.delete();
  }
}

function regionOf(node: Node): SyntaxRegion {
  const at = { line: node.startPosition.row + 1, column: node.startPosition.column + 1 };
  return node.isMissing ? { ...at, missing: node.type } : at;
}
