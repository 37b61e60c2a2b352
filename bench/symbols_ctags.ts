// deno-lint-ignore-file no-console
/**
 * Agreement with universal-ctags (the reference floor, docs/BENCHMARKS.md "Symbols"): the share
 * of ctags' definitions that our symbols have at the same line, with the same name and a kind that
 * means the same, at any depth (nested definitions included), reported by kind; and the outline's
 * top level: the share of ctags' definitions without a scope that our outline shows at its top
 * level. Used by bench/symbols.ts, by tests/symbols/ctags_test.ts on the fixtures, and standalone:
 *
 *   deno run --allow-read --allow-run --allow-env --unstable-worker-options bench/symbols_ctags.ts \
 *     --root ../corpora/denoland+std --lang ts [--every 1] [--dirs a,b] [--misses 20]
 *
 * `--lang` is c, ts or py (the files compared: .c/.h, .ts/.tsx, .py); `--every N` keeps every Nth
 * file of the sorted list; `--dirs` limits the walk to these folders of the root.
 */
import { SymbolService } from "../lib/symbols/service.ts";
import type { CodeSymbol, SymbolKind } from "../lib/symbols/types.ts";
import { Workspace } from "../lib/workspace/workspace.ts";
import { flagValue, numFlag } from "./flags.ts";

export interface Tag {
  path: string;
  name: string;
  line: number;
  /** ctags' kind (its long name: function, struct, member...). */
  kind: string;
  /**
   * True when the tag is inside another definition: ctags names an enclosing scope, or another
   * ctags tag's span (its `end` line) holds it (ctags 5.9 drops the scope of TypeScript functions
   * declared in a method body, and of macros defined inside a struct).
   */
  scoped: boolean;
}

export interface KindCount {
  total: number;
  found: number;
}

export interface Agreement {
  /** ctags definitions compared. */
  total: number;
  /** Of those, the ones we have (same name, same line, a kind that means the same). */
  found: number;
  misses: Tag[];
  /** By ctags kind. */
  byKind: Record<string, KindCount>;
  /** ctags definitions without a scope, and those our outline has at its top level. */
  topLevel: KindCount;
  topMisses: Tag[];
  /** Files we could not parse (binary, too large). */
  unparsed: string[];
}

/**
 * The ctags kinds compared, and which of our kinds mean the same. Variables, fields, enumerators
 * and locals are left out: the tools report variables at the top level only, and ctags' fields
 * follow other rules.
 */
const KIND_MAP: Readonly<Record<string, readonly SymbolKind[]>> = {
  function: ["function", "method"],
  method: ["method", "function"],
  member: ["method", "function"],
  generator: ["function", "method"],
  class: ["class", "struct"],
  struct: ["struct", "class"],
  union: ["union"],
  enum: ["enum"],
  interface: ["interface"],
  typedef: ["type"],
  alias: ["type"],
  namespace: ["namespace", "module"],
  macro: ["macro"],
};

/** The compared kinds, plus variables and constants (their spans hold callbacks). */
const CTAGS_KINDS = [
  "--kinds-C=fsugtdv",
  "--kinds-C++=fsugtdcnv",
  "--kinds-TypeScript=fcigmnGavC",
  "--kinds-Python=cfmv",
];

/**
 * What ctags tags that is not a definition at that line: a line that does not hold the name (ctags
 * 5.9 puts some TypeScript classes on their `implements` line), a name in an `import`/`export {
 * ... }` list (a TypeScript "alias"), and an overload signature without a body (the tools report
 * the implementation).
 */
function notDefinedThere(
  lines: Lines,
  tag: { path: string; name: string; line: number; kind: string },
): boolean {
  const text = lines.line(tag.path, tag.line);
  if (text === undefined) return true;
  const escaped = tag.name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  if (!new RegExp(`(?<![\\w$#])${escaped}(?![\\w$])`).test(text)) return true;
  if (!/\.tsx?$/.test(tag.path)) return false;
  if (tag.kind === "alias") {
    return !new RegExp(`\\btype\\s+${tag.name}\\b\\s*(?:[<=]|$)`).test(text.trim());
  }
  if (tag.kind === "method" || tag.kind === "function") return signatureOnly(lines, tag);
  return false;
}

/** True when the declaration from this line reaches a `;` before a body's `{` (outside parens). */
function signatureOnly(lines: Lines, tag: { path: string; line: number }): boolean {
  let depth = 0;
  for (let l = tag.line; l < tag.line + 60; l++) {
    const text = lines.line(tag.path, l);
    if (text === undefined) return false;
    for (const ch of text.replace(/\/\/.*$/, "")) {
      if (ch === "(" || ch === "[" || ch === "<") depth++;
      else if (ch === ")" || ch === "]" || ch === ">") depth = Math.max(0, depth - 1);
      else if (depth === 0 && ch === "{") return false;
      else if (depth === 0 && ch === ";") return true;
    }
  }
  return false;
}

/** The lines of a file, read once per file. */
class Lines {
  readonly #root: string;
  readonly #files = new Map<string, string[]>();
  constructor(root: string) {
    this.#root = root;
  }
  line(path: string, line: number): string | undefined {
    let lines = this.#files.get(path);
    if (lines === undefined) {
      lines = Deno.readTextFileSync(`${this.#root}/${path}`).split("\n");
      this.#files.set(path, lines);
    }
    return lines[line - 1];
  }
}

/** ctags' tags of `files` (root-relative) of the compared kinds, anonymous ones left out. */
export function ctagsTags(root: string, files: readonly string[]): Tag[] {
  const lines = new Lines(root);
  const tags: Tag[] = [];
  // In slices: a command line has a length limit.
  for (let i = 0; i < files.length; i += 500) {
    const out = new Deno.Command("ctags", {
      args: [
        "--output-format=json",
        "--fields=+nKZe",
        ...CTAGS_KINDS,
        "-f",
        "-",
        ...files.slice(i, i + 500),
      ],
      cwd: root,
      stdout: "piped",
      stderr: "null",
    }).outputSync();
    const spans = new Map<string, Array<[number, number]>>();
    const found: Tag[] = [];
    for (const line of new TextDecoder().decode(out.stdout).split("\n")) {
      if (line === "") continue;
      const tag = JSON.parse(line);
      if (tag._type !== "tag") continue;
      if (typeof tag.end === "number" && tag.end > tag.line) {
        const list = spans.get(tag.path) ?? [];
        list.push([tag.line, tag.end]);
        spans.set(tag.path, list);
      }
      if (KIND_MAP[tag.kind] === undefined) continue;
      if (tag.name.startsWith("__anon") || /^anon(Function|Class|Object)/.test(tag.name)) continue;
      if (notDefinedThere(lines, tag)) continue;
      found.push({
        path: tag.path,
        name: tag.name,
        line: tag.line,
        kind: tag.kind,
        scoped: typeof tag.scope === "string" && !/^__anon|^anon/.test(tag.scope),
      });
    }
    for (const tag of found) {
      if (!tag.scoped) {
        tag.scoped = (spans.get(tag.path) ?? []).some(([from, to]) =>
          from < tag.line && tag.line <= to
        );
      }
      tags.push(tag);
    }
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
  const have = new Map<string, Map<string, SymbolKind[]>>();
  const top = new Map<string, Set<string>>();
  for (const [path, symbols] of ours) {
    const all = new Map<string, SymbolKind[]>();
    const visit = (list: readonly CodeSymbol[]) => {
      for (const s of list) {
        const key = `${s.name}\0${s.line}`;
        all.set(key, [...(all.get(key) ?? []), s.kind]);
        if (s.children !== undefined) visit(s.children);
      }
    };
    visit(symbols);
    have.set(path, all);
    top.set(path, new Set(symbols.map((s) => `${s.name}\0${s.line}`)));
  }
  const misses: Tag[] = [];
  const topMisses: Tag[] = [];
  const byKind: Record<string, KindCount> = {};
  const topLevel: KindCount = { total: 0, found: 0 };
  for (const tag of tags) {
    const key = `${tag.name}\0${tag.line}`;
    const kinds = have.get(tag.path)?.get(key) ?? [];
    const ok = kinds.some((k) => KIND_MAP[tag.kind].includes(k));
    const count = byKind[tag.kind] ??= { total: 0, found: 0 };
    count.total++;
    if (ok) count.found++;
    else misses.push(tag);
    if (!tag.scoped) {
      topLevel.total++;
      if (top.get(tag.path)?.has(key)) topLevel.found++;
      else topMisses.push(tag);
    }
  }
  return {
    total: tags.length,
    found: tags.length - misses.length,
    misses,
    byKind,
    topLevel,
    topMisses,
    unparsed: [],
  };
}

/** ctags and ours on the same files. */
export async function compareWithCtags(root: string, files: readonly string[]): Promise<Agreement> {
  const tags = ctagsTags(root, files);
  const ours = await ourSymbols(root, files);
  return { ...agreement(tags, ours.symbols), unparsed: ours.unparsed };
}

const EXTENSIONS: Record<string, RegExp> = {
  c: /\.[ch]$/,
  ts: /\.tsx?$/,
  py: /\.py$/,
};

/** Files of a language under `dirs` of `root` (sorted), every `every`th kept. */
export function sampleFiles(
  root: string,
  lang: string,
  options: { dirs?: readonly string[]; every?: number } = {},
): string[] {
  const ext = EXTENSIONS[lang];
  if (ext === undefined) throw new RangeError(`Unknown language "${lang}": give c, ts or py`);
  const files: string[] = [];
  const walk = (dir: string) => {
    const entries = [...Deno.readDirSync(dir === "" ? root : `${root}/${dir}`)];
    entries.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
    for (const e of entries) {
      if (e.name.startsWith(".") || e.name === "node_modules") continue;
      const rel = dir === "" ? e.name : `${dir}/${e.name}`;
      if (e.isDirectory) walk(rel);
      else if (e.isFile && ext.test(e.name)) files.push(rel);
    }
  };
  for (const d of options.dirs ?? [""]) walk(d);
  const every = Math.max(1, options.every ?? 1);
  return files.filter((_, i) => i % every === 0);
}

/** Markdown rows of an agreement: overall, by kind, and the top level. */
export function agreementRows(label: string, a: Agreement): string[] {
  const pct = (c: KindCount) => c.total === 0 ? "-" : `${(100 * c.found / c.total).toFixed(1)}%`;
  const rows = [
    `| ${label}: all sampled definitions | ${a.found}/${a.total} | ${pct(a)} | >= 98% | ${
      a.found >= 0.98 * a.total ? "met" : "**missed**"
    } |`,
  ];
  for (const [kind, c] of Object.entries(a.byKind).sort()) {
    rows.push(`| ${label}: ${kind} | ${c.found}/${c.total} | ${pct(c)} | | |`);
  }
  rows.push(
    `| ${label}: outline top level (ctags definitions without a scope) | ${a.topLevel.found}/${a.topLevel.total} | ${
      pct(a.topLevel)
    } | >= 98% | ${a.topLevel.found >= 0.98 * a.topLevel.total ? "met" : "**missed**"} |`,
  );
  return rows;
}

if (import.meta.main) {
  const root = flagValue("--root");
  const lang = flagValue("--lang") ?? "ts";
  if (root === undefined) {
    console.error("Give --root DIR and --lang c|ts|py");
    Deno.exit(2);
  }
  const dirs = flagValue("--dirs")?.split(",");
  const files = sampleFiles(root, lang, { dirs, every: numFlag("--every", 1) });
  const got = await compareWithCtags(root, files);
  console.log(`${root} (${lang}, ${files.length} files)\n`);
  console.log("| sample | found | share | target | |\n|---|---:|---:|---|---|");
  for (const row of agreementRows(lang, got)) console.log(row);
  const shown = numFlag("--misses", 20);
  console.log(`\nmisses (first ${shown} of ${got.misses.length}):`);
  for (const m of got.misses.slice(0, shown)) {
    console.log(`- ${m.path}:${m.line} ${m.kind} ${m.name}`);
  }
  console.log(`top-level misses (first ${shown} of ${got.topMisses.length}):`);
  for (const m of got.topMisses.slice(0, shown)) {
    console.log(`- ${m.path}:${m.line} ${m.kind} ${m.name}`);
  }
  if (got.unparsed.length > 0) console.log(`unparsed: ${got.unparsed.join(", ")}`);
}
