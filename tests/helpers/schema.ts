/**
 * Validates server messages against the official MCP 2025-06-18 JSON Schema (a copy of the spec's
 * data file in tests/testdata/), with ajv. The one knowing exception: `id:null` on errors.
 */

import Ajv from "ajv";
import addFormats from "ajv-formats";

const schema = JSON.parse(
  await Deno.readTextFile(new URL("../testdata/schema_2025-06-18.json", import.meta.url)),
);

// deno-lint-ignore no-explicit-any
const ajv = new (Ajv as any)({ strict: false, allErrors: true });
// deno-lint-ignore no-explicit-any
(addFormats as any)(ajv);
ajv.addSchema(schema, "mcp");

// deno-lint-ignore no-explicit-any
const compiled = new Map<string, any>();
function validator(definition: string) {
  let check = compiled.get(definition);
  if (check === undefined) {
    check = ajv.getSchema(`mcp#/definitions/${definition}`);
    if (check === undefined) throw new Error(`no definition ${definition} in the schema`);
    compiled.set(definition, check);
  }
  return check;
}

const RESULT_OF: Record<string, string> = {
  initialize: "InitializeResult",
  ping: "EmptyResult",
  "tools/list": "ListToolsResult",
  "tools/call": "CallToolResult",
  "resources/list": "ListResourcesResult",
  "resources/read": "ReadResourceResult",
  "resources/templates/list": "ListResourceTemplatesResult",
};

/** Throws unless `value` validates against the named definition. */
export function assertSchema(definition: string, value: unknown): void {
  const check = validator(definition);
  if (!check(value)) {
    throw new Error(
      `not a valid ${definition}: ${ajv.errorsText(check.errors)}\n${
        JSON.stringify(value).slice(0, 500)
      }`,
    );
  }
}

/**
 * Throws unless one server line is a valid MCP message. `method` (of the request it answers) picks
 * the result definition; notifications must be ServerNotifications.
 */
export function assertServerMessage(line: string, method?: string): void {
  const message = JSON.parse(line);
  if ("error" in message) {
    if (message.id === null) {
      // JSON-RPC 2.0 wants id null for parse errors; the 2025-06-18 schema does not: documented.
      assertSchema("JSONRPCError", { ...message, id: 0 });
    } else {
      assertSchema("JSONRPCError", message);
    }
    return;
  }
  if ("result" in message) {
    assertSchema("JSONRPCResponse", message);
    const definition = method === undefined ? "ServerResult" : RESULT_OF[method];
    if (definition !== undefined) assertSchema(definition, message.result);
    return;
  }
  assertSchema("JSONRPCNotification", message);
  assertSchema("ServerNotification", { method: message.method, params: message.params });
}
