/**
 * The parser worker: reads files through the workspace (the three guards), parses them with
 * tree-sitter (web-tree-sitter and the grammar wasm files in ./grammars/, loaded on first use),
 * and posts their symbols and, when asked, a name's occurrences. The WebAssembly heap only grows,
 * so the main thread replaces this worker after a parsed-bytes threshold.
 */
/// <reference lib="deno.worker" />
import { Language, type Node, Parser, type Tree } from "web-tree-sitter";
import type { Workspace } from "../workspace/workspace.ts";
import { workspaceFor } from "../workspace/worker_workspaces.ts";
import { readFullySync } from "../workspace/workspace.ts";
import { cutLine } from "../read/long_lines.ts";
import { extractSymbols } from "./extract.ts";
import { headerLanguage, languageById, type LanguageId, languageOf } from "./languages.ts";
import { definitionSites, findOccurrences } from "./occurrences.ts";
import {
  IDENTIFIER_TYPES,
  NAME_LIKE_KEYWORDS,
  NAME_LIKE_TYPES,
  OPAQUE_CODE_TYPES,
  RULES,
} from "./rules.ts";
import { functionBodies, withoutBodies } from "../c_source/skip_bodies.ts";
import { mayDefine, mayDefineAnywhere } from "../c_source/definition_sites.ts";
import { blankAttributeMacros } from "./c_heads.ts";
import { definitionRegions, regionText } from "../c_source/definition_regions.ts";
import { repairTypeScript } from "./ts_repairs.ts";
import { blankConditionals } from "./cpp_directives.ts";
import {
  FILTER_FROM_BYTES,
  FILTER_FROM_SYMBOLS,
  type FromParser,
  type ParsedFile,
  type ParseRequest,
  type Reference,
  type ToParser,
} from "./worker_protocol.ts";
import type { CodeSymbol } from "./types.ts";
import { errorCount, errorRegions, firstErrorLine } from "./syntax_errors.ts";

const GRAMMARS = new URL("./grammars/", import.meta.url);
const KINDS = {
  identifiers: IDENTIFIER_TYPES,
  opaque: OPAQUE_CODE_TYPES,
  nameLike: NAME_LIKE_TYPES,
  keywords: NAME_LIKE_KEYWORDS,
};
const utf8 = new TextDecoder("utf-8");

let parser: Parser | null = null;
/**
 * tree-sitter's heap, given to the runtime so that its size can be read (the pool recycles this
 * worker by it) and capped (a tree that needs more fails that file, not the process's budget).
 */
let memory: WebAssembly.Memory | null = null;
/** A parse ran out of heap: the runtime is unusable, every later file fails until replaced. */
let broken = false;
const PAGE = 65536;
const languages = new Map<LanguageId, Language>();
let queue: Promise<void> = Promise.resolve();

function post(message: FromParser): void {
  self.postMessage(message);
}

// Registered before any await: a message sent while the runtime loads must not be lost.
self.onmessage = (event: MessageEvent<ToParser>) => {
  const message = event.data;
  queue = queue.then(() => handle(message)).catch((error) => {
    post({ t: "failed", id: message.id, message: errorText(error) });
  });
};
post({ t: "ready" });

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function parserFor(id: LanguageId, heapCapBytes: number): Promise<Parser> {
  const p = await runtime(heapCapBytes);
  let language = languages.get(id);
  if (language === undefined) {
    language = await Language.load(Deno.readFileSync(new URL(`${id}.wasm`, GRAMMARS)));
    languages.set(id, language);
  }
  p.setLanguage(language);
  return p;
}

/** tree-sitter's runtime, started on first use with its heap capped. */
async function runtime(heapCapBytes: number): Promise<Parser> {
  if (parser === null) {
    // 32 MiB is the runtime's own initial size; 32768 pages (2 GiB) the most its module admits.
    const maximum = Math.max(512, Math.min(32768, Math.floor(heapCapBytes / PAGE)));
    memory = new WebAssembly.Memory({ initial: 512, maximum });
    const options = {
      wasmBinary: Deno.readFileSync(new URL("web-tree-sitter.wasm", GRAMMARS)),
      wasmMemory: memory,
    };
    await Parser.init(options as Parameters<typeof Parser.init>[0]);
    parser = new Parser();
  }
  return parser;
}

async function handle(message: ParseRequest): Promise<void> {
  const ws = workspaceFor(message.ws);
  if (message.warm === true) await runtime(message.heapCapBytes);
  const files: ParsedFile[] = [];
  let bytes = 0;
  let largest = 0;
  for (const path of message.files) {
    const result = await parseFile(ws, path, message);
    if (result.ok) {
      bytes += result.size;
      largest = Math.max(largest, result.size);
    }
    files.push(result);
  }
  post({
    t: "parsed",
    id: message.id,
    files,
    bytes,
    largest,
    heapBytes: memory?.buffer.byteLength ?? 0,
    v8HeapBytes: javaScriptHeap(),
    broken,
  });
}

/** A file's text as the parser reads it, once the checks before any parse have passed. */
interface Source {
  path: string;
  size: number;
  mtimeMs: number;
  /** The file as read. */
  source: string;
  language: ReturnType<typeof languageById>;
  /** A `.h` file whose text is C++. */
  cppHeader: boolean;
}

/** What is parsed of a file: its text (C bodies and macros blanked), and where from. */
interface Prepared {
  text: string;
  bodiesSkipped: boolean;
  /** C attribute macros blanked out (occurrences inside them are scanned as text). */
  spans: Array<[number, number]>;
  /** The items around the name's possible definitions, when only those are parsed. */
  regions: Array<[number, number]> | null;
}

async function parseFile(ws: Workspace, path: string, message: ParseRequest): Promise<ParsedFile> {
  const read = await readSource(ws, path, message.maxBytes);
  if ("ok" in read) return read;
  const prepared = prepare(read, message);
  if (prepared === "pruned") return pruned(read);
  const { size } = read;
  if (broken) return { path, ok: false, reason: "heap", size };
  const p = await parserFor(read.language.id, message.heapCapBytes);
  if (prepared.regions !== null) {
    const found = parseRegions(p, prepared.text, prepared.regions, read.language.id);
    if (found === "heap") return { path, ok: false, reason: "heap", size };
    if (found !== null) return regionsResult(read, found, message);
  }
  const parsed = parseWhole(p, read.language.id, prepared.text);
  if (parsed === "heap") return { path, ok: false, reason: "heap", size };
  if (parsed === null) return { path, ok: false, reason: "unreadable" };
  try {
    return wholeResult(read, { ...prepared, text: parsed.text }, parsed.tree.rootNode, message);
  } finally {
    parsed.tree.delete();
  }
}

/** The file's bytes through the workspace, or why it is not parsed. */
async function readSource(
  ws: Workspace,
  path: string,
  maxBytes: number,
): Promise<Source | ParsedFile> {
  const named = languageOf(path);
  if (named === null) return { path, ok: false, reason: "unreadable" };
  let bytes: Uint8Array;
  let size: number;
  let mtimeMs: number;
  try {
    const opened = await ws.openFile(path);
    try {
      size = opened.size;
      mtimeMs = opened.mtimeMs;
      if (size > maxBytes) return { path, ok: false, reason: "too-large", size };
      bytes = readFullySync(opened.file, new Uint8Array(size));
    } finally {
      opened.file.close();
    }
  } catch {
    return { path, ok: false, reason: "unreadable" };
  }
  if (bytes.indexOf(0) >= 0) return { path, ok: false, reason: "binary", size };
  const source = utf8.decode(bytes);
  const cppHeader = named.id === "c" && path.toLowerCase().endsWith(".h") &&
    headerLanguage(source) === "cpp";
  const language = cppHeader ? languageById("cpp") : named;
  return { path, size, mtimeMs, source, language, cppHeader };
}

/**
 * The text to parse: C and C++ with function bodies cut out for a definitions-only call and
 * attribute macros blanked; "pruned" when the file surely defines nothing of the wanted name.
 */
function prepare(read: Source, message: ParseRequest): Prepared | "pruned" {
  const { source } = read;
  const cFamily = read.language.id === "c" || read.language.id === "cpp";
  const out: Prepared = { text: source, bodiesSkipped: false, spans: [], regions: null };
  if (!cFamily) return out;
  if (message.skipBodies !== true || message.references !== undefined) {
    ({ text: out.text, spans: out.spans } = blankAttributeMacros(source));
    return out;
  }
  const wanted = message.definitionOf;
  // Every hit is surely a use (`p = kmalloc(n)`): nothing of that name is defined here.
  if (wanted !== undefined && !mayDefineAnywhere(source, regexOf(wanted))) return "pruned";
  const bodies = functionBodies(source);
  if (bodies !== null && bodies.length > 0) {
    // Every hit is in a function body or surely a use: nothing of that name is defined here.
    if (wanted !== undefined && !mayDefine(source, bodies, regexOf(wanted))) return "pruned";
    out.text = withoutBodies(source, bodies);
    out.bodiesSkipped = true;
  }
  ({ text: out.text, spans: out.spans } = blankAttributeMacros(out.text));
  if (wanted !== undefined && message.regions === true) {
    out.regions = definitionRegions(out.text, regexOf(wanted));
    // Every possible hit is in a comment or a preprocessor test: nothing defined here.
    if (out.regions !== null && out.regions.length === 0) return "pruned";
  }
  return out;
}

/** The answer for a file that surely defines no symbol of the wanted name (not parsed). */
function pruned(read: Source): ParsedFile {
  return {
    path: read.path,
    ok: true,
    size: read.size,
    mtimeMs: read.mtimeMs,
    symbols: [],
    partial: false,
    bodiesSkipped: true,
    pruned: true,
  };
}

/** A region parse's answer: the symbols of the items around the name's definitions. */
function regionsResult(read: Source, found: CodeSymbol[], message: ParseRequest): ParsedFile {
  return {
    path: read.path,
    ok: true,
    size: read.size,
    mtimeMs: read.mtimeMs,
    symbols: keptSymbols(found, message),
    partial: false,
    bodiesSkipped: true,
    regions: true,
    ...(read.cppHeader ? { language: "cpp" as const } : {}),
  };
}

/**
 * The tree of the whole text; a tree with errors is parsed again from the rewritten text
 * (repairFor) and that tree kept when it has fewer errors. "heap" when the runtime ran out of
 * heap, null when the parser gave no tree.
 */
function parseWhole(
  p: Parser,
  language: LanguageId,
  text: string,
): { tree: Tree; text: string } | "heap" | null {
  let tree: Tree | null;
  try {
    tree = p.parse(text);
  } catch {
    // Out of heap (the runtime aborts): this file cannot be parsed within the cap.
    broken = true;
    return "heap";
  }
  if (tree === null) return null;
  if (!tree.rootNode.hasError) return { tree, text };
  const repaired = repairFor(language, text);
  if (repaired === null) return { tree, text };
  let second: Tree | null;
  try {
    second = p.parse(repaired);
  } catch {
    tree.delete();
    broken = true;
    return "heap";
  }
  if (second !== null && errorCount(second.rootNode) < errorCount(tree.rootNode)) {
    tree.delete();
    return { tree: second, text: repaired };
  }
  second?.delete();
  return { tree, text };
}

/** A whole parse's answer: the symbols (only the wanted ones when many), and the references. */
function wholeResult(
  read: Source,
  prepared: Prepared,
  root: Node,
  message: ParseRequest,
): ParsedFile {
  const { text } = prepared;
  const language = RULES[read.language.id];
  let symbols: CodeSymbol[];
  let filtered = false;
  const keep = message.references === undefined ? message.keep : undefined;
  if (keep !== undefined && (read.size >= FILTER_FROM_BYTES || message.keepAll === true)) {
    // A file of megabytes, or a call over thousands of files: only the wanted names are ever
    // held (not cached either way).
    const wanted = regexOf(keep);
    symbols = extractSymbols(root, language, text, (name) => wanted.test(name));
    filtered = true;
  } else {
    symbols = extractSymbols(root, language, text);
    if (keep !== undefined && countSymbols(symbols) > FILTER_FROM_SYMBOLS) {
      symbols = matching(symbols, regexOf(keep));
      filtered = true;
    }
  }
  const result: ParsedFile = {
    path: read.path,
    ok: true,
    size: read.size,
    mtimeMs: read.mtimeMs,
    symbols,
    partial: root.hasError,
    bodiesSkipped: prepared.bodiesSkipped,
    ...(read.cppHeader ? { language: "cpp" as const } : {}),
  };
  if (root.hasError) result.errorLine = firstErrorLine(root);
  if (message.syntax === true) result.syntax = errorRegions(root);
  if (filtered) result.filtered = true;
  const wanted = message.references;
  if (wanted !== undefined) {
    const defs = definitionSites(symbols, wanted.name);
    const found = findOccurrences(root, read.source, wanted.name, KINDS, prepared.spans);
    const references: Reference[] = found.map((o) => {
      const line = o.row + 1;
      const column = o.column + 1;
      return [line, column, defs.has(`${line}:${column}`)];
    });
    result.references = references;
    if (references.length > 0) {
      result.lines = linesAround(read.source, references, wanted.context);
    }
  }
  return result;
}

/**
 * The symbols of the regions alone (definition_regions.ts): null when their parse has a syntax
 * error (the split into items may be wrong there, so the caller parses the whole text), "heap"
 * when the runtime ran out of heap.
 */
function parseRegions(
  p: Parser,
  text: string,
  regions: ReadonlyArray<readonly [number, number]>,
  language: LanguageId,
): CodeSymbol[] | null | "heap" {
  const kept = regionText(text, regions);
  let tree: ReturnType<Parser["parse"]>;
  try {
    tree = p.parse(kept);
  } catch {
    broken = true;
    return "heap";
  }
  if (tree === null) return null;
  try {
    if (tree.rootNode.hasError) return null;
    return extractSymbols(tree.rootNode, RULES[language], kept);
  } finally {
    tree.delete();
  }
}

/** A region parse's symbols as posted: the matching ones only when there are many. */
function keptSymbols(symbols: CodeSymbol[], message: ParseRequest): CodeSymbol[] {
  if (message.keep === undefined || countSymbols(symbols) <= FILTER_FROM_SYMBOLS) return symbols;
  return matching(symbols, regexOf(message.keep));
}

/**
 * The text rewritten for a second parse of a file whose tree has errors, for the forms the
 * pinned grammar cannot parse (ts_repairs.ts, cpp_directives.ts), or null.
 */
function repairFor(language: LanguageId, text: string): string | null {
  if (language === "typescript") return repairTypeScript(text);
  if (language === "cpp") return blankConditionals(text);
  return null;
}

/** V8's heap of this worker and its external memory (bytes). */
function javaScriptHeap(): number {
  const usage = Deno.memoryUsage();
  return usage.heapTotal + usage.external;
}

function countSymbols(symbols: readonly CodeSymbol[]): number {
  let n = symbols.length;
  for (const s of symbols) if (s.children !== undefined) n += countSymbols(s.children);
  return n;
}

/** The symbols at any depth whose name `keep` matches, in tree order, without children. */
function matching(symbols: readonly CodeSymbol[], keep: RegExp): CodeSymbol[] {
  const out: CodeSymbol[] = [];
  const visit = (list: readonly CodeSymbol[]) => {
    for (const s of list) {
      if (keep.test(s.name)) {
        const { children: _, ...flat } = s;
        out.push(flat);
      }
      if (s.children !== undefined) visit(s.children);
    }
  };
  visit(symbols);
  return out;
}

/** The candidate scan's regex (per line), compiled once per pattern. */
function regexOf(pattern: { source: string; flags: string }): RegExp {
  const key = `${pattern.flags}/${pattern.source}`;
  let regex = compiled.get(key);
  if (regex === undefined) {
    if (compiled.size > 32) compiled.clear();
    regex = new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, ""));
    compiled.set(key, regex);
  }
  return regex;
}

const compiled = new Map<string, RegExp>();

/** The text of each reference line and of `context` lines around it (cut like grep's). */
function linesAround(text: string, refs: Reference[], context: number): Record<number, string> {
  const wanted = new Set<number>();
  for (const [line] of refs) {
    for (let l = line - context; l <= line + context; l++) if (l >= 1) wanted.add(l);
  }
  const out: Record<number, string> = {};
  let line = 1;
  let start = 0;
  const last = Math.max(...wanted);
  while (start <= text.length && line <= last) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    if (wanted.has(line)) {
      const raw = text.slice(start, end);
      out[line] = cutLine(raw.endsWith("\r") ? raw.slice(0, -1) : raw);
    }
    if (end === text.length) break;
    start = end + 1;
    line++;
  }
  return out;
}
