/**
 * Where a syntax tree has errors, as the diagnostics of a file no type engine checks report them
 * (docs/tools.md "diagnostics"): the first node of each error region, that is each ERROR node or
 * invented (missing) node that no other error node holds, in tree order. Lines are 1-based;
 * columns 1-based in UTF-16 code units, as the symbols' columns are.
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
  if (!root.hasError) return { regions, total };
  const cursor = root.walk();
  try {
    let down = true;
    while (true) {
      if (down) {
        const node = cursor.currentNode;
        if (node.isError || node.isMissing) {
          total++;
          if (regions.length < max) regions.push(regionOf(node));
        } else if (node.hasError && cursor.gotoFirstChild()) continue;
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
  return { regions, total };
}

function regionOf(node: Node): SyntaxRegion {
  const at = { line: node.startPosition.row + 1, column: node.startPosition.column + 1 };
  return node.isMissing ? { ...at, missing: node.type } : at;
}
