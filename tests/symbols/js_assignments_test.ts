/**
 * CommonJS-style definitions, as Express writes them: functions assigned to properties
 * (`exports.x`, `req.accepts`, `View.prototype.render`), classes assigned, and functions held by
 * object literal keys are definitions, with the object as their container; named function values
 * keep their own names; computed keys and non-function values are not definitions.
 */
import assert from "node:assert/strict";
import { flattenSymbols, outlineLine } from "../../lib/symbols/outline_lines.ts";
import { parseFiles } from "./temp_tree.ts";
import type { CodeSymbol } from "../../lib/symbols/types.ts";

const SOURCE = `var req = Object.create(http.IncomingMessage.prototype);
module.exports = req;

req.accepts = function () {
  return accepts(this);
};

exports.compileETag = (val) => val;

View.prototype.render = function (options, fn) {
  fn(null, options);
};

module.exports.Router = class {
  route() {}
};

var users = {
  destroy: function (req, res, id) {
    return id;
  },
  show: (id) => id,
  get: function getUser() {},
  name: "not a function",
};

module.exports = function renderFile(fileName) {};

app[method] = function (path) {};
handler = function () {};
`;

async function symbolsOf(text: string): Promise<CodeSymbol[]> {
  const outcome = (await parseFiles({ "a.js": text })).get("a.js");
  assert.ok(outcome?.ok);
  assert.equal(outcome.partial, false);
  return outcome.symbols;
}

Deno.test("symbols: JavaScript functions and classes assigned to properties are definitions", async () => {
  const symbols = await symbolsOf(SOURCE);
  const lines = flattenSymbols(symbols).map(outlineLine);
  assert.deepEqual(lines, [
    "1-1 variable req",
    "4-6 function accepts",
    "8-8 function compileETag",
    "10-12 method render",
    "14-16 class Router",
    "  15-15 method route",
    "18-25 variable users",
    "  19-21 method destroy",
    "  22-22 method show",
    "  23-23 function getUser",
    "27-27 function renderFile",
    "30-30 function handler",
  ]);
  const containers = flattenSymbols(symbols).map(({ symbol }) =>
    `${symbol.name}:${symbol.container ?? ""}`
  );
  assert.ok(containers.includes("accepts:req"), containers.join(" "));
  assert.ok(containers.includes("render:View"), containers.join(" "));
  assert.ok(containers.includes("compileETag:"), containers.join(" "));
  assert.ok(containers.includes("destroy:users"), containers.join(" "));
});
