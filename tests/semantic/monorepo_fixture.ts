/**
 * A monorepo of three tsconfig projects under a solution config: `packages/core` (composite),
 * `packages/app` (references core, reaches its sources through `paths`, an `extends` that does
 * not resolve), and `tests` (reaches core's sources through `paths`, names a `types` package that
 * is not installed: TS2688, and uses `describe` it would have declared). Names chosen for the
 * safe-rename conflicts: `toCamelCase` beside an exported `capitalize` (renaming one to the
 * other duplicates imports and exports), a module-level `limit` used inside a function that
 * declares `max` (renaming `limit` to `max` would make that use the local one).
 */
import { makeTree, type Tree } from "../helpers/fixture.ts";

function json(value: unknown): string {
  return JSON.stringify(value, null, 2) + "\n";
}

export const MONOREPO: Tree = {
  "tsconfig.json": json({
    files: [],
    references: [{ path: "./packages/core" }, { path: "./packages/app" }, { path: "./tests" }],
  }),
  "packages/core/tsconfig.json": json({
    compilerOptions: {
      composite: true,
      strict: true,
      target: "ES2022",
      module: "ESNext",
      moduleResolution: "Bundler",
    },
    include: ["src"],
  }),
  "packages/core/src/strings.ts": [
    "export function toCamelCase(text: string): string {",
    "  return text.replace(/-(\\w)/g, (_, c: string) => c.toUpperCase());",
    "}",
    "",
    "export const capitalize = (text: string): string =>",
    "  text.charAt(0).toUpperCase() + text.slice(1);",
    "",
    "export const limit = 10;",
    "",
    "export function clamp(value: number): number {",
    "  const max = 5;",
    "  return Math.min(value, limit, max);",
    "}",
    "",
    'export const broken: number = toCamelCase("a-b");',
    "",
  ].join("\n"),
  "packages/core/src/index.ts": [
    'export { capitalize, clamp, toCamelCase } from "./strings";',
    "",
  ].join("\n"),
  "packages/app/tsconfig.json": json({
    extends: "@acme/tsconfig-missing/base.json",
    compilerOptions: {
      strict: true,
      target: "ES2022",
      module: "ESNext",
      moduleResolution: "Bundler",
      noEmit: true,
      paths: { "@core/*": ["../core/src/*"] },
    },
    references: [{ path: "../core" }],
    include: ["src"],
  }),
  "packages/app/src/main.ts": [
    'import { capitalize, toCamelCase } from "@core/index";',
    "",
    'export const title = capitalize(toCamelCase("hello-world"));',
    "export const count: string = title.length;",
    "",
  ].join("\n"),
  "tests/tsconfig.json": json({
    compilerOptions: {
      strict: true,
      target: "ES2022",
      module: "ESNext",
      moduleResolution: "Bundler",
      noEmit: true,
      types: ["vitest/globals"],
      paths: { "@core/*": ["../packages/core/src/*"] },
    },
    include: ["."],
  }),
  "tests/strings.test.ts": [
    'import { toCamelCase } from "@core/strings";',
    "",
    'describe("toCamelCase", () => {',
    '  const out: string = toCamelCase("a-b");',
    "  return out;",
    "});",
    "",
  ].join("\n"),
};

/** The projects, as answers name them (config paths, root-relative). */
export const PROJECTS = [
  "packages/app/tsconfig.json",
  "packages/core/tsconfig.json",
  "tests/tsconfig.json",
];

export async function makeMonorepo(): Promise<{ root: string; dispose: () => Promise<void> }> {
  const made = await makeTree(MONOREPO);
  return { root: made.root, dispose: made.dispose };
}
