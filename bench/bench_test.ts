import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { lineId } from "./client.ts";
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
