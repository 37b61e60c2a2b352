/**
 * MIME types of workspace files: our own table for source files and well-known names first
 * (MIME databases map `.ts` to video/mp2t and `.rs` to an XML type), then the `mime` library
 * (loaded lazily: nothing from npm loads at start-up), then the caller's text/binary fallback.
 */
import { asciiLower } from "../workspace/names.ts";

const BY_EXTENSION: Record<string, string> = {
  ts: "text/typescript",
  mts: "text/typescript",
  cts: "text/typescript",
  tsx: "text/typescript",
  js: "text/javascript",
  mjs: "text/javascript",
  cjs: "text/javascript",
  jsx: "text/javascript",
  json: "application/json",
  jsonc: "application/json",
  json5: "application/json",
  rs: "text/x-rust",
  go: "text/x-go",
  py: "text/x-python",
  pyi: "text/x-python",
  rb: "text/x-ruby",
  c: "text/x-c",
  h: "text/x-c",
  cc: "text/x-c++",
  cpp: "text/x-c++",
  cxx: "text/x-c++",
  "c++": "text/x-c++",
  hh: "text/x-c++",
  hpp: "text/x-c++",
  hxx: "text/x-c++",
  "h++": "text/x-c++",
  ipp: "text/x-c++",
  inl: "text/x-c++",
  m: "text/x-objectivec",
  mm: "text/x-objectivec",
  java: "text/x-java",
  kt: "text/x-kotlin",
  kts: "text/x-kotlin",
  scala: "text/x-scala",
  groovy: "text/x-groovy",
  gradle: "text/x-groovy",
  cs: "text/x-csharp",
  fs: "text/x-fsharp",
  swift: "text/x-swift",
  dart: "text/x-dart",
  zig: "text/x-zig",
  nim: "text/x-nim",
  lua: "text/x-lua",
  pl: "text/x-perl",
  pm: "text/x-perl",
  php: "text/x-php",
  r: "text/x-r",
  jl: "text/x-julia",
  hs: "text/x-haskell",
  ml: "text/x-ocaml",
  mli: "text/x-ocaml",
  ex: "text/x-elixir",
  exs: "text/x-elixir",
  erl: "text/x-erlang",
  clj: "text/x-clojure",
  el: "text/x-emacs-lisp",
  lisp: "text/x-lisp",
  scm: "text/x-scheme",
  sql: "application/sql",
  sh: "text/x-shellscript",
  bash: "text/x-shellscript",
  zsh: "text/x-shellscript",
  fish: "text/x-shellscript",
  ps1: "text/x-powershell",
  bat: "text/x-msdos-batch",
  s: "text/x-asm",
  asm: "text/x-asm",
  md: "text/markdown",
  markdown: "text/markdown",
  mdx: "text/markdown",
  rst: "text/x-rst",
  adoc: "text/asciidoc",
  txt: "text/plain",
  yaml: "application/yaml",
  yml: "application/yaml",
  toml: "application/toml",
  ini: "text/plain",
  cfg: "text/plain",
  conf: "text/plain",
  xml: "application/xml",
  html: "text/html",
  htm: "text/html",
  css: "text/css",
  scss: "text/x-scss",
  sass: "text/x-sass",
  less: "text/x-less",
  vue: "text/x-vue",
  svelte: "text/x-svelte",
  graphql: "application/graphql",
  gql: "application/graphql",
  proto: "text/x-protobuf",
  tf: "text/x-terraform",
  cmake: "text/x-cmake",
  mk: "text/x-makefile",
  mak: "text/x-makefile",
  dts: "text/x-devicetree",
  dtsi: "text/x-devicetree",
  diff: "text/x-diff",
  patch: "text/x-diff",
  csv: "text/csv",
  tsv: "text/tab-separated-values",
  svg: "image/svg+xml",
  lock: "text/plain",
  map: "application/json",
  tex: "text/x-tex",
};

const BY_NAME: Record<string, string> = {
  makefile: "text/x-makefile",
  gnumakefile: "text/x-makefile",
  kbuild: "text/x-makefile",
  kconfig: "text/plain",
  dockerfile: "text/x-dockerfile",
  containerfile: "text/x-dockerfile",
  "cmakelists.txt": "text/x-cmake",
  jenkinsfile: "text/x-groovy",
  gemfile: "text/x-ruby",
  rakefile: "text/x-ruby",
  vagrantfile: "text/x-ruby",
  podfile: "text/x-ruby",
  brewfile: "text/x-ruby",
  justfile: "text/x-makefile",
  procfile: "text/plain",
  license: "text/plain",
  copying: "text/plain",
  readme: "text/plain",
  authors: "text/plain",
  changelog: "text/plain",
  ".gitignore": "text/plain",
  ".gitattributes": "text/plain",
  ".gitmodules": "text/plain",
  ".ignore": "text/plain",
  ".rgignore": "text/plain",
  ".dockerignore": "text/plain",
  ".editorconfig": "text/plain",
  ".npmignore": "text/plain",
  ".env.example": "text/plain",
  ".env.sample": "text/plain",
  ".env.template": "text/plain",
};

type MimeLibrary = { getType(path: string): string | null };
let library: MimeLibrary | null = null;
let loading: Promise<MimeLibrary | null> | null = null;

/** Loads the MIME library once (first use); without it only our own table answers. */
export function loadMimeLibrary(): Promise<MimeLibrary | null> {
  loading ??= import("mime").then(
    (m) => (library = m.default as MimeLibrary),
    () => null,
  );
  return loading;
}

/**
 * The MIME type of a file name (the last path segment), or undefined when neither our table nor
 * the library knows it. Synchronous: call `loadMimeLibrary()` once before to include the library.
 */
export function mimeTypeOf(fileName: string): string | undefined {
  const name = asciiLower(fileName);
  if (Object.hasOwn(BY_NAME, name)) return BY_NAME[name];
  const dot = name.lastIndexOf(".");
  if (dot <= 0 || dot === name.length - 1) return undefined;
  const ext = name.slice(dot + 1);
  if (Object.hasOwn(BY_EXTENSION, ext)) return BY_EXTENSION[ext];
  return library?.getType(`x.${ext}`) ?? undefined;
}

/** The type of a served file: its name's type, else text/plain or application/octet-stream. */
export function mimeTypeOrFallback(fileName: string, isText: boolean): string {
  return mimeTypeOf(fileName) ?? (isText ? "text/plain" : "application/octet-stream");
}
