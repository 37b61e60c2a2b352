/** TypeScript, TSX and JavaScript (incl. JSX) definitions (tree-sitter-typescript/-javascript). */
import type { Node } from "web-tree-sitter";
import {
  type At,
  def,
  type Descent,
  field,
  type LanguageRules,
  type Rules,
  type Step,
} from "./extract.ts";

const FUNCTION_VALUES = new Set([
  "arrow_function",
  "function_expression",
  "function",
  "generator_function",
]);

const into: (n: Node) => Step[] = (n) => [{ into: n }];

function functionDeclaration(n: Node): Step[] {
  return def("function", field(n, "name"), n, { bodies: [field(n, "body")], scope: "function" });
}

function classDeclaration(n: Node): Step[] {
  return def("class", field(n, "name"), n, { bodies: [field(n, "body")], scope: "type" });
}

/**
 * `const a = 1, f = () => {}`: constants/variables at file level, functions and classes anywhere;
 * what a variable's value defines (a callback's functions) is the variable's.
 */
function lexical(n: Node, at: At): Step[] {
  const constant = n.type === "lexical_declaration" && n.child(0)?.type === "const";
  const out: Step[] = [];
  for (const d of n.namedChildren) {
    if (d === null || d.type !== "variable_declarator") continue;
    const name = field(d, "name");
    if (name === null || name.type !== "identifier") continue; // destructuring: no one name
    const value = field(d, "value");
    if (value !== null && FUNCTION_VALUES.has(value.type)) {
      // The whole value: an arrow function's body may be an expression (`() => class X {}`).
      out.push(...def("function", name, n, { bodies: [value], scope: "function" }));
    } else if (value !== null && value.type === "class") {
      out.push(...def("class", name, n, { bodies: [field(value, "body")], scope: "type" }));
    } else if (at.scope === "top") {
      out.push(...def(constant ? "constant" : "variable", name, n, {
        bodies: [value],
        scope: "function",
      }));
    } else if (value !== null) out.push({ into: value, scope: "function" });
  }
  return out;
}

/** A class or interface member; a method's body and a field's value may define more. */
function member(kind: "method" | "field", inner: "body" | "value" | null = null) {
  return (n: Node, at: At): Step[] | null => {
    if (at.scope !== "type") return null;
    const name = field(n, "name");
    if (name === null || name.type === "computed_property_name") return null;
    const body = inner === null ? null : field(n, inner);
    return def(kind, name, n, body === null ? {} : { bodies: [body], scope: "function" });
  };
}

/**
 * `exports.send = function (...) {}`, `req.accepts = () => {}`, `View.prototype.render =
 * function () {}`, `module.exports = class {}`: a function or class assigned to a property is a
 * definition of the property's name (as ctags has it), a method of `View` when it is assigned to
 * `View.prototype.name`; the object it is assigned to is its container (none for `exports`,
 * `module.exports` and `this`). A plain name assigned (`handler = function () {}`) counts too.
 */
function assignment(n: Node): Step[] | null {
  const left = field(n, "left");
  const right = field(n, "right");
  if (left === null || right === null) return null;
  const isFunction = FUNCTION_VALUES.has(right.type);
  if (!isFunction && right.type !== "class") return null;
  // `module.exports = function renderFile() {}`: the function's own name (its rule).
  if (field(right, "name") !== null) return null;
  let name: Node | null = null;
  let container: string | undefined;
  let kind: "function" | "method" | "class" = isFunction ? "function" : "class";
  if (left.type === "identifier") name = left;
  else if (left.type === "member_expression") {
    name = field(left, "property");
    if (name === null || name.type !== "property_identifier") return null;
    const object = field(left, "object");
    const target = object?.text ?? "";
    const prototype = /^([A-Za-z_$][\w$]*)\.prototype$/.exec(target);
    if (prototype !== null) {
      container = prototype[1];
      if (isFunction) kind = "method";
    } else if (/^[A-Za-z_$][\w$.]*$/.test(target) && target.length <= 200) {
      if (target !== "exports" && target !== "module.exports" && target !== "this") {
        container = target;
      }
    }
  }
  if (name === null) return null;
  const body = isFunction ? right : field(right, "body");
  return def(kind, name, n, {
    bodies: [body],
    scope: isFunction ? "function" : "type",
    ...(container === undefined ? {} : { container }),
  });
}

/**
 * `{ destroy: function (req, res) {}, show: (id) => {} }`: an anonymous function held by an object
 * literal's key is a method of that object (ctags' reading); the container is the walk's.
 */
function pair(n: Node): Step[] | null {
  const key = field(n, "key");
  const value = field(n, "value");
  if (key === null || value === null || !FUNCTION_VALUES.has(value.type)) return null;
  if (key.type !== "property_identifier") return null;
  if (field(value, "name") !== null) return null; // `get: function getRouter() {}`: its own name
  return def("method", key, n, { bodies: [value], scope: "function" });
}

function namespace(kind: "namespace" | "module") {
  return (n: Node): Step[] => {
    const name = field(n, "name");
    const body = field(n, "body");
    if (name === null) return [{ into: body }];
    return def(kind, name, n, { bodies: [body], scope: "top" });
  };
}

/** JavaScript rules; TypeScript adds its declarations on top. */
export const JS_RULES: Rules = {
  function_declaration: functionDeclaration,
  generator_function_declaration: functionDeclaration,
  class_declaration: classDeclaration,
  // Named class and function expressions (`new (class A {...})()`, `x.only = function only()
  // {...}`, a named callback); anonymous ones are walked through.
  class: (n) => field(n, "name") === null ? null : classDeclaration(n),
  function_expression: (n) => field(n, "name") === null ? null : functionDeclaration(n),
  function: (n) => field(n, "name") === null ? null : functionDeclaration(n),
  generator_function: (n) => field(n, "name") === null ? null : functionDeclaration(n),
  lexical_declaration: lexical,
  variable_declaration: lexical,
  export_statement: (n) => [{ into: n }],
  method_definition: member("method", "body"),
  field_definition: (n, at) => {
    if (at.scope !== "type") return null;
    const name = field(n, "property");
    if (name === null || name.type === "computed_property_name") return null;
    const value = field(n, "value");
    return def("field", name, n, value === null ? {} : { bodies: [value], scope: "function" });
  },
  class_body: into,
  assignment_expression: assignment,
  pair,
};

export const TS_RULES: Rules = {
  ...JS_RULES,
  abstract_class_declaration: classDeclaration,
  public_field_definition: member("field", "value"),
  abstract_method_signature: member("method"),
  interface_declaration: (n) =>
    def("interface", field(n, "name"), n, { bodies: [field(n, "body")], scope: "type" }),
  property_signature: member("field"),
  method_signature: (n, at) => {
    // In an interface: its members; in a class: overload signatures (the body comes later).
    const inInterface = n.parent?.type === "interface_body" || n.parent?.type === "object_type";
    return inInterface ? member("method")(n, at) : null;
  },
  type_alias_declaration: (n) => def("type", field(n, "name"), n),
  enum_declaration: (n) =>
    def("enum", field(n, "name"), n, { bodies: [field(n, "body")], scope: "type" }),
  property_identifier: (n, at) =>
    at.scope === "type" && n.parent?.type === "enum_body" ? def("constant", n, n) : null,
  enum_assignment: (n) => def("constant", field(n, "name"), n),
  internal_module: namespace("namespace"),
  module: namespace("module"),
  ambient_declaration: into,
  expression_statement: (n) => {
    // `namespace X {}` parses as an expression statement holding internal_module.
    const inner = n.namedChildren[0];
    return inner?.type === "internal_module" ? [{ into: n }] : null;
  },
};

/**
 * Below statements no rule claims (a test callback, an `if` block, a call's arguments): entered
 * when their text holds a token every such definition needs.
 */
const DESCENT: Descent = {
  hints: /\b(?:function|class|interface|type|enum|namespace|module)\b|=>/g,
  functions: new Set(["arrow_function", "function_expression", "function", "generator_function"]),
  opaque: new Set(["string", "template_string", "comment", "regex"]),
};

export const JS_LANGUAGE: LanguageRules = { rules: JS_RULES, descent: DESCENT };
export const TS_LANGUAGE: LanguageRules = { rules: TS_RULES, descent: DESCENT };
