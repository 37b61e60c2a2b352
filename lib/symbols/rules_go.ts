/** Go definitions (tree-sitter-go). */
import type { Node } from "web-tree-sitter";
import {
  type At,
  def,
  field,
  fields,
  type LanguageRules,
  type Rules,
  type Step,
} from "./extract.ts";

const into: (n: Node) => Step[] = (n) => [{ into: n }];

/** Constants and variables are definitions outside function bodies only. */
function outsideFunctions(n: Node, at: At): Step[] | null {
  return at.scope === "function" ? null : into(n);
}

/** The receiver's type name: `(s *Server)` -> "Server", `(l List[T])` -> "List". */
function receiverType(n: Node): string | undefined {
  const receiver = field(n, "receiver");
  const param = receiver?.namedChildren.find((c) => c?.type === "parameter_declaration");
  let type = param === undefined || param === null ? null : field(param, "type");
  for (let i = 0; type !== null && i < 8; i++) {
    if (type.type === "type_identifier") return type.text;
    if (type.type === "pointer_type") type = type.namedChildren[0] ?? null;
    else if (type.type === "generic_type") type = field(type, "type");
    else return type.text;
  }
  return undefined;
}

function typeSpec(n: Node): Step[] {
  const type = field(n, "type");
  const name = field(n, "name");
  if (type?.type === "struct_type") {
    const body = type.namedChildren.find((c) => c?.type === "field_declaration_list") ?? null;
    return def("struct", name, n, { bodies: [body] });
  }
  if (type?.type === "interface_type") return def("interface", name, n, { bodies: [type] });
  return def("type", name, n);
}

function names(kind: "constant" | "variable" | "field") {
  return (n: Node): Step[] => fields(n, "name").flatMap((name) => def(kind, name, n));
}

export const GO_RULES: Rules = {
  function_declaration: (n) =>
    def("function", field(n, "name"), n, { bodies: [field(n, "body")], scope: "function" }),
  method_declaration: (n) => {
    const container = receiverType(n);
    return def("method", field(n, "name"), n, {
      bodies: [field(n, "body")],
      scope: "function",
      ...(container === undefined ? {} : { container }),
    });
  },
  type_declaration: into,
  type_spec: typeSpec,
  type_alias: (n) => def("type", field(n, "name"), n),
  field_declaration: names("field"),
  method_elem: (n) => def("method", field(n, "name"), n),
  method_spec: (n) => def("method", field(n, "name"), n),
  const_declaration: outsideFunctions,
  const_spec: names("constant"),
  var_declaration: outsideFunctions,
  var_spec_list: into,
  var_spec: names("variable"),
};

/** Below rule-less nodes of a function body: types declared there (`type point struct{...}`). */
export const GO_LANGUAGE: LanguageRules = {
  rules: GO_RULES,
  descent: {
    hints: /\btype\b/g,
    functions: new Set(["func_literal"]),
    opaque: new Set(["interpreted_string_literal", "raw_string_literal", "comment"]),
  },
};
