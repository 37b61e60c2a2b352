/**
 * Definitions from a syntax tree: a walk over the containers (file, namespaces, class bodies...)
 * driven by per-language rules keyed by node type. Runs in the parser worker.
 */
import type { Node } from "web-tree-sitter";
import type { CodeSymbol, SymbolKind } from "./types.ts";

/** Where a walk is: at file/namespace level, inside a type's body, or inside a function body. */
export type Scope = "top" | "type" | "function";

export interface At {
  scope: Scope;
  /** Name of the enclosing class/namespace/struct/impl, if any. */
  container?: string;
}

/** A definition a rule found. */
export interface Def {
  kind: SymbolKind;
  /** The node holding the name (its text is the name unless `name` is given). */
  nameNode: Node;
  name?: string;
  /** The node whose lines the symbol spans (to the end of `end` when given). */
  node: Node;
  end?: Node;
  /** Nodes whose named children hold the symbol's children, walked in `scope`. */
  bodies?: Array<Node | null>;
  scope?: Scope;
  /** Overrides the container from the walk (Go receivers, C++ `A::f`, Rust impl blocks). */
  container?: string;
}

/** Walk the named children of `into` as if they stood here (export wrappers, #ifdef blocks). */
export interface Into {
  into: Node | null;
  scope?: Scope;
  container?: string;
}

export type Step = Def | Into;
export type Rule = (node: Node, at: At) => Step[] | null;
export type Rules = Readonly<Record<string, Rule>>;

const MAX_DEPTH = 48;

/** The symbols of a tree, nested, in source order. */
export function extractSymbols(root: Node, rules: Rules): CodeSymbol[] {
  const out: CodeSymbol[] = [];
  walk(root, { scope: "top" }, rules, out, 0);
  return out;
}

function walk(container: Node, at: At, rules: Rules, out: CodeSymbol[], depth: number): void {
  if (depth > MAX_DEPTH) return;
  for (const child of container.namedChildren) {
    if (child === null) continue;
    const rule = rules[child.type];
    if (rule === undefined) continue;
    const steps = rule(child, at);
    if (steps === null) continue;
    for (const step of steps) {
      if ("into" in step) {
        if (step.into === null) continue;
        const next: At = {
          scope: step.scope ?? at.scope,
          container: step.container ?? at.container,
        };
        walk(step.into, next, rules, out, depth + 1);
        continue;
      }
      const name = step.name ?? step.nameNode.text;
      if (name === "") continue;
      const container = step.container ?? at.container;
      const symbol: CodeSymbol = {
        kind: step.kind,
        name,
        start_line: step.node.startPosition.row + 1,
        end_line: endLine(step.end ?? step.node),
        line: step.nameNode.startPosition.row + 1,
        column: step.nameNode.startPosition.column + 1,
      };
      if (container !== undefined && container !== "") symbol.container = container;
      out.push(symbol);
      if (step.bodies !== undefined) {
        const children: CodeSymbol[] = [];
        const inner: At = { scope: step.scope ?? "type", container: name };
        for (const body of step.bodies) {
          if (body !== null) walk(body, inner, rules, children, depth + 1);
        }
        if (children.length > 0) symbol.children = children;
      }
    }
  }
}

/** Last line of a node; a node ending at column 0 ends on the line before (a trailing newline). */
function endLine(node: Node): number {
  const end = node.endPosition;
  return end.column === 0 && end.row > node.startPosition.row ? end.row : end.row + 1;
}

/** The named child for `field`, or null. */
export function field(node: Node, name: string): Node | null {
  return node.childForFieldName(name);
}

/** Every named child for `field` (declarators of `int a, b;`). */
export function fields(node: Node, name: string): Node[] {
  return node.childrenForFieldName(name).filter((n): n is Node => n !== null && n.isNamed);
}

/** A definition step (shorthand). */
export function def(
  kind: SymbolKind,
  nameNode: Node | null,
  node: Node,
  extra: Partial<Def> = {},
): Def[] {
  return nameNode === null ? [] : [{ kind, nameNode, node, ...extra }];
}

/** Flattens a list of step lists. */
export function steps(...lists: Array<Step[] | null>): Step[] {
  const out: Step[] = [];
  for (const list of lists) if (list !== null) out.push(...list);
  return out;
}
