/**
 * The deeper navigation fixture: an interface with a JSDoc of two paragraphs, an abstract class
 * that implements it, overrides two levels down, an object literal that implements it, callbacks,
 * direct and mutual recursion, calls into the lib, and a JavaScript file in the default project
 * (no tsconfig claims scripts/).
 */
import { makeTree, type Tree } from "../helpers/fixture.ts";

export const NAVIGATION: Tree = {
  "tsconfig.json": JSON.stringify({
    compilerOptions: {
      target: "ES2022",
      module: "ESNext",
      moduleResolution: "Bundler",
      allowImportingTsExtensions: true,
      strict: true,
      noEmit: true,
    },
    include: ["src"],
  }) + "\n",
  "src/speaker.ts": [
    "/**",
    " * Something that speaks.",
    " *",
    " * Implementations decide how loud.",
    " */",
    "export interface Speaker {",
    "  /** Says the text. */",
    "  speak(text: string): string;",
    "  volume?: number;",
    "}",
    "",
    "export abstract class Base implements Speaker {",
    "  abstract speak(text: string): string;",
    "  twice(text: string): string {",
    "    return this.speak(text) + this.speak(text);",
    "  }",
    "}",
    "",
    "export class Loud extends Base {",
    "  override speak(text: string): string {",
    "    return text.toUpperCase();",
    "  }",
    "}",
    "",
    "export class Whisper extends Loud {",
    "  override speak(text: string): string {",
    "    return super.speak(text).toLowerCase();",
    "  }",
    "}",
    "",
  ].join("\n"),
  "src/calls.ts": [
    'import { type Base, Loud, type Speaker, Whisper } from "./speaker.ts";',
    "",
    "/** Factorial, by recursion. */",
    "export function fact(n: number): number {",
    "  return n <= 1 ? 1 : n * fact(n - 1);",
    "}",
    "",
    "export function isEven(n: number): boolean {",
    "  return n === 0 ? true : isOdd(n - 1);",
    "}",
    "",
    "export function isOdd(n: number): boolean {",
    "  return n === 0 ? false : isEven(n - 1);",
    "}",
    "",
    "export function each(list: Speaker[], cb: (s: Speaker) => string): string[] {",
    "  return list.map(cb);",
    "}",
    "",
    "export function chorus(text: string): string[] {",
    "  const all: Speaker[] = [new Loud(), new Whisper(), { speak: (t) => t }];",
    "  return each(all, (s) => s.speak(text) + fact(3));",
    "}",
    "",
    "export function shout(b: Base): string {",
    '  return b.twice("hey") + String(isEven(4));',
    "}",
    "",
    'export const sung = chorus("la");',
    "",
  ].join("\n"),
  "scripts/tool.js": [
    "/**",
    " * Doubles a number.",
    " *",
    " * Never negative twice.",
    " * @param {number} x",
    " */",
    "export function double(x) {",
    "  return x * 2;",
    "}",
    "export function quad(x) {",
    "  return double(double(x));",
    "}",
    "export const q = quad(2);",
    "",
  ].join("\n"),
};

/** Files of the default project (no tsconfig claims them). */
export const NAVIGATION_DEFAULT_FILES = ["scripts/tool.js"];

/** A position in the fixture by name (`occurrence` counts that word on the line). */
export interface NamedPosition {
  path: string;
  line: number;
  name: string;
  occurrence?: number;
}

/**
 * Where the tools tests ask through the real process: an interface, an abstract class and its
 * method, a recursion, a mutual recursion, a callback's parameter, a lib call and a JS function.
 */
export const TOOL_POSITIONS: NamedPosition[] = [
  { path: "src/speaker.ts", line: 6, name: "Speaker" },
  { path: "src/speaker.ts", line: 12, name: "Base" },
  { path: "src/speaker.ts", line: 13, name: "speak" },
  { path: "src/speaker.ts", line: 14, name: "twice" },
  { path: "src/calls.ts", line: 4, name: "fact" },
  { path: "src/calls.ts", line: 8, name: "isEven" },
  { path: "src/calls.ts", line: 21, name: "all" },
  { path: "src/calls.ts", line: 22, name: "s" },
  { path: "src/calls.ts", line: 22, name: "speak" },
  { path: "src/calls.ts", line: 25, name: "b" },
  { path: "scripts/tool.js", line: 10, name: "quad" },
];

/** The 1-based column of a named position in the fixture. */
export function columnIn(p: NamedPosition): number {
  const line = (NAVIGATION[p.path] as string).split("\n")[p.line - 1];
  const re = new RegExp(`(?<![\\w$])${p.name}(?![\\w$])`, "g");
  const hit = [...line.matchAll(re)][(p.occurrence ?? 1) - 1];
  if (hit === undefined) throw new Error(`${p.name} is not on ${p.path}:${p.line}`);
  return hit.index! + 1;
}

export function makeNavigationProject() {
  return makeTree(NAVIGATION);
}
