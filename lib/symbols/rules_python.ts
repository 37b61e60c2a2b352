/** Python definitions (tree-sitter-python). */
import type { Node } from "web-tree-sitter";
import { type At, def, field, type Rules, type Step } from "./extract.ts";

const into: (n: Node) => Step[] = (n) => [{ into: n }];

/** `X = 1` at module level (constant when ALL_CAPS) or in a class body (a field). */
function assignment(n: Node, at: At): Step[] | null {
  if (at.scope === "function") return null;
  const a = n.namedChildren[0];
  if (a === null || a === undefined || a.type !== "assignment") return null;
  const left = field(a, "left");
  if (left === null || left.type !== "identifier") return null;
  if (at.scope === "type") return def("field", left, n);
  return def(/^[A-Z][A-Z0-9_]*$/.test(left.text) ? "constant" : "variable", left, n);
}

function functionDefinition(n: Node, at: At, span: Node = n): Step[] {
  return def(at.scope === "type" ? "method" : "function", field(n, "name"), span, {
    bodies: [field(n, "body")],
    scope: "function",
  });
}

function classDefinition(n: Node, span: Node = n): Step[] {
  return def("class", field(n, "name"), span, { bodies: [field(n, "body")], scope: "type" });
}

export const PYTHON_RULES: Rules = {
  function_definition: (n, at) => functionDefinition(n, at),
  class_definition: (n) => classDefinition(n),
  // The decorators belong to the definition's lines.
  decorated_definition: (n, at) => {
    const inner = field(n, "definition");
    if (inner?.type === "function_definition") return functionDefinition(inner, at, n);
    if (inner?.type === "class_definition") return classDefinition(inner, n);
    return null;
  },
  expression_statement: assignment,
  // Definitions under `if TYPE_CHECKING:` / `try: ... except ImportError:` at module level.
  if_statement: (n, at) => at.scope === "function" ? null : into(n),
  elif_clause: into,
  else_clause: into,
  try_statement: (n, at) => at.scope === "function" ? null : into(n),
  except_clause: into,
  finally_clause: into,
  block: into,
};
