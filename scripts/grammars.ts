// deno-lint-ignore-file no-console
/**
 * The `grammars` task: copies the tree-sitter runtime and grammar `.wasm` files from the npm
 * packages pinned in deno.json "imports" into lib/symbols/grammars/ (committed, so the server and
 * the `deno compile` binary, which embeds lib/, load them without network), and writes
 * manifest.json (package, version, sha256 of each file) and LICENSES.md (each package's licence).
 * tests/symbols/grammars_test.ts checks the committed files against the manifest and deno.json.
 *
 * Run: deno task grammars (it runs `deno install` first so the pinned packages are cached).
 */
import { createRequire } from "node:module";
import { LANGUAGES, RUNTIME } from "../lib/symbols/languages.ts";

const here = new URL("../", import.meta.url);
const outDir = new URL("lib/symbols/grammars/", here);
const require = createRequire(import.meta.url);

async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The exact version pinned in deno.json for `npm`, e.g. "npm:tree-sitter-c@0.24.1" -> 0.24.1. */
function pinned(imports: Record<string, string>, npm: string): string {
  const spec = imports[npm];
  const match = spec?.match(/^npm:(.+)@(\d+\.\d+\.\d+)$/);
  if (!match || match[1] !== npm) {
    throw new Error(`deno.json "imports" must pin "${npm}" as "npm:${npm}@X.Y.Z"`);
  }
  return match[2];
}

/** The folder of the installed package, found through its exported wasm file. */
function packageDir(npm: string, version: string, source: string): string {
  const wasm = require.resolve(`${npm}/${source}`);
  const dir = wasm.slice(0, wasm.lastIndexOf("/") + 1);
  const pkg = JSON.parse(Deno.readTextFileSync(dir + "package.json"));
  if (pkg.name !== npm || pkg.version !== version) {
    throw new Error(`${npm}: resolved ${pkg.name}@${pkg.version}, deno.json pins ${version}`);
  }
  return dir;
}

const config = JSON.parse(Deno.readTextFileSync(new URL("deno.json", here)));
const imports = config.imports as Record<string, string>;
const entries: Array<{ file: string; npm: string; version: string; source: string }> = [
  { file: RUNTIME.wasm, npm: RUNTIME.npm, version: "", source: RUNTIME.wasm },
  ...LANGUAGES.map((l) => ({ file: `${l.id}.wasm`, npm: l.npm, version: "", source: l.wasm })),
];
const files: Record<string, { package: string; version: string; source: string; sha256: string }> =
  {};
const licences = new Map<string, string>();
for (const entry of entries) {
  const version = pinned(imports, entry.npm);
  const dir = packageDir(entry.npm, version, entry.source);
  const bytes = Deno.readFileSync(dir + entry.source);
  Deno.writeFileSync(new URL(entry.file, outDir), bytes);
  files[entry.file] = {
    package: entry.npm,
    version,
    source: entry.source,
    sha256: await sha256(bytes),
  };
  if (!licences.has(entry.npm)) {
    const pkg = JSON.parse(Deno.readTextFileSync(dir + "package.json"));
    const text = Deno.readTextFileSync(dir + "LICENSE").trim();
    licences.set(entry.npm, `## ${entry.npm} ${version} (${pkg.license})\n\n${text}\n`);
  }
}
const manifest = { note: "Written by `deno task grammars`; do not edit.", files };
Deno.writeTextFileSync(new URL("manifest.json", outDir), JSON.stringify(manifest, null, 2) + "\n");
Deno.writeTextFileSync(
  new URL("LICENSES.md", outDir),
  "# Licences of the bundled tree-sitter files\n\n" +
    "The `.wasm` files in this folder are copied unchanged from these npm packages " +
    "(see manifest.json) by `deno task grammars`.\n\n" + [...licences.values()].join("\n"),
);
console.log(
  `Wrote ${entries.length} wasm files, manifest.json and LICENSES.md to ${outDir.pathname}`,
);
