import assert from "node:assert/strict";
import { TOOL_TABLE, toolsFor } from "../../lib/tools/index.ts";

const TOOLS = TOOL_TABLE.map((entry) => entry.tool);
/** The tools that write (docs/tools.md "edit_file" to "move_file"), listed only with --write. */
const EDIT_TOOLS = ["edit_file", "write_file", "delete_file", "move_file"];
import type { JsonSchema } from "../../lib/tools/tool.ts";

const KEYWORDS = new Set([
  "type",
  "enum",
  "const",
  "minimum",
  "maximum",
  "items",
  "properties",
  "required",
  "additionalProperties",
  "description",
  "default",
]);

function checkKeywords(schema: JsonSchema, where: string): void {
  for (const [key, value] of Object.entries(schema)) {
    assert.ok(KEYWORDS.has(key), `${where}: keyword ${key}`);
    if (key === "properties") {
      for (const [name, sub] of Object.entries(value as Record<string, JsonSchema>)) {
        assert.equal(typeof sub.description, "string", `${where}.${name} has a description`);
        checkKeywords(sub, `${where}.${name}`);
      }
    } else if (key === "items") checkKeywords(value as JsonSchema, `${where}[]`);
  }
}

Deno.test("tools: the four code tools are exported; the edit tools only with --write", () => {
  const names = (write: boolean) => toolsFor({ write, git: false }).map((t) => t.name);
  const readOnly = ["find_references", "find_symbol", "glob", "grep", "list_dir", "outline"];
  for (const name of [...readOnly, "read_file"]) {
    assert.ok(names(false).includes(name) && names(true).includes(name), name);
  }
  for (const name of EDIT_TOOLS) {
    assert.ok(!names(false).includes(name) && names(true).includes(name), name);
  }
});

/** A tool that writes: offered only with --write (rename_symbol's writing form included). */
function writes(tool: (typeof TOOLS)[number]): boolean {
  const entry = TOOL_TABLE.find((e) => e.tool === tool)!;
  const offered = (write: boolean) => entry.when?.({ write, git: true }) ?? true;
  return offered(true) && !offered(false);
}

Deno.test("tools: definitions list keys in wire order; read-only annotations but for edits", () => {
  for (const tool of TOOLS) {
    assert.deepEqual(Object.keys(tool).slice(0, 6), [
      "name",
      "title",
      "description",
      "inputSchema",
      "outputSchema",
      "annotations",
    ]);
    assert.deepEqual(
      tool.annotations,
      writes(tool)
        ? {
          title: tool.title,
          readOnlyHint: false,
          destructiveHint: true,
          idempotentHint: false,
          openWorldHint: false,
        }
        : { title: tool.title, readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    );
  }
});

Deno.test("tools: schemas are plain objects with described properties and safe keywords", () => {
  for (const tool of TOOLS) {
    for (const [kind, schema] of [["in", tool.inputSchema], ["out", tool.outputSchema]] as const) {
      assert.deepEqual(Object.keys(schema).sort(), [
        "additionalProperties",
        "properties",
        "required",
        "type",
      ]);
      assert.equal(schema.type, "object");
      assert.equal(schema.additionalProperties, false);
      checkKeywords(schema, `${tool.name}.${kind}`);
    }
  }
});

Deno.test("tools: each tool's texts stay under 800 characters", () => {
  for (const tool of TOOLS) {
    assert.ok(tool.description.length < 800, `${tool.name} description`);
    const described = JSON.stringify(tool.inputSchema).length;
    assert.ok(described < 2000, `${tool.name} inputSchema is ${described} chars`);
  }
});

Deno.test("tools: read_file's output schema requires only path", () => {
  const read = TOOLS.find((t) => t.name === "read_file")!;
  assert.deepEqual(read.outputSchema.required, ["path"]);
});
