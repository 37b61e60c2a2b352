/**
 * pyright's language server inside the Python worker (npm `pyright`, loaded here on first use,
 * never on the main thread). Before it loads, the worker's Node globals are made into the world
 * pyright may see: an empty environment (no PATH, no HOME: it finds no interpreter to run, and
 * the worker may run nothing anyway: "Unable to get Python version from interpreter" and it goes
 * on), the working folder kept in memory (a worker cannot change the process's), the console
 * routed to the server's log (nothing on stdout), and `fs` through the file view (fs_view.ts).
 *
 * Freshness: pyright keeps the files it read until told they changed. Files written by the
 * server or seen changing by the worker's watcher are sent as `workspace/didChangeWatchedFiles`;
 * a file that comes or goes, or a configuration change, makes pyright list the workspace again
 * (`workspace/didChangeConfiguration`), and the next question waits until it has ("Found N
 * source files"): before that, pyright's references cover only the files it has opened.
 */
import process from "node:process";
import { joinRoot } from "../../workspace/names.ts";
import type { Workspace } from "../../workspace/workspace.ts";
import { FileView } from "./fs_view.ts";
import { LspClient } from "./lsp_client.ts";
import { venvConfig } from "./venv_config.ts";

const LISTED = /^(?:Found \d+ source files?|No source files found\.)$/;
const SERVER_ROOT = /^Server root directory: (file:\S+)$/;
const CONFIG_NAMES = new Set(["pyrightconfig.json", "pyproject.toml"]);

export type Logger = (level: "warn" | "info" | "debug", message: string) => void;

/** A file URI of an absolute path (LSP's form). */
export function fileUri(abs: string): string {
  return `file://${abs.split("/").map(encodeURIComponent).join("/")}`;
}

/** The absolute path of a file URI, or null for another scheme. */
export function uriPath(uri: string): string | null {
  if (!uri.startsWith("file://")) return null;
  return decodeURIComponent(uri.slice("file://".length));
}

/** Makes the worker's Node globals the world pyright may see (module comment). */
function confineGlobals(log: Logger): void {
  const say = (level: "info" | "debug") => (...args: unknown[]) =>
    log(level, args.map(String).join(" "));
  // Replaced, not used: whatever pyright prints goes to the log, never to stdout.
  const sink = globalThis.console;
  for (const name of ["log", "info", "warn", "error"] as const) sink[name] = say("info");
  sink.debug = say("debug");
  Object.defineProperty(process, "env", { value: {}, configurable: true, writable: false });
  process.argv = [process.argv[0] ?? "deno", "pyright-langserver", "--node-ipc"];
  let cwd = "/";
  Object.defineProperty(process, "chdir", {
    value: (to: string) => (cwd = to),
    configurable: true,
    writable: true,
  });
  Object.defineProperty(process, "cwd", { value: () => cwd, configurable: true, writable: true });
}

export class PyrightServer {
  readonly #client = new LspClient();
  readonly #ws: Workspace;
  readonly #log: Logger;
  #view: FileView | null = null;
  /** pyright's bundled typeshed folder (absolute), once started. */
  typeshed = "";
  /** Waits for pyright's next "Found N source files" (null: the list is current). */
  #listing: Promise<void> | null = null;
  #onListed: (() => void) | null = null;
  /** Source files pyright found at its last listing. */
  sourceFiles = 0;

  constructor(ws: Workspace, log: Logger) {
    this.#ws = ws;
    this.#log = log;
  }

  get client(): LspClient {
    return this.#client;
  }

  get root(): string {
    return this.#ws.root;
  }

  /** Loads pyright, initializes it on the root and waits until it has listed the workspace. */
  async start(): Promise<void> {
    confineGlobals(this.#log);
    const entry = import.meta.resolve("pyright/langserver.index.js");
    const given = decodeURIComponent(new URL(".", entry).pathname.replace(/\/$/, ""));
    let real = given;
    try {
      real = Deno.realPathSync(given);
    } catch {
      // a packaged file system without real paths: the folder as resolved
    }
    this.typeshed = `${real}/dist/typeshed-fallback`;
    const view = new FileView(this.#ws, [given, real]);
    view.setVirtual("pyrightconfig.json", venvConfig(this.#ws));
    const fs = (await import("node:fs")).default as unknown as Parameters<FileView["install"]>[0];
    view.install(fs);
    this.#view = view;
    this.#client.onNotification = (method, params) => this.#notified(method, params);
    this.#client.onRequest = (method, params) => this.#requested(method, params);
    this.#client.install();
    this.#expectListing();
    await import("pyright/langserver.index.js");
    const root = this.#ws.root;
    await this.#client.request("initialize", {
      processId: null,
      rootUri: fileUri(root),
      capabilities: {
        workspace: {
          configuration: true,
          workspaceFolders: true,
          didChangeWatchedFiles: { dynamicRegistration: true },
        },
        textDocument: {
          rename: { prepareSupport: false },
          documentSymbol: { hierarchicalDocumentSymbolSupport: true },
          diagnostic: { dynamicRegistration: false },
          publishDiagnostics: {},
        },
      },
      workspaceFolders: [{ uri: fileUri(root), name: "root" }],
    });
    this.#client.notify("initialized", {});
    await this.listed();
  }

  /** Resolves once pyright's file list is current. */
  async listed(): Promise<void> {
    while (this.#listing !== null) await this.#listing;
  }

  /** Files changed on disk or written by the server (root-relative): pyright reads them again. */
  changed(rels: readonly string[]): void {
    if (rels.length === 0) return;
    if (rels.some((rel) => CONFIG_NAMES.has(rel))) {
      this.relist();
      return;
    }
    this.#client.notify("workspace/didChangeWatchedFiles", {
      changes: rels.map((rel) => ({ uri: fileUri(joinRoot(this.#ws.root, rel)), type: 2 })),
    });
  }

  /** Files came or went, or a configuration changed: pyright lists the workspace again. */
  relist(): void {
    this.#view?.setVirtual("pyrightconfig.json", venvConfig(this.#ws));
    if (this.#listing === null) this.#expectListing();
    this.#client.notify("workspace/didChangeConfiguration", { settings: {} });
  }

  #expectListing(): void {
    this.#listing = new Promise<void>((resolve) => {
      this.#onListed = () => {
        this.#listing = null;
        this.#onListed = null;
        resolve();
      };
    });
  }

  #notified(method: string, params: unknown): void {
    if (method !== "window/logMessage") return;
    const message = String((params as { message?: unknown }).message ?? "");
    const root = SERVER_ROOT.exec(message);
    const folder = root === null ? null : uriPath(root[1]);
    if (folder !== null) {
      // Where pyright's own code is: its typeshed is named from here in its answers.
      const dist = folder.replace(/\/$/, "");
      this.typeshed = `${dist}/typeshed-fallback`;
      this.#view?.addLibrary(dist.replace(/\/dist$/, ""));
    }
    if (LISTED.test(message)) {
      const found = /^Found (\d+)/.exec(message);
      this.sourceFiles = found === null ? 0 : Number(found[1]);
      this.#onListed?.();
    }
    this.#log("debug", `pyright: ${message}`);
  }

  #requested(method: string, params: unknown): unknown {
    if (method === "workspace/configuration") {
      const items = (params as { items?: unknown[] }).items ?? [];
      return items.map(() => null);
    }
    if (method === "workspace/workspaceFolders") {
      return [{ uri: fileUri(this.#ws.root), name: "root" }];
    }
    return null;
  }
}
