/** Python definitions (tree-sitter-python). */
import type { Node } from "web-tree-sitter";
import { type At, def, field, type LanguageRules, type Rules, type Step } from "./extract.ts";

const into: (n: Node) => Step[] = (n) => [{ into: n }];

/** ALL_CAPS, private ones included (`_SCOPE_KEY`, `__ALL_CAPS`): PEP 8's constants. */
const CONSTANT_NAME = /^_*[A-Z][A-Z0-9_]*$/;

/**
 * `X = 1` at module level (constant when ALL_CAPS) or in a class body (a field); `f = lambda:
 * ...` anywhere is a function.
 */
function assignment(n: Node, at: At): Step[] | null {
  const a = n.namedChildren[0];
  if (a === null || a === undefined || a.type !== "assignment") return null;
  const left = field(a, "left");
  if (left === null || left.type !== "identifier") return null;
  if (field(a, "right")?.type === "lambda") {
    return def(at.scope === "type" ? "method" : "function", left, n);
  }
  if (at.scope === "function") return null;
  if (at.scope === "type") return def("field", left, n);
  return def(CONSTANT_NAME.test(left.text) ? "constant" : "variable", left, n);
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

/** Compound statements at module or class level: their assignments are definitions too. */
function compound(n: Node, at: At): Step[] | null {
  return at.scope === "function" ? null : into(n);
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
  // Definitions under `if TYPE_CHECKING:` / `try: ... except ImportError:` at module level
  // (in a function body the walk descends into them where a `def` or `class` may be).
  if_statement: compound,
  elif_clause: compound,
  else_clause: compound,
  try_statement: compound,
  except_clause: compound,
  finally_clause: compound,
  block: compound,
};

export const PYTHON_LANGUAGE: LanguageRules = {
  rules: PYTHON_RULES,
  descent: {
    hints: /\b(?:def|class|lambda)\b/g,
    functions: new Set(["lambda"]),
    opaque: new Set(["string", "comment"]),
  },
};
