/**
 * Checks tools/call arguments against each tool's declared inputSchema with a real JSON Schema
 * validator (ajv, loaded on first use so that nothing from npm slows the handshake), and says
 * what to fix in one sentence. The validator also fills each absent parameter that has a
 * `default` in the schema (the one place a default is written), so a tool's `run` reads typed
 * input (`InputOf` in lib/tools/tool.ts) without restating it.
 */

import type { JsonSchema } from "../tools/tool.ts";
import * as precompiled from "./validators.generated.js";

interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

type Check = ((data: unknown) => boolean) & { errors?: AjvError[] | null };

/** Arguments that passed the checks: the input with defaults filled, and what the caller sent. */
export interface CheckedArguments {
  /** A copy of the arguments with every absent defaulted parameter filled from the schema. */
  input: Record<string, unknown>;
  /** The parameters the caller sent, before the defaults were filled. */
  given: ReadonlySet<string>;
}

/** What is wrong with the arguments, in one sentence for the model. */
export interface ArgumentProblem {
  problem: string;
}

export type ArgumentCheck = (args: Record<string, unknown>) => CheckedArguments | ArgumentProblem;

let ajvPromise: Promise<{ compile(schema: JsonSchema): Check }> | undefined;

/**
 * The validator's options. useDefaults: an absent parameter with a schema `default` is filled
 * before validation (as the MCP Go SDK's applySchema does), so the default is written once, in the
 * schema. scripts/validators.ts compiles the tools' schemas ahead of time with the same options.
 */
export const AJV_OPTIONS = { allErrors: true, strict: false, useDefaults: true };

/**
 * The tool's validator compiled ahead of time (validators.generated.js), when it was compiled
 * from a schema equal to `schema`; else null (compiled here, with ajv).
 */
function precompiledFor(toolName: string, schema: JsonSchema): Check | null {
  const modules = precompiled as unknown as Record<string, unknown>;
  const schemas = modules.SCHEMAS as Record<string, string>;
  if (!Object.hasOwn(schemas, toolName) || schemas[toolName] !== JSON.stringify(schema)) {
    return null;
  }
  const validate = modules[toolName];
  return typeof validate === "function" ? validate as Check : null;
}

function loadAjv(): Promise<{ compile(schema: JsonSchema): Check }> {
  ajvPromise ??= import("ajv").then((module) => {
    // deno-lint-ignore no-explicit-any
    const Ajv = (module.default ?? module) as any;
    return new Ajv(AJV_OPTIONS);
  });
  return ajvPromise;
}

/** One compilation per schema object, shared by every checker of it (calls and warm-up). */
const compiled = new WeakMap<JsonSchema, Promise<ArgumentCheck>>();

/**
 * The tool's check: its validator compiled ahead of time, or its schema compiled on first use;
 * resolves to a function giving a problem or the checked arguments.
 */
export function argumentChecker(
  toolName: string,
  schema: JsonSchema,
): () => Promise<ArgumentCheck> {
  return () => {
    let check = compiled.get(schema);
    if (check === undefined) {
      const ready = precompiledFor(toolName, schema);
      check = ready !== null
        ? Promise.resolve(checkWith(toolName, schema, ready))
        : loadAjv().then((ajv) => checkWith(toolName, schema, ajv.compile(schema)));
      compiled.set(schema, check);
    }
    return check;
  };
}

/** True when `toolName`'s validator was compiled ahead of time from `schema` (no ajv needed). */
export function isPrecompiled(toolName: string, schema: JsonSchema): boolean {
  return precompiledFor(toolName, schema) !== null;
}

function checkWith(toolName: string, schema: JsonSchema, validate: Check): ArgumentCheck {
  return (args: Record<string, unknown>): CheckedArguments | ArgumentProblem => {
    const bounds = boundsProblem(toolName, args);
    if (bounds !== null) return { problem: bounds };
    // The caller's object stays as sent: the defaults go into a copy.
    const input = { ...args };
    if (!validate(input)) {
      return { problem: describe(toolName, schema, validate.errors ?? []) };
    }
    return { input, given: new Set(Object.keys(args)) };
  };
}

/** Loads the validator ahead of the first call (after the handshake); resolves once loaded. */
export function warmValidator(): Promise<void> {
  return loadAjv().then(() => {}, () => {});
}

function describe(toolName: string, schema: JsonSchema, errors: AjvError[]): string {
  const valid = Object.keys((schema.properties ?? {}) as Record<string, unknown>);
  const unknown = errors.filter((e) =>
    e.keyword === "additionalProperties" && e.instancePath === ""
  )
    .map((e) => String(e.params.additionalProperty));
  if (unknown.length > 0) {
    const names = unknown.slice(0, MAX_NAMED).map((name) => JSON.stringify(clip(name))).join(", ");
    const more = unknown.length > MAX_NAMED ? ` and ${unknown.length - MAX_NAMED} more` : "";
    return `Unknown parameter${unknown.length > 1 ? "s" : ""} ${names}${more} for ${toolName}; ` +
      `valid parameters are: ${valid.join(", ")}`;
  }
  const sentences = errors.slice(0, 3).map((error) => sentence(toolName, error));
  return [...new Set(sentences)].join("; ");
}

/** An error names at most this many unknown parameters. */
const MAX_NAMED = 10;

/**
 * Bounds checked before the validator runs (docs/limits.md): tool arguments are small
 * objects, and a million keys or a deep nest would otherwise stall the main thread.
 */
export const MAX_ARGUMENT_KEYS = 64;
export const MAX_ARGUMENT_NODES = 10_000;
export const MAX_ARGUMENT_DEPTH = 16;

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 60)}...` : text;
}

/** One sentence when `args` is over a bound; null when within. Stops at the first excess. */
function boundsProblem(toolName: string, args: Record<string, unknown>): string | null {
  let keys = 0;
  for (const _ in args) {
    if (++keys > MAX_ARGUMENT_KEYS) {
      return `The arguments of ${toolName} have more than ${MAX_ARGUMENT_KEYS} keys; ` +
        "send only its documented parameters";
    }
  }
  const stack: [unknown, number][] = [[args, 0]];
  let nodes = 0;
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (++nodes > MAX_ARGUMENT_NODES) {
      return `The arguments of ${toolName} hold more than ${MAX_ARGUMENT_NODES} values; ` +
        "send only its documented parameters";
    }
    if (typeof value !== "object" || value === null) continue;
    if (depth >= MAX_ARGUMENT_DEPTH) {
      return `The arguments of ${toolName} are nested more than ${MAX_ARGUMENT_DEPTH} levels ` +
        "deep; send only its documented parameters";
    }
    for (const key in value) stack.push([(value as Record<string, unknown>)[key], depth + 1]);
  }
  return null;
}

function sentence(toolName: string, error: AjvError): string {
  const where = error.instancePath.slice(1).replaceAll("/", ".");
  const name = `Parameter "${where}"`;
  switch (error.keyword) {
    case "required":
      return `Missing required parameter "${String(error.params.missingProperty)}" for ${toolName}`;
    case "type":
      return `${name} must be ${article(String(error.params.type))}`;
    case "enum":
      return `${name} must be one of: ${
        (error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")
      }`;
    case "minimum":
    case "maximum":
      return `${name} must be ${error.params.comparison} ${error.params.limit}`;
    case "additionalProperties":
      return `${name} has an unknown property "${String(error.params.additionalProperty)}"`;
    default:
      return where === "" ? `Arguments ${error.message}` : `${name} ${error.message}`;
  }
}

function article(type: string): string {
  const names = type.split(",").map((t) =>
    t === "integer" ? "an integer" : t === "object" ? "an object" : `a ${t}`
  );
  return names.join(" or ");
}
