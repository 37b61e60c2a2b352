/**
 * The file system as pyright sees it in the Python worker. pyright reads the disk itself through
 * Node's `fs`; before it loads, the worker replaces the `fs` functions that take a path with ones
 * that first ask this view, so that every read, existence check, listing and realpath goes
 * through the workspace's rules for type information (Workspace.lookupForTypes / listForTypes):
 * outside the root, secret files, `.git` and symlinks that lead out are absent; ignored folders
 * (a `.venv`) are readable for types. pyright's own package folder (its code and its bundled
 * typeshed stubs) is readable as it is. The folders above the root exist and are empty. Nothing
 * can be written: every writing function fails (the worker holds no write permission anyway).
 *
 * A root with a `.venv` or `venv` folder (one holding `pyvenv.cfg`) and no pyright configuration
 * (`pyrightconfig.json`, or `[tool.pyright]` in `pyproject.toml`) is shown a `pyrightconfig.json`
 * that names it (venv_config.ts): pyright then reads its site-packages as files, as it would for
 * a configuration that named it.
 */
import { relativeUnder } from "../../workspace/names.ts";
import type { Workspace } from "../../workspace/workspace.ts";

type AnyFunction = (...args: unknown[]) => unknown;
type FsModule = Record<string, unknown> & { promises: Record<string, unknown> };

/** Where a path lies for pyright. */
type Place =
  | { at: "root"; rel: string; abs: string; isFile: boolean }
  | { at: "virtual"; text: string }
  | { at: "library" }
  | { at: "above" }
  | { at: "absent" };

const PATH_READERS = [
  "existsSync",
  "statSync",
  "lstatSync",
  "readFileSync",
  "readdirSync",
  "realpathSync",
  "accessSync",
  "openSync",
  "opendirSync",
  "createReadStream",
  "stat",
  "lstat",
  "readFile",
  "readdir",
  "realpath",
  "access",
  "open",
  "opendir",
  "exists",
  "watch",
  "watchFile",
];
const PROMISE_READERS = ["stat", "lstat", "readFile", "readdir", "realpath", "access", "open"];
const WRITERS = [
  "writeFileSync",
  "writeFile",
  "appendFileSync",
  "appendFile",
  "mkdirSync",
  "mkdir",
  "mkdtempSync",
  "mkdtemp",
  "unlinkSync",
  "unlink",
  "rmdirSync",
  "rmdir",
  "rmSync",
  "rm",
  "renameSync",
  "rename",
  "copyFileSync",
  "copyFile",
  "cpSync",
  "symlinkSync",
  "symlink",
  "linkSync",
  "link",
  "chmodSync",
  "chmod",
  "utimesSync",
  "utimes",
  "truncateSync",
  "truncate",
  "createWriteStream",
];

function fsError(code: string, syscall: string, path: string): Error {
  const text = code === "ENOENT" ? "no such file or directory" : "read-only file system";
  return Object.assign(new Error(`${code}: ${text}, ${syscall} '${path}'`), {
    code,
    errno: code === "ENOENT" ? -2 : -30,
    syscall,
    path,
  });
}

/** The path an `fs` call names (string, Buffer or file URL), or null for a descriptor. */
function pathOf(value: unknown): string | null {
  if (typeof value === "string") return value;
  if (value instanceof URL) {
    return value.protocol === "file:" ? decodeURIComponent(value.pathname) : null;
  }
  if (value instanceof Uint8Array) return new TextDecoder().decode(value);
  return null;
}

/** Lexically normalised absolute path (`..` above `/` stays at `/`). */
function normalize(path: string): string {
  const out: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") out.pop();
    else out.push(segment);
  }
  return `/${out.join("/")}`;
}

export class FileView {
  readonly #ws: Workspace;
  readonly #root: string;
  /** pyright's package folder, as resolved and as pyright names itself (they may differ). */
  readonly #libraries: string[];
  /** The root-relative name of a virtual config and its text, when the root needs one. */
  #virtual: { rel: string; text: string } | null = null;
  /** Paths read inside the root (tests: what pyright asked for). */
  readonly reads = new Set<string>();

  constructor(ws: Workspace, libraries: readonly string[]) {
    this.#ws = ws;
    this.#root = ws.root;
    this.#libraries = [...libraries];
  }

  /** Another spelling of pyright's package folder (the one its own code reports). */
  addLibrary(folder: string): void {
    if (!this.#libraries.includes(folder)) this.#libraries.push(folder);
  }

  /** Shows pyright a root-level configuration file that is not on disk (venv_config.ts). */
  setVirtual(rel: string, text: string | null): void {
    this.#virtual = text === null ? null : { rel, text };
  }

  /** Where `path` (absolute, as pyright names it) lies. */
  place(path: string): Place {
    const abs = normalize(path);
    if (this.#libraries.some((library) => relativeUnder(abs, library) !== null)) {
      return { at: "library" };
    }
    const rel = relativeUnder(abs, this.#root);
    if (rel === null) {
      return relativeUnder(this.#root, abs) !== null ? { at: "above" } : { at: "absent" };
    }
    if (this.#virtual !== null && rel === this.#virtual.rel) {
      return { at: "virtual", text: this.#virtual.text };
    }
    const entry = this.#ws.lookupForTypes(rel);
    if (entry === null) return { at: "absent" };
    if (entry.isFile) this.reads.add(rel);
    return { at: "root", rel, abs: entry.abs, isFile: entry.isFile };
  }

  /** The names pyright may see in folder `rel` of the root, or null when it is absent. */
  names(rel: string): Set<string> | null {
    const listed = this.#ws.listForTypes(rel);
    if (listed === null) return null;
    const names = new Set([...listed.files, ...listed.dirs]);
    if (this.#virtual !== null && rel === "" && !this.#virtual.rel.includes("/")) {
      names.add(this.#virtual.rel);
    }
    return names;
  }

  /** Replaces the path-taking functions of Node's `fs` (the module object pyright requires). */
  install(fs: FsModule): void {
    const original = new Map<string, AnyFunction>();
    for (const name of PATH_READERS) {
      const f = fs[name];
      if (typeof f === "function") original.set(name, f as AnyFunction);
    }
    const twin = (base: string): AnyFunction | undefined => original.get(`${base}Sync`);
    for (const [name, f] of original) fs[name] = this.#guard(name, f, twin);
    (fs.realpathSync as unknown as Record<string, unknown>).native = fs.realpathSync;
    for (const name of WRITERS) {
      if (typeof fs[name] === "function") {
        fs[name] = (path: unknown) => {
          throw fsError("EROFS", name, String(pathOf(path) ?? path));
        };
      }
    }
    const promises = fs.promises;
    for (const name of PROMISE_READERS) {
      const f = promises[name];
      if (typeof f !== "function") continue;
      const guarded = this.#guard(name, f as AnyFunction, twin);
      promises[name] = async (...args: unknown[]) => await guarded(...args);
    }
    for (const name of WRITERS) {
      if (typeof promises[name] === "function") {
        promises[name] = (path: unknown) =>
          Promise.reject(fsError("EROFS", name, String(pathOf(path) ?? path)));
      }
    }
  }

  /**
   * `f` called only for what the view allows, on the real path inside the root. Callback and
   * promise forms are answered through the original synchronous twin (one code path).
   */
  #guard(name: string, f: AnyFunction, twin: (base: string) => AnyFunction | undefined) {
    const view = this as FileView;
    const base = name.replace(/Sync$/, "");
    const direct = name.endsWith("Sync") || twin(base) === undefined;
    return (...args: unknown[]): unknown => {
      const path = pathOf(args[0]);
      if (path === null) return f(...args);
      if (direct) return view.#answer(base, f, path, args, twin);
      const done = typeof args.at(-1) === "function" ? args.at(-1) as AnyFunction : null;
      const rest = done === null ? args : args.slice(0, -1);
      if (base === "exists") {
        const found = view.place(path).at !== "absent";
        if (done !== null) queueMicrotask(() => done(found));
        return undefined;
      }
      try {
        const value = view.#answer(base, twin(base)!, path, rest, twin);
        if (done === null) return value;
        queueMicrotask(() => done(null, value));
      } catch (error) {
        if (done === null) throw error;
        queueMicrotask(() => done(error));
      }
      return undefined;
    };
  }

  /** One call by its base name (`stat`, `readFile`...) through `f`, synchronous. */
  #answer(
    base: string,
    f: AnyFunction,
    path: string,
    args: unknown[],
    twin: (base: string) => AnyFunction | undefined,
  ): unknown {
    const place = this.place(path);
    if (base === "exists") return place.at !== "absent";
    const options = args[1];
    const quiet = typeof options === "object" && options !== null &&
      (options as { throwIfNoEntry?: boolean }).throwIfNoEntry === false;
    if (place.at === "absent") {
      if (quiet) return undefined;
      throw fsError("ENOENT", base, path);
    }
    if (place.at === "virtual") return this.#virtualAnswer(base, path, place.text, args, twin);
    if (place.at === "library") return f(...args);
    if (place.at === "above") {
      if (base === "readdir" || base === "opendir") return [];
      if (base === "readFile" || base === "open" || base === "createReadStream") {
        throw fsError("ENOENT", base, path);
      }
      return f(...args);
    }
    if (base === "realpath") return place.abs;
    // A folder handle would list names the view hides: folders are listed through readdir only.
    if (base === "opendir") throw fsError("ENOENT", base, path);
    const real = [place.abs, ...args.slice(1)];
    if (base !== "readdir") return f(...real);
    const names = this.names(place.rel);
    if (names === null) throw fsError("ENOENT", base, path);
    const listed = f(...real) as Array<string | { name: string }>;
    const kept = listed.filter((e) => names.has(typeof e === "string" ? e : e.name));
    const virtual = this.#virtual;
    if (virtual !== null && place.rel === "" && !listed.some(isVirtualName(virtual.rel))) {
      kept.push(isDirentOptions(options) ? virtualDirent(virtual.rel, this.#root) : virtual.rel);
    }
    return kept;
  }

  #virtualAnswer(
    base: string,
    path: string,
    text: string,
    args: unknown[],
    twin: (base: string) => AnyFunction | undefined,
  ): unknown {
    if (base === "readFile") {
      const options = args[1];
      const encoding = typeof options === "string"
        ? options
        : (options as { encoding?: string } | undefined)?.encoding;
      return encoding ? text : new TextEncoder().encode(text);
    }
    if (base === "stat" || base === "lstat") {
      const stat = twin("stat")!(this.#root) as Record<string, unknown>;
      return Object.assign(Object.create(Object.getPrototypeOf(stat)), stat, {
        size: new TextEncoder().encode(text).length,
        isFile: () => true,
        isDirectory: () => false,
        isSymbolicLink: () => false,
      });
    }
    if (base === "realpath") return normalize(path);
    if (base === "access") return undefined;
    throw fsError("ENOENT", base, path);
  }
}

function isVirtualName(name: string): (e: string | { name: string }) => boolean {
  return (e) => (typeof e === "string" ? e : e.name) === name;
}

function isDirentOptions(options: unknown): boolean {
  return typeof options === "object" && options !== null &&
    (options as { withFileTypes?: boolean }).withFileTypes === true;
}

function virtualDirent(name: string, root: string): { name: string } {
  const dirent = {
    name,
    parentPath: root,
    path: root,
    isFile: () => true,
    isDirectory: () => false,
    isSymbolicLink: () => false,
    isBlockDevice: () => false,
    isCharacterDevice: () => false,
    isFIFO: () => false,
    isSocket: () => false,
  };
  return dirent;
}
