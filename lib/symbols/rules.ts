/** The definition rules of each language, and the node types that are identifiers in code. */
import type { Rules } from "./extract.ts";
import type { LanguageId } from "./languages.ts";
import { C_RULES, CPP_RULES } from "./rules_c_family.ts";
import { JS_RULES, TS_RULES } from "./rules_ecmascript.ts";
import { GO_RULES } from "./rules_go.ts";
import { JAVA_RULES } from "./rules_java.ts";
import { PYTHON_RULES } from "./rules_python.ts";
import { RUBY_RULES } from "./rules_ruby.ts";
import { RUST_RULES } from "./rules_rust.ts";

export const RULES: Readonly<Record<LanguageId, Rules>> = {
  c: C_RULES,
  cpp: CPP_RULES,
  typescript: TS_RULES,
  tsx: TS_RULES,
  javascript: JS_RULES,
  python: PYTHON_RULES,
  go: GO_RULES,
  rust: RUST_RULES,
  java: JAVA_RULES,
  ruby: RUBY_RULES,
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
 * Nodes whose text is code the grammar does not parse: a C/C++ macro body (`preproc_arg`).
 * Occurrences inside are found by a small lexer that skips its comments and literals.
 */
export const OPAQUE_CODE_TYPES: ReadonlySet<string> = new Set(["preproc_arg"]);
