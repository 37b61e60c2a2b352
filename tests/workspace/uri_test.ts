import assert from "node:assert/strict";
import { pathToFileURL } from "node:url";
import { echoableUri, fileUriToPath, pathToFileUri, UriError } from "../../lib/workspace/uri.ts";

const PATHS = [
  "/tmp/root/src/a.ts",
  "/tmp/root/sp ace é.ts",
  "/tmp/root/100%.txt",
  "/tmp/root/q?.txt",
  "/tmp/root/hash#.txt",
  "/tmp/root/back\\slash",
  "/tmp/root/tab\tnew\nline",
  "/tmp/root/[brackets]{braces}`tick`^caret|pipe\"quote'<>",
  "/tmp/root/日本語/😀.md",
  "/tmp/root/a;b=c&d$e+f,g@h!i~j*(k)",
];

Deno.test("pathToFileUri: encodes like node's pathToFileURL", () => {
  for (const path of PATHS) assert.equal(pathToFileUri(path), pathToFileURL(path).href, path);
});

Deno.test("fileUriToPath: round-trips every path pathToFileUri encodes", () => {
  for (const path of PATHS) assert.equal(fileUriToPath(pathToFileUri(path)), path, path);
});

Deno.test("fileUriToPath: accepts localhost and refuses other hosts and schemes", () => {
  assert.equal(fileUriToPath("file://localhost/a/b"), "/a/b");
  assert.equal(fileUriToPath("FILE:///a/b"), "/a/b");
  assert.throws(() => fileUriToPath("file://evil.example/a"), UriError);
  assert.throws(() => fileUriToPath("https:///a"), UriError);
  assert.throws(() => fileUriToPath("file:///a%ff"), UriError);
});

Deno.test("echoableUri: a valid URI is echoed as sent; raw non-ASCII, spaces and stray % are percent-encoded", () => {
  assert.equal(echoableUri("file:///r/a%20b.ts"), "file:///r/a%20b.ts");
  assert.equal(echoableUri("file:///r/é b.py"), "file:///r/%C3%A9%20b.py");
  assert.equal(echoableUri("file:///r/100%.txt"), "file:///r/100%25.txt");
  assert.equal(echoableUri("file:///r/😀"), "file:///r/%F0%9F%98%80");
});
