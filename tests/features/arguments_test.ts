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
  assert.deepEqual(first({ n: 1 }), { input: { n: 1 }, given: new Set(["n"]) });
  assert.deepEqual(first({}), { problem: 'Missing required parameter "n" for t' });
});

const defaulted = {
  type: "object",
  properties: {
    mode: { type: "string", enum: ["a", "b"], default: "a", description: "a mode" },
    offset: { type: "integer", minimum: 0, default: 0, description: "an offset" },
    limit: { type: "integer", minimum: 0, description: "no default" },
  },
  required: [],
  additionalProperties: false,
};

Deno.test("argument checks: absent parameters get the schema's default, in a copy", async () => {
  const check = await argumentChecker("t", defaulted)();
  const sent = { offset: 5 };
  const checked = check(sent);
  assert.deepEqual(checked, { input: { mode: "a", offset: 5 }, given: new Set(["offset"]) });
  assert.deepEqual(sent, { offset: 5 });
});

Deno.test("argument checks: a given value is checked, never replaced by the default", async () => {
  const check = await argumentChecker("t", defaulted)();
  assert.deepEqual(check({ mode: "b" }), {
    input: { mode: "b", offset: 0 },
    given: new Set(["mode"]),
  });
  assert.deepEqual(check({ mode: "c" }), { problem: 'Parameter "mode" must be one of: "a", "b"' });
});
