/**
 * The languages the symbol tools understand (docs/tools.md "Symbols"): which file names map to
 * which tree-sitter grammar, and which npm package (pinned in deno.json) ships that grammar's
 * `.wasm`. The `grammars` task copies each `wasm` into lib/symbols/grammars/ as `<id>.wasm`.
 */

export type LanguageId =
  | "c"
  | "cpp"
  | "typescript"
  | "tsx"
  | "javascript"
  | "python"
  | "go"
  | "rust"
  | "java"
  | "ruby";

export interface LanguageInfo {
  id: LanguageId;
  /** Shown to people: "C++", "TypeScript". */
  name: string;
  /** The npm package (its version is pinned in deno.json "imports") and its wasm file. */
  npm: string;
  wasm: string;
  /** Lower-case file extensions with the dot, and exact base names (Rakefile). */
  extensions: readonly string[];
  basenames?: readonly string[];
}

export const LANGUAGES: readonly LanguageInfo[] = [
  {
    id: "c",
    name: "C",
    npm: "tree-sitter-c",
    wasm: "tree-sitter-c.wasm",
    // .h is C unless its text is C++ (headerLanguage).
    extensions: [".c", ".h"],
  },
  {
    id: "cpp",
    name: "C++",
    npm: "tree-sitter-cpp",
    wasm: "tree-sitter-cpp.wasm",
    extensions: [".cc", ".cpp", ".cxx", ".c++", ".hh", ".hpp", ".hxx", ".h++", ".ipp", ".inl"],
  },
  {
    id: "typescript",
    name: "TypeScript",
    npm: "tree-sitter-typescript",
    wasm: "tree-sitter-typescript.wasm",
    extensions: [".ts", ".mts", ".cts"],
  },
  {
    id: "tsx",
    name: "TSX",
    npm: "tree-sitter-typescript",
    wasm: "tree-sitter-tsx.wasm",
    extensions: [".tsx"],
  },
  {
    id: "javascript",
    name: "JavaScript",
    npm: "tree-sitter-javascript",
    wasm: "tree-sitter-javascript.wasm",
    extensions: [".js", ".mjs", ".cjs", ".jsx"],
  },
  {
    id: "python",
    name: "Python",
    npm: "tree-sitter-python",
    wasm: "tree-sitter-python.wasm",
    extensions: [".py", ".pyi"],
  },
  { id: "go", name: "Go", npm: "tree-sitter-go", wasm: "tree-sitter-go.wasm", extensions: [".go"] },
  {
    id: "rust",
    name: "Rust",
    npm: "tree-sitter-rust",
    wasm: "tree-sitter-rust.wasm",
    extensions: [".rs"],
  },
  {
    id: "java",
    name: "Java",
    npm: "tree-sitter-java",
    wasm: "tree-sitter-java.wasm",
    extensions: [".java"],
  },
  {
    id: "ruby",
    name: "Ruby",
    npm: "tree-sitter-ruby",
    wasm: "tree-sitter-ruby.wasm",
    extensions: [".rb", ".rake", ".gemspec"],
    basenames: ["Rakefile", "Gemfile"],
  },
];

/** The web-tree-sitter runtime's own wasm, copied beside the grammars. */
export const RUNTIME = { npm: "web-tree-sitter", wasm: "web-tree-sitter.wasm" } as const;

const BY_EXTENSION = new Map<string, LanguageInfo>();
const BY_BASENAME = new Map<string, LanguageInfo>();
for (const lang of LANGUAGES) {
  for (const ext of lang.extensions) BY_EXTENSION.set(ext, lang);
  for (const name of lang.basenames ?? []) BY_BASENAME.set(name, lang);
}

/** The language of a path by its base name, then its extension (case-insensitive), or null. */
/** The language of an id. */
export function languageById(id: LanguageId): LanguageInfo {
  return LANGUAGES.find((l) => l.id === id)!;
}

export function languageOf(path: string): LanguageInfo | null {
  const base = path.slice(path.lastIndexOf("/") + 1);
  const named = BY_BASENAME.get(base);
  if (named !== undefined) return named;
  const dot = base.lastIndexOf(".");
  if (dot <= 0) return null;
  return BY_EXTENSION.get(base.slice(dot).toLowerCase()) ?? null;
}

/** The extensions of C and C++ files (lower-case, with the dot). */
export function cFamilyExtensions(): string[] {
  return LANGUAGES.filter((l) => l.id === "c" || l.id === "cpp").flatMap((l) => [...l.extensions]);
}

/** "C, C++, TypeScript, ..." for error messages. */
export function languageNames(): string {
  return LANGUAGES.map((l) => l.name).join(", ");
}

/** Basename globs (ripgrep -g style) of every supported file, for the candidate scan. */
export function languageGlobs(): string[] {
  const globs: string[] = [];
  for (const lang of LANGUAGES) {
    for (const ext of lang.extensions) globs.push(`*${caseless(ext)}`);
    for (const name of lang.basenames ?? []) globs.push(name);
  }
  return globs;
}

/** ".c" -> ".[cC]": extensions match case-insensitively, as languageOf does. */
function caseless(ext: string): string {
  let out = "";
  for (const ch of ext) {
    const upper = ch.toUpperCase();
    out += upper !== ch ? `[${ch}${upper}]` : ch === "+" ? "[+]" : ch;
  }
  return out;
}

/**
 * C++ in a `.h` file (leveldb's, LLVM's, Qt's headers): a line that opens a class or namespace
 * body (`class Arena {`, `class DB : public X {`, `namespace leveldb {`), starts a template, or is
 * an access specifier alone. Of the Linux kernel's 23,401 headers, the 8 that match are C++ (its
 * gcc plugins, perf's clang glue, qconf, a selftest's sdt.h).
 */
const CPP_HEADER =
  /^[ \t]*(?:(?:class|namespace)[ \t]+[A-Za-z_]\w*(?:[ \t]+final)?(?:[ \t]*:[^;{\n]*)?[ \t]*\{[ \t]*$|template[ \t]*<|(?:public|private|protected)[ \t]*:[ \t]*$)/m;

/** The grammar for a `.h` file's text: C++ when it holds C++ (see CPP_HEADER), else C. */
export function headerLanguage(text: string): "c" | "cpp" {
  return CPP_HEADER.test(text) ? "cpp" : "c";
}
