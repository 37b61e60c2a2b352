/**
 * The specifiers a Deno project maps to its own files, as TypeScript `paths` for the default
 * project: the root `deno.json`/`deno.jsonc` `imports` whose targets are relative paths
 * (`"@/": "./src/"`, `"config": "./config.ts"`), and the exports of the root's `workspace` members
 * (`@std/assert` and `@std/assert/equals` in a folder whose `deno.json` says
 * `"name": "@std/assert"`). Without them a Deno workspace's references through `@std/assert`
 * would be unresolved modules. `npm:`, `jsr:` and URL targets stay unresolved, as before; targets
 * that lead outside the root are left out. Nothing is run: the files are JSON with comments, read
 * through the workspace like every other file TypeScript sees.
 */
import type ts from "typescript";
import type { TypeFiles } from "./type_files.ts";

type TS = typeof ts;

const CONFIG_NAMES = ["deno.json", "deno.jsonc"];
/** Bounds on what a hostile config can make us do. */
const MAX_MEMBERS = 1_000;
const MAX_PATHS = 20_000;
const MAX_KEY = 512;

export interface DenoPaths {
  /** TypeScript `paths`: specifier (or `prefix*`) to one absolute file (or `folder/*`). */
  paths: Record<string, string[]>;
  /** The config files read (absolute): a change to one rebuilds the projects. */
  configFiles: string[];
}

export class DenoConfigReader {
  readonly #ts: TS;
  readonly #files: TypeFiles;
  readonly #paths: Record<string, string[]> = {};
  readonly #configFiles: string[] = [];
  #count = 0;

  constructor(tsModule: TS, files: TypeFiles) {
    this.#ts = tsModule;
    this.#files = files;
  }

  /** The root config's mappings, or null when the root has no Deno config. */
  read(): DenoPaths | null {
    const root = this.#readConfig("");
    if (root === null) return null;
    for (const member of this.#members(root.json.workspace)) this.#addMember(member);
    // An explicit import map entry wins over a member of the same name.
    this.#addImports(root.json.imports, root.dir);
    return { paths: this.#paths, configFiles: this.#configFiles };
  }

  /** The parsed `deno.json` (or `deno.jsonc`) of a root-relative folder, or null. */
  #readConfig(dir: string): { json: Record<string, unknown>; dir: string } | null {
    for (const name of CONFIG_NAMES) {
      const path = this.#files.absOf(dir === "" ? name : `${dir}/${name}`);
      if (!this.#files.fileExists(path)) continue;
      this.#configFiles.push(path);
      const text = this.#files.readFile(path);
      if (text === undefined) return null;
      const parsed = this.#ts.parseConfigFileTextToJson(path, text);
      const json = parsed.config;
      if (parsed.error !== undefined || json === null || typeof json !== "object") return null;
      return { json: json as Record<string, unknown>, dir };
    }
    return null;
  }

  /** Root-relative member folders: `./a`, `a/b`, and `./packages/*` (one level of folders). */
  #members(workspace: unknown): string[] {
    const list = Array.isArray(workspace)
      ? workspace
      : isObject(workspace) && Array.isArray(workspace.members)
      ? workspace.members
      : [];
    const out: string[] = [];
    for (const entry of list.slice(0, MAX_MEMBERS)) {
      if (typeof entry !== "string") continue;
      const star = entry.endsWith("/*");
      const dir = this.#inside("", star ? entry.slice(0, -2) : entry);
      if (dir === null) continue;
      if (!star) {
        out.push(dir);
        continue;
      }
      for (const name of this.#files.getDirectories(this.#files.absOf(dir))) {
        if (out.length >= MAX_MEMBERS) break;
        out.push(dir === "" ? name : `${dir}/${name}`);
      }
    }
    return out;
  }

  #addMember(dir: string): void {
    const member = this.#readConfig(dir);
    if (member === null) return;
    const name = member.json.name;
    if (typeof name !== "string" || !/^@[\w.-]+\/[\w.-]+$/.test(name)) return;
    const exports = member.json.exports;
    const entries: Array<[string, unknown]> = typeof exports === "string"
      ? [[".", exports]]
      : isObject(exports)
      ? Object.entries(exports)
      : [];
    for (const [sub, target] of entries) {
      if (typeof target !== "string") continue;
      if (sub !== "." && !sub.startsWith("./")) continue;
      const file = this.#inside(dir, target);
      if (file === null) continue;
      this.#add(sub === "." ? name : `${name}/${sub.slice(2)}`, this.#files.absOf(file));
    }
  }

  #addImports(imports: unknown, dir: string): void {
    if (!isObject(imports)) return;
    for (const [key, target] of Object.entries(imports)) {
      if (typeof target !== "string" || key.includes("*")) continue;
      if (!/^\.{0,2}\//.test(target)) continue; // npm:, jsr:, URLs, bare names: not ours
      const prefix = key.endsWith("/");
      if (prefix !== target.endsWith("/")) continue;
      const file = this.#inside(dir, target);
      if (file === null) continue;
      const abs = this.#files.absOf(file);
      if (prefix) this.#add(`${key}*`, `${abs}/*`);
      else this.#add(key, abs);
    }
  }

  #add(key: string, target: string): void {
    if (key.length > MAX_KEY) return;
    if (!(key in this.#paths)) {
      if (this.#count >= MAX_PATHS) return;
      this.#count++;
    }
    this.#paths[key] = [target];
  }

  /** `target` taken from the root-relative folder `dir`, root-relative, or null when outside. */
  #inside(dir: string, target: string): string | null {
    const parts = dir === "" ? [] : dir.split("/");
    const rooted = target.startsWith("/");
    if (rooted) return null; // an absolute path in a config names another machine's folders
    for (const part of target.split("/")) {
      if (part === "" || part === ".") continue;
      if (part === "..") {
        if (parts.length === 0) return null;
        parts.pop();
      } else parts.push(part);
    }
    return parts.join("/");
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
