/** Rust definitions (tree-sitter-rust). */
import type { Node } from "web-tree-sitter";
import { type At, def, field, type LanguageRules, type Rules, type Step } from "./extract.ts";

/** `impl<T> Trait for Foo<T>` -> "Foo". */
function typeName(type: Node | null): string | undefined {
  for (let t = type, i = 0; t !== null && i < 8; i++) {
    if (t.type === "type_identifier" || t.type === "primitive_type") return t.text;
    if (t.type === "generic_type") t = field(t, "type");
    else if (t.type === "scoped_type_identifier") t = field(t, "name");
    else if (t.type === "reference_type") t = field(t, "type");
    else return t.text;
  }
  return undefined;
}

function fn(n: Node, at: At): Step[] {
  return def(at.scope === "type" ? "method" : "function", field(n, "name"), n, {
    bodies: [field(n, "body")],
    scope: "function",
  });
}

export const RUST_RULES: Rules = {
  function_item: fn,
  function_signature_item: (n, at) => at.scope === "type" ? fn(n, at) : null,
  struct_item: (n) => def("struct", field(n, "name"), n, { bodies: [field(n, "body")] }),
  union_item: (n) => def("union", field(n, "name"), n, { bodies: [field(n, "body")] }),
  enum_item: (n) => def("enum", field(n, "name"), n, { bodies: [field(n, "body")] }),
  enum_variant: (n) => def("constant", field(n, "name"), n),
  field_declaration: (n) => def("field", field(n, "name"), n),
  trait_item: (n) => def("interface", field(n, "name"), n, { bodies: [field(n, "body")] }),
  impl_item: (
    n,
  ) => [{ into: field(n, "body"), scope: "type", container: typeName(field(n, "type")) }],
  mod_item: (n) => def("module", field(n, "name"), n, { bodies: [field(n, "body")], scope: "top" }),
  const_item: (n, at) => at.scope === "function" ? null : def("constant", field(n, "name"), n),
  static_item: (n, at) => at.scope === "function" ? null : def("variable", field(n, "name"), n),
  type_item: (n) => def("type", field(n, "name"), n),
  associated_type: (n) => def("type", field(n, "name"), n),
  macro_definition: (n) => def("macro", field(n, "name"), n),
};

/** Below rule-less nodes of a function body: nested items (`fn helper()`, local structs...). */
export const RUST_LANGUAGE: LanguageRules = {
  rules: RUST_RULES,
  descent: {
    hints: /\b(?:fn|struct|enum|union|trait|impl|mod|type|macro_rules)\b/g,
    functions: new Set(["closure_expression"]),
    opaque: new Set(["string_literal", "raw_string_literal", "line_comment", "block_comment"]),
  },
};
