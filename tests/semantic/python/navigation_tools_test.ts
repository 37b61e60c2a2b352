/**
 * Python's call hierarchy through the real server's tools: find_references with calls walks
 * pyright's; target "implementations" is refused in one sentence (pyright answers no
 * textDocument/implementation).
 */
import assert from "node:assert/strict";
import { makePythonProject } from "./fixture.ts";
import { SemanticServer } from "../server.ts";

Deno.test("python navigation tools: calls, and implementations refused", async () => {
  const fixture = await makePythonProject();
  const server = await SemanticServer.start(fixture.root);
  try {
    const shape = { path: "src/shop/orders.py", line: 8, name: "make_shape" };
    const calls = await server.ok("find_references", { ...shape, calls: "incoming" });
    assert.match(
      calls.text,
      /^Incoming calls of function make_shape \(src\/shop\/models.py:26:5\)/,
    );
    assert.match(
      calls.text,
      /\nsrc\/shop\/orders.py:7:5: def total\(count: int\) -> float: {2}\[function total; calls it at 8:13\]/,
    );
    const impl = await server.call("go_to_definition", { ...shape, target: "implementations" });
    assert.equal(impl.isError, true);
    assert.equal(impl.text, "The Python engine does not answer implementations");
  } finally {
    await server.close();
    await fixture.dispose();
  }
});
