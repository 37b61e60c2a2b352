/**
 * Agreement with universal-ctags (the reference floor, docs/BENCHMARKS.md "Symbols"): the share
 * of ctags' function/struct/class definitions that our symbols have at the same line, with the
 * same name. Used by bench/symbols.ts on the kernel and a TypeScript project, and by
 * tests/symbols/ctags_test.ts on the fixtures.
 */
import { SymbolService } from "../lib/symbols/service.ts";
import type { CodeSymbol } from "../lib/symbols/types.ts";
import { Workspace } from "../lib/workspace/workspace.ts";

export interface Tag {
  path: string;
  name: string;
  line: number;
  kind: string;
}

export interface Agreement {
  /** ctags definitions compared. */
  total: number;
  /** Of those, the ones we have (same name, same line). */
  found: number;
  misses: Tag[];
  /** Files we could not parse (binary, too large). */
  unparsed: string[];
}

/** The kinds compared: definitions of functions, structs and classes. */
const KINDS = new Set(["function", "struct", "class"]);

/** ctags' function/struct/class tags of `files` (root-relative), anonymous ones left out. */
export function ctagsTags(root: string, files: readonly string[]): Tag[] {
  const out = new Deno.Command("ctags", {
    args: [
      "--output-format=json",
      "--fields=+nK",
      "--kinds-C=fs",
      "--kinds-C++=fsc",
      "--kinds-TypeScript=fc",
      "-f",
      "-",
      ...files,
    ],
    cwd: root,
    stdout: "piped",
    stderr: "null",
  }).outputSync();
  const tags: Tag[] = [];
  for (const line of new TextDecoder().decode(out.stdout).split("\n")) {
    if (line === "") continue;
    const tag = JSON.parse(line);
    if (tag._type !== "tag" || !KINDS.has(tag.kind) || tag.name.startsWith("__anon")) continue;
    tags.push({ path: tag.path, name: tag.name, line: tag.line, kind: tag.kind });
  }
  return tags;
}

/** Our symbols of `files`, parsed in-process by the symbol service the tools use. */
export async function ourSymbols(
  root: string,
  files: readonly string[],
): Promise<{ symbols: Map<string, CodeSymbol[]>; unparsed: string[] }> {
  const ws = Workspace.openSync({ root, noIgnore: true, allowSecrets: true });
  const service = new SymbolService();
  try {
    const outcomes = await service.symbols(ws, files, {
      signal: new AbortController().signal,
      maxBytes: 10 * 1024 * 1024,
    });
    const symbols = new Map<string, CodeSymbol[]>();
    const unparsed: string[] = [];
    for (const [path, outcome] of outcomes) {
      if (outcome.ok) symbols.set(path, outcome.symbols);
      else unparsed.push(path);
    }
    return { symbols, unparsed };
  } finally {
    service.stop();
  }
}

export function agreement(tags: readonly Tag[], ours: Map<string, CodeSymbol[]>): Agreement {
  const have = new Map<string, Set<string>>();
  for (const [path, symbols] of ours) {
    const set = new Set<string>();
    const visit = (list: readonly CodeSymbol[]) => {
      for (const s of list) {
        set.add(`${s.name}\0${s.line}`);
        if (s.children !== undefined) visit(s.children);
      }
    };
    visit(symbols);
    have.set(path, set);
  }
  const misses: Tag[] = [];
  for (const tag of tags) {
    if (!have.get(tag.path)?.has(`${tag.name}\0${tag.line}`)) misses.push(tag);
  }
  return { total: tags.length, found: tags.length - misses.length, misses, unparsed: [] };
}

/** ctags and ours on the same files. */
export async function compareWithCtags(root: string, files: readonly string[]): Promise<Agreement> {
  const tags = ctagsTags(root, files);
  const ours = await ourSymbols(root, files);
  return { ...agreement(tags, ours.symbols), unparsed: ours.unparsed };
}
