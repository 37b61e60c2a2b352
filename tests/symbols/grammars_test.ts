/**
 * The committed grammar files are exactly what `deno task grammars` copies from the npm packages
 * pinned in deno.json: names, versions and sha256 in manifest.json, licences credited.
 */
import assert from "node:assert/strict";
import { LANGUAGES, RUNTIME } from "../../lib/symbols/languages.ts";

const GRAMMARS = new URL("../../lib/symbols/grammars/", import.meta.url);
const manifest = JSON.parse(Deno.readTextFileSync(new URL("manifest.json", GRAMMARS)));
const config = JSON.parse(Deno.readTextFileSync(new URL("../../deno.json", import.meta.url)));

async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

Deno.test("grammars: every committed wasm file matches its manifest sha256", async () => {
  const files = Object.entries(manifest.files) as Array<[string, { sha256: string }]>;
  assert.equal(files.length, LANGUAGES.length + 1);
  for (const [name, entry] of files) {
    const bytes = Deno.readFileSync(new URL(name, GRAMMARS));
    assert.equal(await sha256(bytes), entry.sha256, name);
  }
});

Deno.test("grammars: the manifest names the versions pinned in deno.json", () => {
  const expected = [
    { file: RUNTIME.wasm, npm: RUNTIME.npm, source: RUNTIME.wasm },
    ...LANGUAGES.map((l) => ({ file: `${l.id}.wasm`, npm: l.npm, source: l.wasm })),
  ];
  for (const { file, npm, source } of expected) {
    const entry = manifest.files[file];
    assert.ok(entry, `${file} is in the manifest`);
    assert.equal(entry.package, npm);
    assert.equal(entry.source, source);
    assert.equal(config.imports[npm], `npm:${npm}@${entry.version}`, `${npm} pinned exactly`);
  }
});

Deno.test("grammars: every package's licence is credited", () => {
  const licences = Deno.readTextFileSync(new URL("LICENSES.md", GRAMMARS));
  const packages = new Set([RUNTIME.npm, ...LANGUAGES.map((l) => l.npm)]);
  for (const npm of packages) {
    const version = config.imports[npm].split("@").at(-1);
    assert.match(licences, new RegExp(`## ${npm} ${version.replaceAll(".", "\\.")} \\(MIT\\)`));
  }
  assert.equal((licences.match(/Permission is hereby granted/g) ?? []).length, packages.size);
});

Deno.test("grammars: the compiled binary embeds lib/ (grammars included)", () => {
  assert.match(config.tasks.compile.command, /--include lib\/ /);
});
