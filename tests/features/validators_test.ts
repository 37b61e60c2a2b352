/**
 * The tools' argument validators compiled ahead of time (lib/features/validators.generated.js,
 * written by scripts/validators.ts): current with every tool's schema, and answering as the same
 * schema compiled at run time does (defaults filled, the same one-sentence problems).
 */
import assert from "node:assert/strict";
import { argumentChecker, isPrecompiled } from "../../lib/features/arguments.ts";
import { toolsFor } from "../../lib/tools/index.ts";
import { GENERATED, validatorsSource } from "../../scripts/validators.ts";

const TOOLS = toolsFor({ write: true, git: true, gitTarget: null, selected: null });

Deno.test("validators: the generated file is current (run `deno task validators` after changing a schema)", () => {
  assert.equal(Deno.readTextFileSync(GENERATED), validatorsSource());
  for (const tool of TOOLS) assert.ok(isPrecompiled(tool.name, tool.inputSchema), tool.name);
});

Deno.test("validators: a schema other than the one compiled ahead of time is compiled at run time", () => {
  const grep = TOOLS.find((tool) => tool.name === "grep")!;
  assert.equal(isPrecompiled("grep", { ...grep.inputSchema, required: ["path"] }), false);
  assert.equal(isPrecompiled("no_such_tool", grep.inputSchema), false);
});

Deno.test("validators: compiled ahead of time or at run time, the answers are the same", async () => {
  const cases: Record<string, unknown>[] = [
    {},
    { pattern: "x" },
    { pattern: "x", output_mode: "count", head_limit: 0 },
    { pattern: 3 },
    { pattern: "x", nope: 1, other: [] },
    { pattern: "x", output_mode: "lines" },
    { file_path: "a.ts", offset: -1 },
    { path: "src", limit: "10" },
  ];
  for (const tool of TOOLS) {
    const ahead = await argumentChecker(tool.name, tool.inputSchema)();
    // Another name and a copy of the schema: compiled by ajv here, with the same options.
    const here = await argumentChecker(`${tool.name}_`, structuredClone(tool.inputSchema))();
    for (const args of cases) {
      const a = ahead(structuredClone(args));
      const b = here(structuredClone(args));
      const same = (x: typeof a) =>
        "problem" in x ? x.problem.replaceAll(`${tool.name}_`, tool.name) : x;
      assert.deepEqual(same(a), same(b), `${tool.name} ${JSON.stringify(args)}`);
    }
  }
});
