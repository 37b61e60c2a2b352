import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { lineId } from "./client.ts";
import { LineSplitter } from "./byte_lines.ts";
import { isRefusedPath, isSecretName } from "./secrets.ts";

const enc = new TextEncoder();

Deno.test("lineId: reads an integer id at the start of our key order", () => {
  assertEquals(lineId(enc.encode('{"jsonrpc":"2.0","id":42,"result":{}}')), 42);
});

Deno.test("lineId: reads the id at the end of the SDK's key order", () => {
  assertEquals(lineId(enc.encode('{"result":{"text":"\\"id\\":7}"},"jsonrpc":"2.0","id":9}')), 9);
});

Deno.test("lineId: reads a string id", () => {
  assertEquals(lineId(enc.encode('{"jsonrpc":"2.0","id":"a,b","result":{}}')), "a,b");
});

Deno.test("lineId: is null for a notification", () => {
  assertEquals(lineId(enc.encode('{"jsonrpc":"2.0","method":"notifications/progress"}')), null);
});

Deno.test("isSecretName: follows docs/workspace.md's list", () => {
  assertEquals(
    [".env", ".env.local", ".env.example", "sign_key.pem", "ID_RSA.pub", "main.c", "Kconfig"]
      .map(isSecretName),
    [true, true, false, true, true, false, false],
  );
});

Deno.test("isRefusedPath: refuses a secret or .git folder segment", () => {
  assertEquals(
    ["a/.git/config", "x.key/readme", "tools/testing/selftests/sgx/sign_key.pem", "a/b.c"]
      .map(isRefusedPath),
    [true, true, true, false],
  );
});

/** The lines a splitter hands over for `text` cut into chunks of `size` bytes. */
function splitInChunks(text: string, size: number, copy: boolean): string[] {
  const bytes = enc.encode(text);
  const lines: string[] = [];
  const splitter = new LineSplitter({ copy });
  const take = (line: Uint8Array) => lines.push(new TextDecoder().decode(line));
  // One buffer reused for every chunk when `copy`, as the floor reads its stdin.
  const buffer = new Uint8Array(size);
  for (let i = 0; i < bytes.length; i += size) {
    const piece = bytes.subarray(i, i + size);
    if (copy) {
      buffer.set(piece);
      splitter.push(buffer.subarray(0, piece.length), take);
    } else {
      splitter.push(piece.slice(), take);
    }
  }
  const rest = splitter.rest();
  if (rest !== null) take(rest);
  return lines;
}

Deno.test("LineSplitter: gives the same lines whatever the chunk size, a reused buffer too", () => {
  const text = '{"id":1}\n\n{"id":22,"text":"é ü"}\n{"id":333}';
  const want = ['{"id":1}', "", '{"id":22,"text":"é ü"}', '{"id":333}'];
  for (const copy of [false, true]) {
    for (let size = 1; size <= text.length + 1; size++) {
      assertEquals(splitInChunks(text, size, copy), want);
    }
  }
});
