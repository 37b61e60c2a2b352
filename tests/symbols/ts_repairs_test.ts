/**
 * TypeScript that the pinned grammar cannot parse though TypeScript accepts it (generic call
 * signatures with no separator before them, variance annotations, `abstract override`): the
 * definitions after such a line are still found, at their own lines, through the real parser
 * worker.
 */
import assert from "node:assert/strict";
import { repairTypeScript } from "../../lib/symbols/ts_repairs.ts";
import { flattenSymbols, outlineLine } from "../../lib/symbols/outline_lines.ts";
import { parseFiles } from "./temp_tree.ts";
import ts from "typescript";

/** Overloads written as hono writes them: the type parameter list on the lines after the `<`. */
const SIGNATURES = `export interface Handler<E> {
  (path: string): Hono<E>

  // with a handler
  <
    P extends string,
    R = any,
  >(path: P, handler: R): Hono<E>
  <P extends string>(path: P): Hono<E>
  new <T>(value: T): Handler<T>
}

export function afterSignatures(): number {
  return 1
}
`;

const VARIANCE = `interface Box<out O = unknown, in I = unknown> {
  take(value: I): O
}

export function afterVariance() {}
`;

const OVERRIDE = `abstract class Base {
  abstract label: string
}

export abstract class Named extends Base {
  abstract override label: string
}

export function afterOverride() {}
`;

/** vue's forms: a member named `in` after one with no separator, an array of an import type. */
const VUE_FORMS = `export interface TransitionProps {
  name?: string
  in?: boolean
  out?: Foo
  in: number
}

export interface SFCScriptBlock {
  type: 'script'
  scriptAst?: import('@babel/types').Statement[]
  other?: Array<import("./x").Y>
}
export type Statements = import('@babel/types').Statement[]

export function afterVue(): void {}
`;

async function outline(files: Record<string, string>, file: string) {
  const outcome = (await parseFiles(files)).get(file);
  assert.ok(outcome?.ok, `${file} parsed`);
  return { lines: flattenSymbols(outcome.symbols).map(outlineLine), partial: outcome.partial };
}

Deno.test("symbols: definitions after generic call signatures without separators are found", async () => {
  const got = await outline({ "a.ts": SIGNATURES }, "a.ts");
  assert.ok(got.lines.includes("13-15 function afterSignatures"), got.lines.join("\n"));
  assert.ok(got.lines.includes("1-11 interface Handler"), got.lines.join("\n"));
  assert.equal(got.partial, false);
});

Deno.test("symbols: variance annotations and abstract override do not hide later definitions", async () => {
  const variance = await outline({ "v.ts": VARIANCE }, "v.ts");
  assert.deepEqual(variance.lines, [
    "1-3 interface Box",
    "  2-2 method take",
    "5-5 function afterVariance",
  ]);
  assert.equal(variance.partial, false);
  const override = await outline({ "o.ts": OVERRIDE }, "o.ts");
  assert.ok(override.lines.includes("9-9 function afterOverride"), override.lines.join("\n"));
  assert.ok(override.lines.includes("5-7 class Named"), override.lines.join("\n"));
  assert.equal(override.partial, false);
});

Deno.test("symbols: vue's `in?:` members and import-type arrays parse whole, as TypeScript does", async () => {
  const source = ts.createSourceFile("vue.ts", VUE_FORMS, ts.ScriptTarget.Latest, true);
  // deno-lint-ignore no-explicit-any
  assert.deepEqual((source as any).parseDiagnostics, [], "TypeScript accepts the fixture");
  const got = await outline({ "vue.ts": VUE_FORMS }, "vue.ts");
  assert.deepEqual(got.lines, [
    "1-6 interface TransitionProps",
    "  2-2 field name",
    "  3-3 field in",
    "  4-4 field out",
    "  5-5 field in",
    "8-12 interface SFCScriptBlock",
    "  9-9 field type",
    "  10-10 field scriptAst",
    "  11-11 field other",
    "13-13 type Statements",
    "15-15 function afterVue",
  ]);
  assert.equal(got.partial, false);
});

Deno.test("symbols: a TypeScript error the rewrites cannot mend still answers partial", async () => {
  const got = await outline(
    { "b.ts": "export function ok() {}\nconst = ;\nfunction later() {}\n" },
    "b.ts",
  );
  assert.equal(got.partial, true);
  assert.ok(got.lines.includes("1-1 function ok"), got.lines.join("\n"));
});

Deno.test("symbols: the TypeScript rewrites keep every position and line break", () => {
  for (const text of [SIGNATURES, VARIANCE, OVERRIDE, VUE_FORMS]) {
    const repaired = repairTypeScript(text);
    assert.ok(repaired !== null);
    assert.equal(repaired.length, text.length);
    for (let i = 0; i < text.length; i++) {
      if (text[i] === "\n" || repaired[i] === "\n") {
        assert.equal(repaired[i], text[i], `offset ${i}`);
      }
    }
  }
  assert.match(repairTypeScript(SIGNATURES)!, /\n ;<\n/);
  assert.match(repairTypeScript(SIGNATURES)!, /\n ;<P extends string>/);
  assert.match(repairTypeScript(VARIANCE)!, /interface Box< {4}O = unknown, {4}I = unknown>/);
  assert.match(repairTypeScript(OVERRIDE)!, /abstract {10}label/);
});

Deno.test("symbols: the TypeScript rewrites leave ordinary code alone", () => {
  assert.equal(
    repairTypeScript(
      "const a = b;\n  <T>(x: T) => x;\nfor (const k in obj) {}\nconst c = k\n  in obj;\n" +
        "const d = import('./d').then((m) => m.x[0]);\n",
    ),
    null,
  );
  assert.equal(repairTypeScript("export function f<T>(x: T): T {\n  return x\n}\n"), null);
});
