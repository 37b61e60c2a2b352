/** Java definitions (tree-sitter-java). */
import type { Node } from "web-tree-sitter";
import { def, field, type LanguageRules, type Rules, type Step } from "./extract.ts";

function type(kind: "class" | "interface" | "enum") {
  return (n: Node): Step[] => def(kind, field(n, "name"), n, { bodies: [field(n, "body")] });
}

function declarators(kind: "field" | "constant") {
  return (n: Node): Step[] =>
    n.childrenForFieldName("declarator").flatMap((d) =>
      d === null ? [] : def(kind, field(d, "name"), n)
    );
}

export const JAVA_RULES: Rules = {
  class_declaration: type("class"),
  record_declaration: type("class"),
  interface_declaration: type("interface"),
  annotation_type_declaration: type("interface"),
  enum_declaration: type("enum"),
  enum_constant: (n) => def("constant", field(n, "name"), n),
  enum_body_declarations: (n) => [{ into: n }],
  method_declaration: (n) =>
    def("method", field(n, "name"), n, { bodies: [field(n, "body")], scope: "function" }),
  constructor_declaration: (n) =>
    def("method", field(n, "name"), n, { bodies: [field(n, "body")], scope: "function" }),
  annotation_type_element_declaration: (n) => def("method", field(n, "name"), n),
  field_declaration: declarators("field"),
  constant_declaration: declarators("constant"),
};

/**
 * Below rule-less nodes: local classes and records, and anonymous classes' methods (`new X() {
 * public void run() {} }`: no keyword marks them, so every subtree is entered).
 */
export const JAVA_LANGUAGE: LanguageRules = {
  rules: JAVA_RULES,
  descent: {
    functions: new Set(["lambda_expression"]),
    opaque: new Set(["string_literal", "line_comment", "block_comment"]),
  },
};
