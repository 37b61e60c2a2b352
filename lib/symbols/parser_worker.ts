/**
 * The parser worker: reads files through the workspace (the three guards), parses them with
 * tree-sitter (web-tree-sitter and the grammar wasm files in ./grammars/, loaded on first use),
 * and posts their symbols and, when asked, a name's occurrences. The WebAssembly heap only grows,
 * so the main thread replaces this worker after a parsed-bytes threshold.
 */
/// <reference lib="deno.worker" />
import { Language, Parser } from "web-tree-sitter";
import { Workspace, type WorkspaceOptions } from "../workspace/workspace.ts";
import { readFullySync } from "../workspace/workspace.ts";
import { cutLine } from "../read/long_lines.ts";
import { extractSymbols } from "./extract.ts";
import { type LanguageId, languageOf } from "./languages.ts";
import { definitionSites, findOccurrences } from "./occurrences.ts";
import { IDENTIFIER_TYPES, OPAQUE_CODE_TYPES, RULES } from "./rules.ts";
import { skipFunctionBodies } from "./skip_bodies.ts";
import { blankAttributeMacros } from "./c_heads.ts";
import type {
  FromParser,
  ParsedFile,
  ParseRequest,
  Reference,
  ToParser,
} from "./worker_protocol.ts";

const GRAMMARS = new URL("./grammars/", import.meta.url);
const KINDS = { identifiers: IDENTIFIER_TYPES, opaque: OPAQUE_CODE_TYPES };
const utf8 = new TextDecoder("utf-8");

let parser: Parser | null = null;
const languages = new Map<LanguageId, Language>();
const workspaces = new Map<string, Workspace>();
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

async function parserFor(id: LanguageId): Promise<Parser> {
  if (parser === null) {
    await Parser.init({ wasmBinary: Deno.readFileSync(new URL("web-tree-sitter.wasm", GRAMMARS)) });
    parser = new Parser();
  }
  let language = languages.get(id);
  if (language === undefined) {
    language = await Language.load(Deno.readFileSync(new URL(`${id}.wasm`, GRAMMARS)));
    languages.set(id, language);
  }
  parser.setLanguage(language);
  return parser;
}

function workspaceFor(options: WorkspaceOptions): Workspace {
  const key = JSON.stringify(options);
  let ws = workspaces.get(key);
  if (ws === undefined) {
    ws = Workspace.openSync(options);
    if (workspaces.size > 8) workspaces.clear();
    workspaces.set(key, ws);
  }
  return ws;
}

async function handle(message: ParseRequest): Promise<void> {
  const ws = workspaceFor(message.ws);
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
  post({ t: "parsed", id: message.id, files, bytes, largest });
}

async function parseFile(ws: Workspace, path: string, message: ParseRequest): Promise<ParsedFile> {
  const language = languageOf(path);
  if (language === null) return { path, ok: false, reason: "unreadable" };
  let bytes: Uint8Array;
  let size: number;
  let mtimeMs: number;
  try {
    const opened = await ws.openFile(path);
    try {
      size = opened.size;
      mtimeMs = opened.mtimeMs;
      if (size > message.maxBytes) return { path, ok: false, reason: "too-large", size };
      bytes = readFullySync(opened.file, new Uint8Array(size));
    } finally {
      opened.file.close();
    }
  } catch {
    return { path, ok: false, reason: "unreadable" };
  }
  if (bytes.indexOf(0) >= 0) return { path, ok: false, reason: "binary", size };
  const source = utf8.decode(bytes);
  const cFamily = language.id === "c" || language.id === "cpp";
  const blanked = cFamily ? blankAttributeMacros(source) : { text: source, spans: [] };
  const full = blanked.text;
  const text = message.skipBodies === true && message.references === undefined && cFamily
    ? skipFunctionBodies(full)
    : full;
  const bodiesSkipped = text !== full;
  const p = await parserFor(language.id);
  const tree = p.parse(text);
  if (tree === null) return { path, ok: false, reason: "unreadable" };
  try {
    const root = tree.rootNode;
    const symbols = extractSymbols(root, RULES[language.id], text);
    const result: ParsedFile = {
      path,
      ok: true,
      size,
      mtimeMs,
      symbols,
      partial: root.hasError,
      bodiesSkipped,
    };
    const wanted = message.references;
    if (wanted !== undefined) {
      const defs = definitionSites(symbols, wanted.name);
      const found = findOccurrences(root, source, wanted.name, KINDS, blanked.spans);
      const references: Reference[] = found.map((o) => {
        const line = o.row + 1;
        const column = o.column + 1;
        return [line, column, defs.has(`${line}:${column}`)];
      });
      result.references = references;
      if (references.length > 0) result.lines = linesAround(source, references, wanted.context);
    }
    return result;
  } finally {
    tree.delete();
  }
}

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
