/** Ruby definitions (tree-sitter-ruby). */
import type { Node } from "web-tree-sitter";
import { def, field, type LanguageRules, type Rules, type Step } from "./extract.ts";

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
  method: (n, at) =>
    def(at.scope === "type" ? "method" : "function", field(n, "name"), n, {
      bodies: [body(n)],
      scope: "function",
    }),
  singleton_method: (n) =>
    def("method", field(n, "name"), n, { bodies: [body(n)], scope: "function" }),
  assignment: (n, at) => {
    if (at.scope === "function") return null;
    const left = field(n, "left");
    return left?.type === "constant" ? def("constant", left, n) : null;
  },
  body_statement: into,
};

/** Below rule-less nodes (an RSpec `describe ... do` block): methods, classes and modules. */
export const RUBY_LANGUAGE: LanguageRules = {
  rules: RUBY_RULES,
  descent: {
    hints: /\b(?:def|class|module)\b/g,
    functions: new Set(["do_block", "block", "lambda"]),
    opaque: new Set(["string", "comment", "heredoc_body"]),
  },
};
