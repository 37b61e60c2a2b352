/**
 * Python's call hierarchy through the real server's tools: find_references with calls walks
 * pyright's; go_to_definition with target "implementations" lists a class's subclasses and a
 * method's overrides in the definitions' lines (implementations_test.ts checks them against
 * pyright standalone).
 */
import assert from "node:assert/strict";
import { makePythonProject } from "./fixture.ts";
import { SemanticServer } from "../server.ts";

Deno.test("python navigation tools: calls, and implementations", async () => {
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
    const models = "src/shop/models.py";
    const cls = await server.ok("go_to_definition", {
      path: models,
      line: 10,
      name: "Shape",
      target: "implementations",
    });
    assert.equal(cls.structured.engine, "pyright");
    assert.equal(
      cls.text.split("\n")[0],
      "src/shop/models.py:18:7: class Square(Shape):  [class Square, to line 23]",
    );
    const area = await server.ok("go_to_definition", {
      path: models,
      line: 11,
      name: "area",
      target: "implementations",
    });
    assert.equal(
      area.text.split("\n")[0],
      "src/shop/models.py:22:9:     def area(self) -> float:  [method area, to line 23]",
    );
  } finally {
    await server.close();
    await fixture.dispose();
  }
});
