/** decodeMessage refuses what JSON.parse would need seconds for (docs/limits.md). */
import assert from "node:assert/strict";
import { decodeMessage, MAX_MESSAGE_DEPTH, MAX_MESSAGE_KEYS } from "../../lib/jsonrpc/message.ts";

Deno.test("decodeMessage: too many keys is Request too large, with the id when it leads", () => {
  const keys = Array.from({ length: MAX_MESSAGE_KEYS + 1 }, (_, i) => `"k${i}":1`).join(",");
  const line = `{"jsonrpc":"2.0","id":"x7","method":"ping","params":{${keys}}}`;
  assert.deepEqual(decodeMessage(line), {
    kind: "invalid",
    id: "x7",
    message: "Request too large",
  });
});

Deno.test("decodeMessage: nesting deeper than the bound is Request too large", () => {
  const depth = MAX_MESSAGE_DEPTH + 1;
  const line = `{"jsonrpc":"2.0","id":3,"method":"ping","params":{"a":${"[".repeat(depth)}${
    "]".repeat(depth)
  }}}`;
  assert.deepEqual(decodeMessage(line), { kind: "invalid", id: 3, message: "Request too large" });
});

Deno.test("decodeMessage: brackets and colons inside strings do not count", () => {
  const text = "[{:".repeat(100_000);
  const line = `{"jsonrpc":"2.0","id":4,"method":"ping","params":{"s":"${text}"}}`;
  const decoded = decodeMessage(line);
  assert.equal(decoded.kind, "request");
});

Deno.test("decodeMessage: escaped quotes and backslash runs inside strings are read as JSON reads them", () => {
  const keys = Array.from({ length: MAX_MESSAGE_KEYS + 1 }, (_, i) => `"k${i}":1`).join(",");
  // An escaped quote does not end the string, so the keys after it stay inside: one string.
  const inside = `{"jsonrpc":"2.0","id":5,"method":"ping","params":{"s":"a\\"${
    keys.replaceAll('"', '\\"')
  }\\\\"}}`;
  assert.equal(decodeMessage(inside).kind, "request");
  // An even run of backslashes before a quote ends the string: the keys after it count.
  const outside = `{"jsonrpc":"2.0","id":6,"method":"ping","params":{"s":"a\\\\\\\\",${keys}}}`;
  assert.deepEqual(decodeMessage(outside), {
    kind: "invalid",
    id: 6,
    message: "Request too large",
  });
});
