/** The definition rules of each language, and the node types that are identifiers in code. */
import type { LanguageRules } from "./extract.ts";
import type { LanguageId } from "./languages.ts";
import { C_LANGUAGE, CPP_LANGUAGE } from "./rules_c_family.ts";
import { JS_LANGUAGE, TS_LANGUAGE } from "./rules_ecmascript.ts";
import { GO_LANGUAGE } from "./rules_go.ts";
import { JAVA_LANGUAGE } from "./rules_java.ts";
import { PYTHON_LANGUAGE } from "./rules_python.ts";
import { RUBY_LANGUAGE } from "./rules_ruby.ts";
import { RUST_LANGUAGE } from "./rules_rust.ts";

export const RULES: Readonly<Record<LanguageId, LanguageRules>> = {
  c: C_LANGUAGE,
  cpp: CPP_LANGUAGE,
  typescript: TS_LANGUAGE,
  tsx: TS_LANGUAGE,
  javascript: JS_LANGUAGE,
  python: PYTHON_LANGUAGE,
  go: GO_LANGUAGE,
  rust: RUST_LANGUAGE,
  java: JAVA_LANGUAGE,
  ruby: RUBY_LANGUAGE,
};

/**
 * Leaf node types that name something in code, across the grammars. Comments, strings and
 * longer identifiers are other node types (or other ranges), so they never count.
 */
export const IDENTIFIER_TYPES: ReadonlySet<string> = new Set([
  "identifier",
  "type_identifier",
  "field_identifier",
  "property_identifier",
  "shorthand_property_identifier",
  "shorthand_property_identifier_pattern",
  "statement_identifier",
  "namespace_identifier",
  "package_identifier",
  "private_property_name",
  "constant", // Ruby: capitalised names
  "simple_identifier",
]);

/**
 * Names the grammars lex as built-in types or literals, though they are ordinary identifiers of
 * the program: C/C++ typedef names the C grammar knows by heart (`size_t`, `uint32_t`, `ssize_t`:
 * `primitive_type` nodes, like the keywords `int` and `char`) and Rust's built-in type names
 * (`u8`, `str`); and the macros `NULL`, `TRUE` and `FALSE` (`null`, `true` and `false` nodes).
 * A node of these types is a name when its text is not a keyword of the language.
 */
export const NAME_LIKE_TYPES: ReadonlySet<string> = new Set([
  "primitive_type",
  "null",
  "true",
  "false",
]);

/** The texts of those nodes that are keywords (C, C++, JavaScript, Python...), not names. */
export const NAME_LIKE_KEYWORDS: ReadonlySet<string> = new Set([
  "char",
  "int",
  "float",
  "double",
  "void",
  "short",
  "long",
  "signed",
  "unsigned",
  "bool",
  "_Bool",
  "wchar_t",
  "char8_t",
  "char16_t",
  "char32_t",
  "auto",
  "nullptr",
  "null",
  "true",
  "false",
  "True", // Python's keywords (its `true` and `false` nodes)
  "False",
]);

/**
 * Nodes whose text is code the grammar does not parse: a C/C++ macro body (`preproc_arg`).
 * Occurrences inside are found by a small lexer that skips its comments and literals.
 */
export const OPAQUE_CODE_TYPES: ReadonlySet<string> = new Set(["preproc_arg"]);
