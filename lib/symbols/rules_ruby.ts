/** Ruby definitions (tree-sitter-ruby). */
import type { Node } from "web-tree-sitter";
import { def, field, type Rules, type Step } from "./extract.ts";

const into: (n: Node) => Step[] = (n) => [{ into: n }];

/** `Foo::Bar` -> the name node `Bar`. */
function lastName(n: Node | null): Node | null {
  return n?.type === "scope_resolution" ? field(n, "name") : n;
}

function body(n: Node): Node | null {
  return field(n, "body") ?? n.namedChildren.find((c) => c?.type === "body_statement") ?? null;
}

export const RUBY_RULES: Rules = {
  class: (n) => def("class", lastName(field(n, "name")), n, { bodies: [body(n)] }),
  module: (n) => def("module", lastName(field(n, "name")), n, { bodies: [body(n)] }),
  singleton_class: (n) => [{ into: body(n), scope: "type" }],
  method: (n, at) => def(at.scope === "type" ? "method" : "function", field(n, "name"), n),
  singleton_method: (n) => def("method", field(n, "name"), n),
  assignment: (n, at) => {
    if (at.scope === "function") return null;
    const left = field(n, "left");
    return left?.type === "constant" ? def("constant", left, n) : null;
  },
  body_statement: into,
};
