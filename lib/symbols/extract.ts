/**
 * Definitions from a syntax tree: a walk over the containers (file, namespaces, class bodies,
 * function bodies...) driven by per-language rules keyed by node type. Where no rule applies, the
 * walk goes on into the node's children (a callback's body, an `if` block, an ERROR node), so a
 * definition is found at any depth; one inside an anonymous function belongs to the nearest named
 * enclosing symbol, or to the file. A subtree whose text holds none of the language's definition
 * tokens (`function`, `class`, `def`...) is not entered. Runs in the parser worker.
 */
import type { Node } from "web-tree-sitter";
import type { CodeSymbol, SymbolKind } from "./types.ts";

/** Where a walk is: at file/namespace level, inside a type's body, or inside a function body. */
export type Scope = "top" | "type" | "function";

export interface At {
  scope: Scope;
  /** Name of the enclosing class/namespace/struct/impl, if any. */
  container?: string;
  /** Every enclosing name, outermost first (`["ns", "Widget"]`); absent at file level. */
  chain?: readonly string[];
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

/** How the walk goes on below nodes no rule claims (or whose rule returns null). */
export interface Descent {
  /**
   * Every definition the rules report outside a type body holds one of these tokens in its text
   * (a global regex); a subtree without one is not entered. Absent: every subtree is entered.
   */
  hints?: RegExp;
  /** Anonymous functions (arrow functions, lambdas): inside them the scope is "function". */
  functions: ReadonlySet<string>;
  /** Nodes never entered: C function bodies (cut out of the parse), strings, comments. */
  opaque: ReadonlySet<string>;
}

/** A language's rules and how its walk descends. */
export interface LanguageRules {
  rules: Rules;
  descent: Descent;
}

/** Deep enough for real code (a definition 40 blocks down); bounded against hostile input. */
const MAX_DEPTH = 160;

/**
 * The symbols of a tree, nested, in source order; `text` is the source that was parsed. With
 * `keep`: only the symbols whose name it accepts, at any depth, flattened in tree order (each
 * keeps its `container`, none has children), so that the others are never held (a generated
 * header's 70,000 macros, when a call wants a few of them).
 */
export function extractSymbols(
  root: Node,
  language: LanguageRules,
  text: string,
  keep?: (name: string) => boolean,
): CodeSymbol[] {
  const out: CodeSymbol[] = [];
  new Extraction(language, text, keep ?? null).walk(root, { scope: "top" }, out, 0);
  return out;
}

/** One walk over one tree. */
class Extraction {
  readonly #rules: Rules;
  readonly #descent: Descent;
  /** Sorted UTF-16 offsets where a hint token starts (null: no hints, enter everything). */
  readonly #hints: number[] | null;
  /** extractSymbols `keep`: the flat, filtered form. */
  readonly #keep: ((name: string) => boolean) | null;

  constructor(language: LanguageRules, text: string, keep: ((name: string) => boolean) | null) {
    this.#keep = keep;
    this.#rules = language.rules;
    this.#descent = language.descent;
    const pattern = language.descent.hints;
    if (pattern === undefined) this.#hints = null;
    else {
      const at: number[] = [];
      pattern.lastIndex = 0;
      for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) at.push(m.index);
      this.#hints = at;
    }
  }

  /** True when a hint token starts within [start, end). */
  #mayDefine(start: number, end: number): boolean {
    const hints = this.#hints;
    if (hints === null) return true;
    let lo = 0;
    let hi = hints.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (hints[mid] < start) lo = mid + 1;
      else hi = mid;
    }
    return lo < hints.length && hints[lo] < end;
  }

  /** Walks on below a node no rule claimed, when something may be defined in it. */
  #descend(node: Node, at: At, out: CodeSymbol[], depth: number): void {
    const descent = this.#descent;
    if (node.namedChildCount === 0 || descent.opaque.has(node.type)) return;
    if (!this.#mayDefine(node.startIndex, node.endIndex)) return;
    const scope = descent.functions.has(node.type) ? "function" : at.scope;
    this.walk(node, scope === at.scope ? at : { ...at, scope }, out, depth + 1);
  }

  walk(container: Node, at: At, out: CodeSymbol[], depth: number): void {
    if (depth > MAX_DEPTH) return;
    // A cursor rather than `namedChildren`: a generated header's root has 70,000 children, and
    // their array would be held for the whole walk.
    const cursor = container.walk();
    try {
      if (!cursor.gotoFirstChild()) return;
      do {
        if (!cursor.nodeIsNamed) continue;
        const child = cursor.currentNode;
        const rule = this.#rules[child.type];
        const steps = rule === undefined ? null : rule(child, at);
        if (steps === null) {
          this.#descend(child, at, out, depth);
          continue;
        }
        this.#apply(steps, at, out, depth);
      } while (cursor.gotoNextSibling());
    } finally {
      cursor.delete();
    }
  }

  #apply(steps: readonly Step[], at: At, out: CodeSymbol[], depth: number): void {
    for (const step of steps) {
      if ("into" in step) {
        if (step.into === null) continue;
        const next: At = {
          scope: step.scope ?? at.scope,
          container: step.container ?? at.container,
          chain: chainOf(at, step.container),
        };
        this.walk(step.into, next, out, depth + 1);
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
      const chain = chainOf(at, step.container);
      if (chain !== undefined && chain.length > partsOf(container).length) symbol.scope = chain;
      const keep = this.#keep;
      if (keep === null || keep(name)) out.push(symbol);
      if (step.bodies !== undefined) {
        const children: CodeSymbol[] = keep === null ? [] : out;
        const inner: At = {
          scope: step.scope ?? "type",
          container: name,
          chain: [...(chain ?? []), name],
        };
        for (const body of step.bodies) {
          if (body !== null) this.walk(body, inner, children, depth + 1);
        }
        if (keep === null && children.length > 0) symbol.children = children;
      }
    }
  }
}

/** The enclosing names of what a step defines: the walk's, and the step's own container's. */
function chainOf(at: At, container: string | undefined): readonly string[] | undefined {
  if (container === undefined || container === "") return at.chain;
  return [...(at.chain ?? []), ...partsOf(container)];
}

/** `A::B` or `a.b` as its parts; none for no container. */
function partsOf(container: string | undefined): string[] {
  return container === undefined || container === "" ? [] : container.split(/::|\./);
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
