/**
 * ripgrep type names as models write them (docs/tools.md "grep"): the names `rg --type-list`
 * knows, plus the long or common spellings (`typescript`, `python`, `golang`, `c++`, `yml`) read
 * as their short forms, any case. An unknown name gets a short error naming the closest types.
 */
import { FILE_TYPES } from "./file_types.ts";

const ALIASES: Record<string, string> = {
  typescript: "ts",
  tsx: "ts",
  javascript: "js",
  jsx: "js",
  mjs: "js",
  cjs: "js",
  python: "py",
  python3: "py",
  golang: "go",
  "c++": "cpp",
  cxx: "cpp",
  cc: "cpp",
  hpp: "cpp",
  h: "c",
  "c#": "cs",
  csharp: "cs",
  rs: "rust",
  rb: "ruby",
  kt: "kotlin",
  shell: "sh",
  bash: "sh",
  zsh: "sh",
  yml: "yaml",
  dockerfile: "docker",
  makefile: "make",
  terraform: "tf",
  proto: "protobuf",
  text: "txt",
  objectivec: "objc",
  "objective-c": "objc",
  pl: "perl",
  ex: "elixir",
  hs: "haskell",
};

/** Names shown when a name is unknown and nothing is close. */
const COMMON = ["ts", "js", "py", "rust", "go", "c", "cpp", "java", "md", "json", "yaml"];

function known(name: string): boolean {
  return Object.hasOwn(FILE_TYPES, name);
}

/** Levenshtein distance, bounded (names are short). */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length];
}

/** The ripgrep type `name` stands for, or null. */
export function typeName(name: string): string | null {
  if (known(name)) return name;
  const lower = name.toLowerCase();
  if (known(lower)) return lower;
  const alias = ALIASES[lower];
  return alias !== undefined && Object.hasOwn(ALIASES, lower) ? alias : null;
}

/** The globs of the type `name` stands for, or the one-sentence error for an unknown name. */
export function typeGlobs(name: string): { globs: readonly string[] } | { error: string } {
  const type = typeName(name);
  if (type !== null) return { globs: FILE_TYPES[type] };
  const lower = name.toLowerCase();
  // Near a type name or a long spelling of one (then its short form is named).
  const spellings: [string, string][] = [
    ...Object.keys(FILE_TYPES).map((t): [string, string] => [t, t]),
    ...Object.entries(ALIASES),
  ];
  const scored = spellings
    .map(([spelled, t]) => ({
      t,
      d: spelled.startsWith(lower) || lower.startsWith(spelled) ? 0 : distance(lower, spelled),
    }))
    .filter((x) => x.d <= 2)
    .sort((a, b) => a.d - b.d || a.t.localeCompare(b.t));
  const close = [...new Set(scored.map((x) => x.t))].slice(0, 5);
  const names = close.length > 0 ? close : COMMON;
  return {
    error: `Unknown file type ${JSON.stringify(name.slice(0, 100))}; ripgrep type names are ` +
      `short, e.g. ${names.join(", ")} (or use glob, e.g. "*.ext")`,
  };
}
