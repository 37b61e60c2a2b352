/**
 * The Python engine's answers: the language-neutral questions of engine.ts asked of pyright's
 * language server (LSP positions are 0-based lines and UTF-16 columns; ours 1-based) and its
 * results put in the TypeScript tools' shapes. Files are read through the workspace for types;
 * a library file outside the root is named by its path inside pyright's bundled typeshed
 * (`stdlib/builtins.pyi`) with its one definition line.
 */
import { cutLine } from "../../read/long_lines.ts";
import { comparePaths, relativeUnder } from "../../workspace/names.ts";
import type { Workspace } from "../../workspace/workspace.ts";
import {
  type Definition,
  type Diagnostic,
  type FilePosition,
  type Overlay,
  type Reference,
  SemanticRefusal,
  type SpanEdit,
  type TypeInfo,
} from "../engine.ts";
import { lineStarts, lineText, locate } from "../positions.ts";
import { LspError } from "./lsp_client.ts";
import { fileUri, type PyrightServer, uriPath } from "./pyright_server.ts";
import { isPythonIdentifier } from "./python_names.ts";
import { isPythonPath } from "./scope.ts";
import type { LspLocation, LspLocationLink, LspPosition, LspRange } from "./lsp_types.ts";

interface LspDiagnostic {
  range: LspRange;
  severity?: number;
  code?: string | number;
  message: string;
}
interface TextEdit {
  range: LspRange;
  newText: string;
}
interface WorkspaceEdit {
  changes?: Record<string, TextEdit[]>;
  documentChanges?: Array<{ textDocument?: { uri: string }; edits?: TextEdit[] }>;
}

/**
 * A file's text (without a byte order mark) and line starts, read once per question. pyright
 * counts a BOM as the first character of line 1; our columns, as read_file's, do not (`bom`).
 */
interface Lines {
  text: string;
  starts: number[];
  bom: boolean;
}

/** An LSP position of pyright's in our text: 0-based line, 0-based column without the BOM. */
function fromLsp(lines: Lines, at: LspPosition): LspPosition {
  return lines.bom && at.line === 0 && at.character > 0
    ? { line: 0, character: at.character - 1 }
    : at;
}

const utf8 = new TextDecoder("utf-8");

/** LSP severities (1 error ... 4 hint) as the CLI's categories; hints are not diagnostics. */
const CATEGORY: Record<number, Diagnostic["category"]> = {
  1: "error",
  2: "warning",
  3: "information",
};

export interface DiagnosticsHooks {
  /** The caller's time limit (diagnostics' timeout_s), if any: none by default. */
  timeoutMs?: number;
  checked(path: string, list: Diagnostic[]): void;
}

export class PythonQueries {
  readonly #server: PyrightServer;
  readonly #ws: Workspace;
  /** pyright's bundled typeshed folder (absolute, with a trailing slash). */
  readonly #typeshed: string;
  readonly #maxBytes: number;
  #lines = new Map<string, Lines | null>();
  /** Per question: root-relative files served as such (not only readable for types). */
  #served = new Map<string, boolean>();
  /** The overlay of the current question (absolute path -> text), open in pyright. */
  #overlay = new Map<string, Lines>();
  /** Document versions sent to pyright: every open of a text has a newer one. */
  #version = 0;

  constructor(server: PyrightServer, ws: Workspace, typeshed: string, maxBytes: number) {
    this.#server = server;
    this.#ws = ws;
    this.#typeshed = typeshed.endsWith("/") ? typeshed : `${typeshed}/`;
    this.#maxBytes = maxBytes;
  }

  /** A new question: files are read again. */
  newQuestion(): void {
    this.#lines.clear();
    this.#served.clear();
  }

  /**
   * Runs `work` with `overlay` (root-relative path -> text) standing in for those files: each is
   * opened in pyright with its text (didOpen, a new version), and closed afterwards whatever
   * happens (didClose: pyright reads the disk again), so no later question sees it. Nothing is
   * written. Paths that are not Python files of this workspace are left out.
   */
  async withOverlay<T>(overlay: Overlay | undefined, work: () => Promise<T>): Promise<T> {
    const opened: string[] = [];
    const client = this.#server.client;
    try {
      for (const [rel, text] of Object.entries(overlay ?? {})) {
        if (typeof text !== "string" || !isPythonPath(rel)) continue;
        const entry = this.#ws.lookupForTypes(rel);
        if (entry === null || !entry.isFile) continue;
        const abs = joinAbs(this.#ws.root, rel);
        const plain = text.startsWith("\ufeff") ? text.slice(1) : text;
        const lines = { text: plain, starts: lineStarts(plain), bom: plain !== text };
        this.#overlay.set(abs, lines);
        this.#lines.delete(abs);
        this.#lines.delete(entry.abs);
        const uri = fileUri(abs);
        client.notify("textDocument/didOpen", {
          textDocument: { uri, languageId: "python", version: ++this.#version, text: plain },
        });
        opened.push(uri);
      }
      return await work();
    } finally {
      for (const uri of opened) client.notify("textDocument/didClose", { textDocument: { uri } });
      this.#overlay.clear();
      this.#lines.clear();
    }
  }

  /** The text of an absolute path inside the root or the typeshed folder, else null. */
  #read(abs: string): Lines | null {
    const over = this.#overlay.get(abs);
    if (over !== undefined) return over;
    const known = this.#lines.get(abs);
    if (known !== undefined) return known;
    let found: Lines | null = null;
    try {
      const rel = relativeUnder(abs, this.#ws.root);
      let bytes: Uint8Array | null = null;
      if (rel !== null) bytes = this.#ws.readFileSync(rel, { forTypes: true });
      else if (abs.startsWith(this.#typeshed)) bytes = Deno.readFileSync(abs);
      if (bytes !== null) {
        const text = utf8.decode(bytes);
        const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
        found = { text, starts: lineStarts(text), bom };
      }
    } catch {
      found = null;
    }
    this.#lines.set(abs, found);
    return found;
  }

  /**
   * True when the server serves `rel` as such: its text may be shown and it may be written.
   * Ignored files (a build copy, a .venv) are read for types only.
   */
  #isServed(rel: string): boolean {
    let served = this.#served.get(rel);
    if (served === undefined) {
      try {
        this.#ws.resolve(rel);
        served = true;
      } catch {
        served = false;
      }
      this.#served.set(rel, served);
    }
    return served;
  }

  /** The LSP position of a question's position (refused with the sentence that says why). */
  #position(at: FilePosition): { uri: string; position: LspPosition } {
    const entry = this.#ws.lookupForTypes(at.path);
    if (entry === null || !entry.isFile) {
      throw new SemanticRefusal(`"${at.path}" is not a file of this workspace`);
    }
    if (entry.size > this.#maxBytes) {
      throw new SemanticRefusal(
        `"${at.path}" is over the size limit of the type engine (${this.#maxBytes} bytes)`,
      );
    }
    const lines = this.#read(entry.abs);
    if (lines === null) throw new SemanticRefusal(`"${at.path}" could not be read`);
    const located = locate(lines.text, lines.starts, at.path, at);
    if (!located.ok) throw new SemanticRefusal(located.message);
    const bom = lines.bom && located.line === 1 ? 1 : 0;
    return {
      uri: fileUri(joinAbs(this.#ws.root, at.path)),
      position: { line: located.line - 1, character: located.column - 1 + bom },
    };
  }

  async definitions(at: FilePosition, signal: AbortSignal): Promise<Definition[]> {
    const where = this.#position(at);
    const found = await this.#locations("textDocument/definition", where, signal);
    const out: Definition[] = [];
    const seen = new Set<string>();
    for (const location of found) {
      const key =
        `${location.uri}\0${location.range.start.line}\0${location.range.start.character}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const entry = this.#definition(location);
      if (entry !== null) out.push(entry);
    }
    return out;
  }

  /** Where the type of the value at `at` is declared (pyright's type definition). */
  async typeDefinitions(at: FilePosition, signal: AbortSignal): Promise<Definition[]> {
    const where = this.#position(at);
    const found = await this.#locations("textDocument/typeDefinition", where, signal);
    const out: Definition[] = [];
    const seen = new Set<string>();
    for (const location of found) {
      if (seen.has(placeKey(location))) continue;
      seen.add(placeKey(location));
      const entry = this.#definition(location);
      if (entry !== null) out.push(entry);
    }
    return out;
  }

  /**
   * The type at `at`: pyright's hover, whose code block is its whole display text
   * (`(function) def make_shape(side: float, *, label: str = "") -> Shape`), the word in
   * parentheses its kind, and the first paragraph after the rule its documentation.
   */
  async typeAt(at: FilePosition, signal: AbortSignal): Promise<TypeInfo | null> {
    const where = this.#position(at);
    const hover = await this.#server.client.request<{ contents?: unknown } | null>(
      "textDocument/hover",
      { textDocument: { uri: where.uri }, position: where.position },
      signal,
    );
    const contents = hover?.contents;
    const value = typeof contents === "string"
      ? contents
      : (contents as { value?: unknown } | undefined)?.value;
    if (typeof value !== "string" || value.trim() === "") return null;
    const block = /```\w*\n([\s\S]*?)\n```/.exec(value);
    const type = (block === null ? value.split("\n---")[0] : block[1]).trim();
    const rule = value.indexOf("\n---");
    const docs = rule < 0 ? "" : value.slice(rule + 4).trim();
    const root = `${this.#ws.root}/`;
    return {
      kind: /^\(([\w ]+)\)/.exec(type)?.[1] ?? "",
      type: type.split(root).join(""),
      documentation: docs.split(/\r?\n[ \t]*\r?\n/, 1)[0].trim().split(root).join(""),
    };
  }

  async references(at: FilePosition, signal: AbortSignal): Promise<Reference[]> {
    const where = this.#position(at);
    const found = await this.#server.client.request<LspLocation[] | null>(
      "textDocument/references",
      {
        textDocument: { uri: where.uri },
        position: where.position,
        context: { includeDeclaration: true },
      },
      signal,
    ) ?? [];
    const declared = new Set(
      (await this.#locations("textDocument/definition", where, signal)).map(placeKey),
    );
    const out: Reference[] = [];
    for (const location of found) {
      const abs = uriPath(location.uri);
      const rel = abs === null ? null : relativeUnder(abs, this.#ws.root);
      if (abs === null || rel === null || !this.#isServed(rel)) continue;
      const lines = this.#read(abs);
      if (lines === null) continue;
      const { line, character } = fromLsp(lines, location.range.start);
      out.push({
        path: rel,
        line: line + 1,
        column: character + 1,
        text: cutLine(lineText(lines.text, lines.starts, line + 1)),
        definition: declared.has(placeKey(location)),
      });
    }
    return out.sort(byPlace);
  }

  async rename(at: FilePosition, newName: string, signal: AbortSignal): Promise<SpanEdit[]> {
    if (!isPythonIdentifier(newName)) {
      throw new SemanticRefusal(
        `"${newName}" is not a valid Python identifier (or is a keyword); give another new_name`,
      );
    }
    const where = this.#position(at);
    let edit: WorkspaceEdit | null;
    try {
      edit = await this.#server.client.request<WorkspaceEdit | null>("textDocument/rename", {
        textDocument: { uri: where.uri },
        position: where.position,
        newName,
      }, signal);
    } catch (error) {
      if (error instanceof LspError && error.code !== -32800) {
        throw new SemanticRefusal(`pyright cannot rename this symbol: ${error.message}`);
      }
      throw error;
    }
    const files = editsByUri(edit);
    if (files.length === 0) {
      throw new SemanticRefusal(
        `pyright cannot rename the symbol at ${at.path}:${at.line}: it is not a name declared ` +
          `in this workspace (a keyword, a literal, or a library symbol)`,
      );
    }
    const spans: SpanEdit[] = [];
    for (const [uri, edits] of files) {
      const abs = uriPath(uri);
      const rel = abs === null ? null : relativeUnder(abs, this.#ws.root);
      if (abs === null || rel === null) {
        throw new SemanticRefusal(
          `The symbol at ${at.path}:${at.line} is defined outside the workspace; it cannot be ` +
            `renamed`,
        );
      }
      if (!this.#isServed(rel)) {
        throw new SemanticRefusal(
          `Cannot rename at ${at.path}:${at.line}: it would change "${rel}", which this session ` +
            `may not write (ignored, secret or not served); nothing was changed`,
        );
      }
      const lines = this.#read(abs);
      if (lines === null) throw new SemanticRefusal(`"${rel}" could not be read for the rename`);
      for (const e of edits) spans.push(span(rel, lines, e));
    }
    return spans.sort(byPlace);
  }

  /**
   * The diagnostics of `files` (scope.ts), in order: every file, however long it takes (with
   * progress), unless the caller set a time limit; then the check stops between files once it
   * has passed (a partial answer that says so).
   */
  async diagnostics(
    files: readonly string[],
    hooks: DiagnosticsHooks,
    signal: AbortSignal,
  ): Promise<{ list: Diagnostic[]; files: number; total: number; stopped?: string }> {
    const started = performance.now();
    const list: Diagnostic[] = [];
    let done = 0;
    for (const rel of files) {
      if (hooks.timeoutMs !== undefined && performance.now() - started > hooks.timeoutMs) {
        const stopped = `Stopped at the time limit (${Math.round(hooks.timeoutMs / 1000)} s) ` +
          `with ${done} of ${files.length} files checked; call again without timeout_s for the ` +
          `complete answer`;
        return { list, files: done, total: files.length, stopped };
      }
      const found = await this.#fileDiagnostics(rel, signal);
      list.push(...found);
      hooks.checked(rel, found);
      done++;
    }
    return { list, files: done, total: files.length };
  }

  /**
   * One file's diagnostics (LSP pull). pyright checks only the files it has open (its default
   * "openFilesOnly" mode, which keeps the first answer fast), so the file is opened, asked and
   * closed: checked under the configuration's rules, as pyright's CLI checks a file it is given.
   */
  async #fileDiagnostics(rel: string, signal: AbortSignal): Promise<Diagnostic[]> {
    const abs = joinAbs(this.#ws.root, rel);
    // An overlay file is open already, with its overlay text.
    const open = !this.#overlay.has(abs);
    const uri = fileUri(abs);
    const lines = this.#read(this.#ws.lookupForTypes(rel)?.abs ?? abs);
    if (lines === null) return [];
    const client = this.#server.client;
    if (open) {
      client.notify("textDocument/didOpen", {
        textDocument: { uri, languageId: "python", version: ++this.#version, text: lines.text },
      });
    }
    try {
      const report = await client.request<{ items?: LspDiagnostic[] } | null>(
        "textDocument/diagnostic",
        { textDocument: { uri } },
        signal,
      );
      const out: Diagnostic[] = [];
      for (const d of report?.items ?? []) {
        const category = CATEGORY[d.severity ?? 1];
        if (category === undefined) continue;
        const start = fromLsp(lines, d.range.start);
        out.push({
          path: rel,
          line: start.line + 1,
          column: start.character + 1,
          code: typeof d.code === "string" && d.code !== "" ? d.code : "syntax",
          category,
          message: d.message,
          source: "pyright",
        });
      }
      return out;
    } finally {
      if (open) client.notify("textDocument/didClose", { textDocument: { uri } });
    }
  }

  async #locations(
    method: string,
    where: { uri: string; position: LspPosition },
    signal: AbortSignal,
  ): Promise<LspLocation[]> {
    const found = await this.#server.client.request<
      LspLocation | Array<LspLocation | LspLocationLink> | null
    >(method, { textDocument: { uri: where.uri }, position: where.position }, signal);
    if (found === null || found === undefined) return [];
    const list = Array.isArray(found) ? found : [found];
    return list.map((l) =>
      "targetUri" in l ? { uri: l.targetUri, range: l.targetSelectionRange } : l
    );
  }

  /** A definition entry for an LSP location (null when it is neither in the root nor typeshed). */
  #definition(location: LspLocation): Definition | null {
    const abs = uriPath(location.uri);
    if (abs === null) return null;
    const rel = relativeUnder(abs, this.#ws.root);
    const external = rel === null && abs.startsWith(this.#typeshed)
      ? abs.slice(this.#typeshed.length)
      : null;
    if (rel === null && external === null) return null;
    const lines = this.#read(abs);
    if (lines === null) return null;
    const start = fromLsp(lines, location.range.start);
    const end = fromLsp(lines, location.range.end);
    const line = start.line + 1;
    const here = lineText(lines.text, lines.starts, line);
    const isModule = start.line === 0 && start.character === 0 && end.line === 0 &&
      end.character === 0;
    const name = isModule
      ? moduleName(abs)
      : start.line === end.line
      ? here.slice(start.character, end.character)
      : here.slice(start.character);
    const kind = isModule ? "module" : kindOf(lines, line);
    const entry: Definition = {
      path: rel,
      line,
      column: start.character + 1,
      end_line: kind === "module" ? line : blockEnd(lines, line),
      kind,
      name,
      text: cutLine(here),
    };
    if (external !== null) entry.external = external;
    return entry;
  }

  /** For the navigation questions (navigation.ts): the LSP position of a question's position. */
  positionOf(at: FilePosition): { uri: string; position: LspPosition } {
    return this.#position(at);
  }

  /** A definition entry for an LSP location (null when neither in the root nor typeshed). */
  definitionAt(location: LspLocation): Definition | null {
    return this.#definition(location);
  }

  /**
   * A file's text (root or typeshed) and the offset in it of one of pyright's positions (null
   * when unreadable): implementations.ts reads the class statement around a reference.
   */
  offsetIn(uri: string, at: LspPosition): { text: string; offset: number } | null {
    const abs = uriPath(uri);
    const lines = abs === null ? null : this.#read(abs);
    if (lines === null) return null;
    const { line, character } = fromLsp(lines, at);
    const start = lines.starts[line];
    if (start === undefined) return null;
    return { text: lines.text, offset: Math.min(start + character, lines.text.length) };
  }

  /** 1-based places of LSP positions in a file, each once, in order ([] when unreadable). */
  sitesIn(uri: string, starts: readonly LspPosition[]): Array<{ line: number; column: number }> {
    const abs = uriPath(uri);
    const lines = abs === null ? null : this.#read(abs);
    if (lines === null) return [];
    const unique = new Map(starts.map((s) => [`${s.line}:${s.character}`, s]));
    return [...unique.values()]
      .sort((a, b) => a.line - b.line || a.character - b.character)
      .map((s) => {
        const at = fromLsp(lines, s);
        return { line: at.line + 1, column: at.character + 1 };
      });
  }
}

function joinAbs(root: string, rel: string): string {
  if (rel === "") return root;
  return root === "/" ? `/${rel}` : `${root}/${rel}`;
}

function placeKey(location: LspLocation): string {
  return `${location.uri}\0${location.range.start.line}\0${location.range.start.character}`;
}

function byPlace(
  a: { path: string; line: number; column: number },
  b: { path: string; line: number; column: number },
): number {
  return comparePaths(a.path, b.path) || a.line - b.line || a.column - b.column;
}

function editsByUri(edit: WorkspaceEdit | null): Array<[string, TextEdit[]]> {
  if (edit === null) return [];
  const out = new Map<string, TextEdit[]>();
  for (const [uri, edits] of Object.entries(edit.changes ?? {})) {
    out.set(uri, [...(out.get(uri) ?? []), ...edits]);
  }
  for (const change of edit.documentChanges ?? []) {
    if (change.textDocument === undefined || change.edits === undefined) continue;
    const uri = change.textDocument.uri;
    out.set(uri, [...(out.get(uri) ?? []), ...change.edits]);
  }
  return [...out].filter(([, edits]) => edits.length > 0);
}

/** A TextEdit as a span with the text it replaces. */
function span(rel: string, lines: Lines, edit: TextEdit): SpanEdit {
  const start = fromLsp(lines, edit.range.start);
  const end = fromLsp(lines, edit.range.end);
  const from = (lines.starts[start.line] ?? lines.text.length) + start.character;
  const to = (lines.starts[end.line] ?? lines.text.length) + end.character;
  return {
    path: rel,
    line: start.line + 1,
    column: start.character + 1,
    end_line: end.line + 1,
    end_column: end.character + 1,
    old_text: lines.text.slice(from, to),
    new_text: edit.newText,
  };
}

function moduleName(abs: string): string {
  const file = abs.slice(abs.lastIndexOf("/") + 1).replace(/\.pyi?$/, "");
  if (file !== "__init__") return file;
  const folder = abs.slice(0, abs.lastIndexOf("/"));
  return folder.slice(folder.lastIndexOf("/") + 1);
}

function indentOf(text: string): number {
  return text.length - text.trimStart().length;
}

/** The kind of the declaration on `line`: class, function, method or variable. */
function kindOf(lines: Lines, line: number): string {
  const here = lineText(lines.text, lines.starts, line);
  if (/^\s*class\s/.test(here)) return "class";
  if (!/^\s*(?:async\s+)?def\s/.test(here)) return "variable";
  const indent = indentOf(here);
  if (indent === 0) return "function";
  for (let n = line - 1; n >= 1; n--) {
    const above = lineText(lines.text, lines.starts, n);
    if (above.trim() === "" || indentOf(above) >= indent) continue;
    return /^\s*class\s/.test(above) ? "method" : "function";
  }
  return "function";
}

/** The last line of a `def`/`class` block starting at `line` (the line itself otherwise). */
function blockEnd(lines: Lines, line: number): number {
  const here = lineText(lines.text, lines.starts, line);
  if (!/^\s*(?:async\s+)?(?:def|class)\s/.test(here)) return line;
  const indent = indentOf(here);
  const count = lines.text.endsWith("\n") ? lines.starts.length - 1 : lines.starts.length;
  let last = line;
  for (let n = line + 1; n <= count; n++) {
    const t = lineText(lines.text, lines.starts, n);
    if (t.trim() === "") continue;
    if (indentOf(t) <= indent && !/^\s*[)\]}]/.test(t)) break;
    last = n;
  }
  return last;
}
