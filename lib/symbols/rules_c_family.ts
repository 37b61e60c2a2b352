/** C and C++ definitions (tree-sitter-c, tree-sitter-cpp). */
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
import type { SymbolKind } from "./types.ts";

const DECLARATOR_WRAPPERS = new Set([
  "pointer_declarator",
  "array_declarator",
  "parenthesized_declarator",
  "attributed_declarator",
  "init_declarator",
  "reference_declarator",
  "function_declarator",
]);

const NAMES = new Set([
  "identifier",
  // `typedef unsigned long size_t;`: names the grammar lexes as built-in types.
  "primitive_type",
  "field_identifier",
  "type_identifier",
  "qualified_identifier",
  "destructor_name",
  "operator_name",
  "template_function",
]);

/** The next declarator inward (a parenthesized one has its inner declarator unlabelled). */
function inner(n: Node): Node | null {
  if (n.type === "parenthesized_declarator" || n.type === "reference_declarator") {
    return n.namedChildren.find((c) =>
      c !== null && c.type !== "type_qualifier" && c.type !== "attribute_specifier" &&
      c.type !== "ms_call_modifier"
    ) ?? null;
  }
  return field(n, "declarator");
}

/** The name node at the bottom of a declarator chain (`*foo[3]` -> foo), or null. */
function declaratorName(node: Node | null): Node | null {
  for (let n = node, i = 0; n !== null && i < 32; i++) {
    if (NAMES.has(n.type)) return n;
    if (!DECLARATOR_WRAPPERS.has(n.type)) return null;
    n = inner(n);
  }
  return null;
}

/**
 * True when the declarator declares a function (a prototype): the declarator nearest the name is
 * a function declarator. `void (*cb)(int)` is a pointer (nearest: `*`), `int (*f(void))(int)` a
 * function returning a function pointer.
 */
function declaresFunction(node: Node | null): boolean {
  let nearest = "";
  for (let n = node, i = 0; n !== null && i < 32; i++) {
    if (NAMES.has(n.type)) return nearest === "function_declarator";
    if (!DECLARATOR_WRAPPERS.has(n.type)) return false;
    if (n.type !== "parenthesized_declarator" && n.type !== "attributed_declarator") {
      nearest = n.type;
    }
    n = inner(n);
  }
  return false;
}

/** `A::B::f` -> the name node `f` and container "A::B"; a plain name stays as is. */
function splitQualified(name: Node): { nameNode: Node; container?: string } {
  let n = name;
  const parts: string[] = [];
  for (let i = 0; n.type === "qualified_identifier" && i < 16; i++) {
    const scope = field(n, "scope");
    if (scope !== null) parts.push(scope.text);
    const inner = field(n, "name");
    if (inner === null) break;
    n = inner;
  }
  if (n.type === "template_function") n = field(n, "name") ?? n;
  return parts.length > 0 ? { nameNode: n, container: parts.join("::") } : { nameNode: n };
}

function hasStorage(node: Node, word: string): boolean {
  return node.namedChildren.some((c) => c?.type === "storage_class_specifier" && c.text === word);
}

const TAG_KINDS: Record<string, SymbolKind> = {
  struct_specifier: "struct",
  union_specifier: "union",
  enum_specifier: "enum",
  class_specifier: "class",
};

/** A struct/union/enum/class with a body: its definition (or its members, when anonymous). */
function tagged(node: Node | null, at: At): Step[] {
  if (node === null) return [];
  const kind = TAG_KINDS[node.type];
  const body = field(node, "body");
  if (kind === undefined || body === null) return [];
  const name = field(node, "name");
  const scope = "type";
  if (name === null || name.type === "ERROR") {
    // Anonymous: `union { int a; } u;` members belong to the enclosing type.
    return at.scope === "type" ? [{ into: body, scope }] : [];
  }
  const { nameNode, container } = splitQualified(name);
  return def(kind, nameNode, node, { bodies: [body], scope, container });
}

function functionDefinition(node: Node, at: At, cpp: boolean): Step[] {
  const declarator = field(node, "declarator");
  const type = field(node, "type");
  if (declarator?.type === "parenthesized_declarator" && type?.type === "type_identifier") {
    // `void __init setup(void) {`: an unknown macro before the name makes tree-sitter read
    // `setup` as the type and `(void)` as the declarator; the name is the "type".
    return def("function", type, node);
  }
  const name = declaratorName(declarator);
  if (name === null) return [];
  const { nameNode, container } = splitQualified(name);
  const method = cpp && (at.scope === "type" || container !== undefined);
  // C++: classes, structs and enums declared in a function body (a test's local fixture) are
  // its children; C bodies hold none the tools report (and are skipped for speed).
  const bodies = cpp ? { bodies: [field(node, "body")], scope: "function" as const } : {};
  return def(method ? "method" : "function", nameNode, node, {
    ...bodies,
    ...(container ? { container } : {}),
  });
}

/**
 * A function head the parser could not place, followed by its body: `static __always_inline
 * __alloc_size(1) void *kmalloc(size_t size, gfp_t flags) {` parses as an ERROR node (holding the
 * storage class, the attribute-like macros read as declarators, and the real declarator last)
 * then a compound statement. The function is the last declarator that declares one.
 */
function headBeforeBody(node: Node, at: At): Step[] | null {
  if (at.scope === "function") return null;
  const body = node.nextNamedSibling;
  if (body?.type !== "compound_statement" || body.startIndex < node.endIndex) return null;
  const children = node.namedChildren;
  for (let i = children.length - 1; i >= 0; i--) {
    const child = children[i];
    if (child === null || !DECLARATOR_WRAPPERS.has(child.type)) continue;
    if (!declaresFunction(child)) return null;
    const name = declaratorName(child);
    if (name === null) return null;
    const { nameNode, container } = splitQualified(name);
    return def("function", nameNode, node, { end: body, ...(container ? { container } : {}) });
  }
  return null;
}

/** `int a = 1, *b;` at file level: variables (not prototypes, not `extern`), plus tagged types. */
function declaration(node: Node, at: At): Step[] {
  const out = tagged(field(node, "type"), at);
  // A declaration with a missing ";" is usually `void __init` before a function: no variable.
  if (at.scope !== "top" || hasStorage(node, "extern") || node.hasError) return out;
  for (const d of fields(node, "declarator")) {
    if (declaresFunction(d)) continue;
    const name = declaratorName(d);
    if (name !== null) out.push(...def("variable", splitQualified(name).nameNode, node));
  }
  return out;
}

/** A member of a struct/class body: fields, nested types; method prototypes are left out. */
function fieldDeclaration(node: Node, at: At): Step[] {
  const out = tagged(field(node, "type"), at);
  for (const d of fields(node, "declarator")) {
    if (declaresFunction(d)) continue;
    const name = declaratorName(d);
    if (name !== null) out.push(...def("field", name, node));
  }
  return out;
}

/** `typedef struct {...} name_t;`: the type, with the anonymous struct's fields as children. */
function typeDefinition(node: Node, at: At): Step[] {
  const type = field(node, "type");
  const body = type === null ? null : field(type, "body");
  const named = type !== null && field(type, "name") !== null;
  const out: Step[] = named ? tagged(type, at) : [];
  for (const d of fields(node, "declarator")) {
    const name = declaratorName(d);
    if (name === null) continue;
    out.push(...def("type", name, node, !named && body !== null ? { bodies: [body] } : {}));
  }
  return out;
}

const into: (n: Node) => Step[] = (n) => [{ into: n }];

function cRules(cpp: boolean): Rules {
  const rules: Record<string, (node: Node, at: At) => Step[] | null> = {
    function_definition: (n, at) => functionDefinition(n, at, cpp),
    declaration,
    field_declaration: fieldDeclaration,
    type_definition: typeDefinition,
    struct_specifier: (n, at) => tagged(n, at),
    union_specifier: (n, at) => tagged(n, at),
    enum_specifier: (n, at) => tagged(n, at),
    enumerator: (n) => def("constant", field(n, "name"), n),
    preproc_def: (n) => def("macro", field(n, "name"), n),
    preproc_function_def: (n) => def("macro", field(n, "name"), n),
    ERROR: headBeforeBody,
    preproc_if: into,
    preproc_ifdef: into,
    preproc_else: into,
    preproc_elif: into,
    preproc_elifdef: into,
    linkage_specification: (n) => [{ into: field(n, "body") }],
    declaration_list: into,
    expression_statement: (n, at) => {
      if (at.scope === "function") return null;
      const inner = n.namedChildren[0] ?? null;
      const body = n.nextNamedSibling;
      if (inner?.type === "call_expression" && body?.type === "compound_statement" && n.hasError) {
        // `SYSCALL_DEFINE1(close, unsigned int, fd) { ... }`: a function defined through a
        // macro, named after the macro (as ctags names it).
        const name = field(inner, "function");
        return name?.type === "identifier" ? def("function", name, n, { end: body }) : null;
      }
      // `struct x {...};` can parse as an expression statement in C++ headers.
      return tagged(inner, at);
    },
  };
  if (cpp) {
    Object.assign(rules, {
      class_specifier: (n: Node, at: At) => tagged(n, at),
      namespace_definition: (n: Node) => {
        const name = field(n, "name");
        const body = field(n, "body");
        if (name === null) return [{ into: body }];
        return def("namespace", name, n, { bodies: [body], scope: "top" });
      },
      template_declaration: into,
      alias_declaration: (n: Node) => def("type", field(n, "name"), n),
      access_specifier: () => null,
    });
  }
  return rules;
}

export const C_RULES: Rules = cRules(false);
export const CPP_RULES: Rules = cRules(true);

/**
 * Where no rule applies (an ERROR node around a definition the parser could not place, a
 * `friend` declaration) the walk goes on; function bodies, strings and comments are never
 * entered (the definitions these tools report in C and C++ are outside function bodies).
 */
const C_DESCENT = {
  functions: new Set(["lambda_expression"]),
  opaque: new Set([
    "compound_statement",
    "string_literal",
    "raw_string_literal",
    "concatenated_string",
    "char_literal",
    "comment",
    "preproc_arg",
  ]),
};

export const C_LANGUAGE: LanguageRules = { rules: C_RULES, descent: C_DESCENT };
export const CPP_LANGUAGE: LanguageRules = { rules: CPP_RULES, descent: C_DESCENT };

/** Code hidden from the parser: a macro's body is one `preproc_arg` token (scanned by text). */
export const C_OPAQUE_CODE: ReadonlySet<string> = new Set(["preproc_arg"]);
