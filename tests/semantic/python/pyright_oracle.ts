/**
 * The oracle of the Python semantic tests: the same pyright (the npm package the server pins)
 * run standalone under Node, with an empty PATH and an empty HOME (so it can run no interpreter
 * either): its language server over stdio, asked after it has listed the workspace ("Found N
 * source files"), and its CLI's `--outputjson` for diagnostics. Answers in the tools' terms
 * (root-relative paths, 1-based lines and UTF-16 columns). pyright counts a file's byte order
 * mark as the first character of line 1; the tools count columns as read_file does, without it,
 * so columns on line 1 of such a file are shifted here, both ways.
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The Node binary on PATH, or null (the tests then skip, saying so). */
export function findNode(): string | null {
  for (const dir of (Deno.env.get("PATH") ?? "").split(":")) {
    if (dir === "") continue;
    try {
      const path = `${dir}/node`;
      if (Deno.statSync(path).isFile) return path;
    } catch {
      // not in this folder
    }
  }
  return null;
}

/** The folder of the pinned pyright package (its langserver.index.js and index.js). */
export function pyrightFolder(): string {
  const url = import.meta.resolve("pyright/langserver.index.js");
  return new URL(".", url).pathname.replace(/\/$/, "");
}

export interface OracleLocation {
  path: string | null;
  /** A typeshed file by its path inside the bundled typeshed folder. */
  external?: string;
  line: number;
  column: number;
}

export interface OracleEdit {
  path: string;
  line: number;
  column: number;
  end_line: number;
  end_column: number;
  new_text: string;
}

export interface OracleDiagnostic {
  path: string;
  line: number;
  column: number;
  code: string;
  category: string;
  message: string;
}

interface LspRange {
  start: { line: number; character: number };
  end: { line: number; character: number };
}

export class PyrightOracle {
  readonly root: string;
  readonly #node: string;
  readonly #process: Deno.ChildProcess;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #pending = new Map<number, (value: unknown) => void>();
  #next = 1;
  #listed: Promise<void>;
  #onListed: () => void = () => {};
  readonly #typeshed: string;

  private constructor(node: string, root: string) {
    this.root = root;
    this.#node = node;
    this.#typeshed = `${Deno.realPathSync(pyrightFolder())}/dist/typeshed-fallback/`;
    this.#process = new Deno.Command(node, {
      args: [`${pyrightFolder()}/langserver.index.js`, "--stdio"],
      cwd: root,
      clearEnv: true,
      env: { PATH: "", HOME: "" },
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    this.#writer = this.#process.stdin.getWriter();
    this.#listed = new Promise((resolve) => (this.#onListed = resolve));
    this.#read();
  }

  /** The Node process (benchmarks read its peak RSS). */
  get pid(): number {
    return this.#process.pid;
  }

  static async start(node: string, root: string): Promise<PyrightOracle> {
    const oracle = new PyrightOracle(node, root);
    const uri = `file://${root}`;
    await oracle.request("initialize", {
      processId: null,
      rootUri: uri,
      capabilities: {
        workspace: { configuration: true, workspaceFolders: true },
        // Document symbols as a tree, as the server asks for them (implementations_oracle.ts).
        textDocument: { rename: {}, documentSymbol: { hierarchicalDocumentSymbolSupport: true } },
      },
      workspaceFolders: [{ uri, name: "root" }],
    });
    oracle.notify("initialized", {});
    await oracle.#listed;
    return oracle;
  }

  async #read(): Promise<void> {
    let buffer = new Uint8Array(0);
    for await (const chunk of this.#process.stdout) {
      const joined = new Uint8Array(buffer.length + chunk.length);
      joined.set(buffer);
      joined.set(chunk, buffer.length);
      buffer = joined;
      while (true) {
        const head = decoder.decode(buffer.subarray(0, Math.min(buffer.length, 200)));
        const end = head.indexOf("\r\n\r\n");
        if (end < 0) break;
        const length = Number(/Content-Length: (\d+)/i.exec(head)?.[1] ?? "0");
        const start = encoder.encode(head.slice(0, end + 4)).length;
        if (buffer.length < start + length) break;
        const message = JSON.parse(decoder.decode(buffer.subarray(start, start + length)));
        buffer = buffer.slice(start + length);
        this.#receive(message);
      }
    }
  }

  #receive(message: { id?: number; method?: string; params?: unknown; result?: unknown }): void {
    if (message.method !== undefined && message.id !== undefined) {
      const items = (message.params as { items?: unknown[] })?.items;
      const result = message.method === "workspace/configuration"
        ? (items ?? []).map(() => null)
        : null;
      this.#send({ jsonrpc: "2.0", id: message.id, result });
      return;
    }
    if (message.method === "window/logMessage") {
      const text = String((message.params as { message: string }).message);
      if (/^(?:Found \d+ source files?|No source files found\.)$/.test(text)) this.#onListed();
      return;
    }
    if (message.id !== undefined) this.#pending.get(message.id)?.(message.result ?? null);
  }

  #send(message: unknown): void {
    const body = encoder.encode(JSON.stringify(message));
    const head = encoder.encode(`Content-Length: ${body.length}\r\n\r\n`);
    this.#writer.write(head);
    this.#writer.write(body);
  }

  request<T>(method: string, params: unknown): Promise<T> {
    const id = this.#next++;
    const answer = new Promise<T>((resolve) =>
      this.#pending.set(id, resolve as (v: unknown) => void)
    );
    this.#send({ jsonrpc: "2.0", id, method, params });
    return answer;
  }

  notify(method: string, params: unknown): void {
    this.#send({ jsonrpc: "2.0", method, params });
  }

  readonly #boms = new Map<string, boolean>();

  /** 1 on line 1 of a root file that starts with a byte order mark, else 0. */
  shift(path: string | null, line: number): number {
    if (path === null || line !== 1) return 0;
    let bom = this.#boms.get(path);
    if (bom === undefined) {
      try {
        const head = Deno.readFileSync(`${this.root}/${path}`).subarray(0, 3);
        bom = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf;
      } catch {
        bom = false;
      }
      this.#boms.set(path, bom);
    }
    return bom ? 1 : 0;
  }

  #where(path: string, line: number, column: number) {
    return {
      textDocument: { uri: `file://${this.root}/${path}` },
      position: { line: line - 1, character: column - 1 + this.shift(path, line) },
    };
  }

  #location(uri: string, range: LspRange): OracleLocation | null {
    const abs = decodeURIComponent(uri.replace(/^file:\/\//, ""));
    const line = range.start.line + 1;
    const column = range.start.character + 1;
    if (abs.startsWith(`${this.root}/`)) {
      const path = abs.slice(this.root.length + 1);
      return { path, line, column: column - this.shift(path, line) };
    }
    if (abs.startsWith(this.#typeshed)) {
      return { path: null, external: abs.slice(this.#typeshed.length), line, column };
    }
    return null;
  }

  definitions(path: string, line: number, column: number): Promise<OracleLocation[]> {
    return this.#locations("textDocument/definition", path, line, column);
  }

  /** The locations or location links a definition-like request answers, inside the root or typeshed. */
  async #locations(
    method: string,
    path: string,
    line: number,
    column: number,
  ): Promise<OracleLocation[]> {
    type Found = Array<
      { uri?: string; range?: LspRange; targetUri?: string; targetSelectionRange?: LspRange }
    >;
    const found = await this.request<Found | null>(method, this.#where(path, line, column));
    const out: OracleLocation[] = [];
    for (const d of found ?? []) {
      const entry = this.#location(d.targetUri ?? d.uri!, d.targetSelectionRange ?? d.range!);
      if (entry !== null) out.push(entry);
    }
    return out;
  }

  /** The display text of pyright's hover (its code block), or null when it shows nothing. */
  async hover(path: string, line: number, column: number): Promise<string | null> {
    const found = await this.request<{ contents?: { value?: string } } | null>(
      "textDocument/hover",
      this.#where(path, line, column),
    );
    const value = found?.contents?.value;
    if (value === undefined || value.trim() === "") return null;
    const start = value.indexOf("```python\n");
    if (start < 0) return value.trim();
    return value.slice(start + 10, value.indexOf("\n```", start + 10)).trim();
  }

  typeDefinitions(path: string, line: number, column: number): Promise<OracleLocation[]> {
    return this.#locations("textDocument/typeDefinition", path, line, column);
  }

  async references(path: string, line: number, column: number): Promise<OracleLocation[]> {
    const found = await this.request<Array<{ uri: string; range: LspRange }> | null>(
      "textDocument/references",
      { ...this.#where(path, line, column), context: { includeDeclaration: true } },
    );
    return (found ?? []).map((r) => this.#location(r.uri, r.range)).filter((r) => r !== null);
  }

  async rename(path: string, line: number, column: number, newName: string): Promise<OracleEdit[]> {
    type Edit = { range: LspRange; newText: string };
    const found = await this.request<
      {
        changes?: Record<string, Edit[]>;
        documentChanges?: Array<{ textDocument: { uri: string }; edits: Edit[] }>;
      } | null
    >(
      "textDocument/rename",
      { ...this.#where(path, line, column), newName },
    );
    const out: OracleEdit[] = [];
    const lists: Array<[string, Edit[]]> = [
      ...Object.entries(found?.changes ?? {}),
      ...(found?.documentChanges ?? []).map((c) =>
        [c.textDocument.uri, c.edits] as [string, Edit[]]
      ),
    ];
    for (const [uri, edits] of lists) {
      const abs = decodeURIComponent(uri.replace(/^file:\/\//, ""));
      const path = abs.slice(this.root.length + 1);
      for (const e of edits) {
        const line = e.range.start.line + 1;
        const endLine = e.range.end.line + 1;
        out.push({
          path,
          line,
          column: e.range.start.character + 1 - this.shift(path, line),
          end_line: endLine,
          end_column: e.range.end.character + 1 - this.shift(path, endLine),
          new_text: e.newText,
        });
      }
    }
    return out;
  }

  /** pyright's CLI over the root (or the given root-relative files), `--outputjson`. */
  async diagnostics(files: string[] = []): Promise<OracleDiagnostic[]> {
    const output = await new Deno.Command(this.#node, {
      args: [`${pyrightFolder()}/index.js`, "--outputjson", "-p", this.root, ...files],
      cwd: this.root,
      clearEnv: true,
      env: { PATH: "", HOME: "" },
      stdout: "piped",
      stderr: "null",
    }).output();
    const report = JSON.parse(decoder.decode(output.stdout)) as {
      generalDiagnostics: Array<
        { file: string; severity: string; message: string; range: LspRange; rule?: string }
      >;
    };
    return report.generalDiagnostics.map((d) => ({
      path: d.file.slice(this.root.length + 1),
      line: d.range.start.line + 1,
      column: d.range.start.character + 1 -
        this.shift(d.file.slice(this.root.length + 1), d.range.start.line + 1),
      code: d.rule ?? "syntax",
      category: d.severity,
      message: d.message,
    }));
  }

  async stop(): Promise<void> {
    try {
      await this.request("shutdown", null);
      this.notify("exit", null);
      await this.#writer.close();
    } catch {
      // already gone
    }
    try {
      this.#process.kill();
    } catch {
      // exited
    }
    await this.#process.status;
  }
}
