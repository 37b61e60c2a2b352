/**
 * The semantic tools' fixture project, written into a temp folder: `root/` is served, `outside/`
 * sits next to it. It holds what type-aware answers must get right (re-exports, shorthand
 * properties, overloads, declaration merging, JSX, export default, namespace imports, a tsconfig
 * with `paths` and an `extends` inside the root, one config whose `extends` leads outside), a
 * declaration package under an ignored node_modules, a tsconfig plugin that must never load, a
 * CRLF file, a BOM file, a type error, and an outside file with a token that must never appear.
 */
import { makeTree, type Tree } from "../helpers/fixture.ts";

/** A token only the outside files hold. */
export const OUTSIDE_TOKEN = "OUTSIDE_TOKEN_q7w3e9";
/** Written by the plugin's code if it ever ran. */
export const PLUGIN_MARK = "plugin-ran.txt";

export const PROJECT: Tree = {
  ".ignore": "node_modules/\n",
  ".env": "SECRET_TOKEN_z8x1=1\n",
  "tsconfig.base.json": JSON.stringify(
    {
      compilerOptions: {
        target: "ES2022",
        module: "ESNext",
        moduleResolution: "Bundler",
        strict: true,
        jsx: "preserve",
        noEmit: true,
        paths: { "@lib/*": ["./src/lib/*"] },
      },
    },
    null,
    2,
  ) + "\n",
  "tsconfig.json": JSON.stringify(
    {
      extends: "./tsconfig.base.json",
      compilerOptions: { plugins: [{ name: "evil-plugin" }] },
      include: ["src"],
    },
    null,
    2,
  ) + "\n",
  "node_modules/evil-plugin/package.json": '{"name":"evil-plugin","main":"index.js"}\n',
  "node_modules/evil-plugin/index.js":
    `require("fs").writeFileSync(__dirname + "/../../${PLUGIN_MARK}", "ran");\n` +
    `module.exports = () => ({ create: (info) => info.languageService });\n`,
  "node_modules/typed-pkg/package.json": '{"name":"typed-pkg","types":"index.d.ts"}\n',
  "node_modules/typed-pkg/index.d.ts":
    "export declare function pkgHelper(value: string): string;\n",
  "src/lib/shapes.ts": [
    "export interface Shape {",
    "  area(): number;",
    "}",
    "",
    "export interface Shape {",
    "  label: string;",
    "}",
    "",
    "export function scale(value: number): number;",
    "export function scale(value: string): string;",
    "export function scale(value: number | string): number | string {",
    '  return typeof value === "number" ? value * 2 : value + value;',
    "}",
    "",
    "export default class Circle implements Shape {",
    '  label = "circle";',
    "  constructor(public radius: number) {}",
    "  area(): number {",
    "    return Math.PI * this.radius ** 2;",
    "  }",
    "}",
    "",
  ].join("\n"),
  "src/lib/index.ts": [
    'export * from "./shapes";',
    'export { default as Circle } from "./shapes";',
    "",
  ].join("\n"),
  "src/use.ts": [
    'import Circle, { scale, type Shape } from "@lib/shapes";',
    'import * as lib from "./lib/index";',
    'import { pkgHelper } from "typed-pkg";',
    "",
    "const radius = 2;",
    "const options = { radius };",
    "export const circle = new Circle(options.radius);",
    "export const doubled = scale(radius);",
    "export const shape: Shape = new lib.Circle(scale(1));",
    "export const named = pkgHelper(scale(String(radius)));",
    "export const total = [circle, shape].map((s) => s.area()).reduce((a, b) => a + b, 0);",
    'const broken: number = "not a number";',
    "console.log(broken, named, doubled, total);",
    "",
  ].join("\n"),
  "src/view.tsx": [
    "declare global {",
    "  namespace JSX {",
    "    interface IntrinsicElements {",
    "      span: { children?: unknown };",
    "    }",
    "  }",
    "}",
    "",
    'import { scale } from "./lib/shapes";',
    "",
    "export function Badge(props: { label: string }) {",
    "  return <span>{props.label}</span>;",
    "}",
    "",
    "export const view = <Badge label={String(scale(2))} />;",
    "",
  ].join("\n"),
  "src/crlf.ts": [
    'import { scale } from "./lib/shapes";',
    "",
    "export const fromCrlf = scale(10);",
    "export const again = scale(fromCrlf);",
    "",
  ].join("\r\n"),
  "src/bom.ts": "\uFEFF" + [
    'import { scale } from "./lib/shapes";',
    "export const fromBom = scale(5);",
    "",
  ].join("\n"),
  "scripts/tool.ts": [
    'import { scale } from "../src/lib/shapes.ts";',
    "",
    "export const scripted = scale(3);",
    "",
  ].join("\n"),
  "scripts/plain.js": [
    "export function plainHelper(x) {",
    "  return x + 1;",
    "}",
    "export const plainUse = plainHelper(1);",
    "",
  ].join("\n"),
  "other/tsconfig.json": JSON.stringify(
    { extends: "../../outside/tsconfig.outside.json", include: ["*.ts"] },
    null,
    2,
  ) + "\n",
  "other/a.ts": "export const otherValue: number = 1;\nexport const otherUse = otherValue + 1;\n",
};

const OUTSIDE: Tree = {
  "tsconfig.outside.json": JSON.stringify({
    compilerOptions: { strict: false, types: [OUTSIDE_TOKEN] },
    files: ["./secret.ts"],
  }) + "\n",
  "secret.ts": `export const ${OUTSIDE_TOKEN} = 1;\n`,
};

/** The fixture in a fresh temp folder: `root` is the served folder. */
export async function makeProject(): Promise<
  { base: string; root: string; dispose: () => Promise<void> }
> {
  const made = await makeTree(PROJECT);
  await makeTree(OUTSIDE).then(async (outside) => {
    await Deno.rename(outside.root, `${made.base}/outside`);
    await outside.dispose();
  });
  return made;
}
