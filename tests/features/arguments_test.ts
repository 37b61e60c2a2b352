import assert from "node:assert/strict";
import { argumentChecker } from "../../lib/features/arguments.ts";

const schema = {
  type: "object",
  properties: { n: { type: "integer", description: "a number" } },
  required: ["n"],
  additionalProperties: false,
};

Deno.test("argument checks: a schema is compiled once, whoever asks first (warm-up or a call)", async () => {
  const warm = argumentChecker("t", schema);
  const call = argumentChecker("t", schema);
  const first = await warm();
  assert.equal(await call(), first);
  assert.equal(first({ n: 1 }), null);
  assert.equal(first({}), 'Missing required parameter "n" for t');
});
