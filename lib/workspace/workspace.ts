/**
 * The workspace: the only code that decides which files the server serves (docs/workspace.md).
 * Three guards on every access: lexical (segments), real path, identity after open.
 *
 * Known limits (documented): a hard link to an outside file cannot be told from an inside one;
 * a folder on the path swapped for a symlink is caught by the folder guard (folder_guard.ts),
 * which trusts folder mtimes (Deno has no openat/O_NOFOLLOW); ignore patterns compare ASCII
 * case-insensitively (ripgrep: case-sensitive); names holding a backslash, a control character or
 * invalid UTF-8 are never listed (they cannot be named back faithfully).
 */
import { type Refusal, refuse, rootError, WorkspaceError } from "./errors.ts";
import { readFullySync } from "./read_fully.ts";
import { FolderGuard } from "./folder_guard.ts";
import { IgnoreIndex } from "./ignore_rules.ts";
import { log } from "../log.ts";
import {
  hasControlChar,
  isGitName,
  isSecretName,
  joinRoot,
  normalizeSegments,
  relativeUnder,
} from "./names.ts";
import { isTempName } from "./temp_names.ts";
import { fileUriToPath, looksLikeUri, UriError } from "./uri.ts";
import { type WalkEntry, type WalkOptions, type WalkScope, walkTree } from "./walk.ts";
import { type SuggestOptions, suggestPaths } from "./suggest.ts";

export interface WorkspaceOptions {
  /** The folder served. After open: its real path. */
  root: string;
  noIgnore: boolean;
  allowSecrets: boolean;
  /** Another absolute spelling of the root (the root as given), also accepted in paths and URIs. */
  alias?: string;
}

export type { Refusal, WalkEntry, WalkOptions };

/** A file or folder as the semantic worker may see it (lookupForTypes). */
export interface TypeEntry {
  rel: string;
  /** Real absolute path. */
  abs: string;
  isFile: boolean;
  size: number;
  mtimeMs: number;
  ino: number;
}
export { readFullySync, WorkspaceError };

const MAX_INPUT_LENGTH = 8192;
const DIR_CACHE_TTL_MS = 5000;
const DIR_CACHE_MAX = 20_000;

/** A resolved path with the stat of its (followed) target. */
interface Resolved {
  rel: string;
  abs: string;
  info: Deno.FileInfo;
}

/** Normalises an absolute path lexically; `..` above `/` stays at `/`, as the kernel does. */
function normalizeAbsolute(path: string): string {
  const out: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") out.pop();
    else out.push(segment);
  }
  return `/${out.join("/")}`;
}

function isRuleSegmentHit(
  segments: readonly string[],
  allowSecrets: boolean,
): "git" | "secret" | null {
  for (const segment of segments) if (isGitName(segment)) return "git";
  if (!allowSecrets) { for (const segment of segments) if (isSecretName(segment)) return "secret"; }
  return null;
}

function statOrNull(path: string): Deno.FileInfo | null {
  try {
    return Deno.statSync(path);
  } catch {
    return null;
  }
}

export class Workspace {
  /** Real path of the root. */
  readonly root: string;
  /** Plain and structured-cloneable: a worker re-opens the workspace with `openSync(options)`. */
  readonly options: WorkspaceOptions;
  readonly #alias: string | null;
  readonly #ignores: IgnoreIndex | null;
  readonly #scope: WalkScope;
  readonly #noted = new Set<string>();
  readonly #rootId: { dev: number; ino: number | null };
  readonly #dirs = new Map<string, { real: string; dev: number; ino: number | null; at: number }>();

  /** Use `openSync`: it takes the real path of the root and checks it. */
  constructor(realRoot: string, options: WorkspaceOptions) {
    this.root = realRoot;
    const alias = options.alias !== undefined && options.alias !== realRoot ? options.alias : null;
    this.#alias = alias;
    this.options = {
      root: realRoot,
      noIgnore: options.noIgnore,
      allowSecrets: options.allowSecrets,
      ...(alias === null ? {} : { alias }),
    };
    this.#ignores = options.noIgnore ? null : new IgnoreIndex(realRoot);
    this.#scope = {
      root: realRoot,
      allowSecrets: options.allowSecrets,
      ignoreIndex: this.#ignores,
      noteBadNames: (folderRel) => this.#noteBadNames(folderRel),
    };
    const info = statOrNull(realRoot);
    this.#rootId = { dev: info?.dev ?? -1, ino: info?.ino ?? null };
  }

  static openSync(options: WorkspaceOptions): Workspace {
    const given = Workspace.#given(options);
    let real: string;
    let info: Deno.FileInfo;
    try {
      real = Deno.realPathSync(given);
      info = Deno.statSync(real);
    } catch (e) {
      throw rootError(options.root, e);
    }
    if (!info.isDirectory) throw refuse("invalid-path", options.root, "serve", "not a folder");
    return new Workspace(real, { ...options, alias: options.alias ?? given });
  }

  static #given(options: WorkspaceOptions): string {
    const root = options.root;
    if (typeof root !== "string" || root === "" || root.includes("\0")) {
      throw refuse("invalid-path", String(root), "serve", "not a folder path");
    }
    return normalizeAbsolute(root.startsWith("/") ? root : `${Deno.cwd()}/${root}`);
  }

  /** Logs once per folder that names not valid UTF-8 or holding control characters were skipped. */
  #noteBadNames(folderRel: string): void {
    if (this.#noted.has(folderRel) || this.#noted.size > 10_000) return;
    this.#noted.add(folderRel);
    log.warn(
      `Skipped names that are not valid UTF-8 or hold control characters in ${
        JSON.stringify(folderRel || ".")
      }: they cannot be named back faithfully`,
    );
  }

  /**
   * Root-relative path and real absolute path of `input` (a folder or a file), or a
   * WorkspaceError. `input`: `""`/`.`, a root-relative POSIX path, an absolute path inside the
   * root (as given or real), or a `file://` URI.
   */
  resolve(input: string): { rel: string; abs: string } {
    const r = this.#resolve(input, "access");
    return { rel: r.rel, abs: r.abs };
  }

  /**
   * Whether `input` names a served file or folder, by the same guards as a read; a
   * WorkspaceError when it is missing, refused, or neither (a FIFO, a device).
   */
  kind(input: string): "file" | "folder" {
    const r = this.#resolve(input, "read");
    if (r.info.isDirectory) return "folder";
    if (!r.info.isFile) throw refuse("not-a-file", input, "read");
    return "file";
  }

  /**
   * True when `abs` (an absolute path something else names, such as a repository's config)
   * lies inside the real root once its symlinks are followed; a missing path is judged as
   * written.
   */
  containsReal(abs: string): boolean {
    let real: string;
    try {
      real = Deno.realPathSync(abs);
    } catch {
      real = abs;
    }
    return relativeUnder(real, this.root) !== null;
  }

  /**
   * Size and modification time of the served path `rel`, or null when it is gone: a cache's
   * key (the symbol cache). No guard is applied here; the read that follows applies them all.
   */
  stamp(rel: string): { size: number; mtimeMs: number } | null {
    const info = statOrNull(joinRoot(this.root, rel));
    return info === null ? null : { size: info.size, mtimeMs: info.mtime?.getTime() ?? 0 };
  }

  /** Modification time of a file a walk just yielded (its `abs`), or null when it is gone. */
  walkedMtime(abs: string): number | null {
    const info = statOrNull(abs);
    return info === null ? null : info.mtime?.getTime() ?? 0;
  }

  /** True when the ignore rules exclude `rel` (or a folder on its way); false with --no-ignore. */
  isIgnored(rel: string, isDir: boolean): boolean {
    return this.#ignores !== null && this.#ignores.ignores(rel, isDir);
  }

  /** Drops the cached ignore rules (an ignore file was just written). */
  forgetIgnoreRules(): void {
    this.#ignores?.forget();
  }

  /**
   * Up to `max` served paths with names near `input`, a path that does not exist (for "Did you
   * mean ...?"); none when `input` is not a path inside the root. See suggest.ts.
   */
  suggest(input: string, options: SuggestOptions = {}): string[] {
    let rel: string;
    try {
      rel = this.#lexical(input, "access");
    } catch {
      return [];
    }
    return suggestPaths(this, rel, options);
  }

  /**
   * The root-relative path `input` names, by the lexical rules alone (inside the root; the path
   * need not exist, and secret, ignore and `.git` rules are not applied), or a WorkspaceError.
   * For names that live in git history rather than on disk, and for the write checks
   * (write_target.ts), which apply the other guards themselves; `verb` words the refusal.
   */
  relativePath(input: string, verb = "access"): string {
    return this.#lexical(input, verb);
  }

  #lexical(input: string, verb: string): string {
    if (typeof input !== "string") throw refuse("invalid-path", String(input), verb, "not a path");
    if (input.length > MAX_INPUT_LENGTH) {
      throw refuse("invalid-path", input, verb, "path is too long");
    }
    let path = input;
    if (looksLikeUri(input)) {
      try {
        path = fileUriToPath(input);
      } catch (e) {
        if (e instanceof UriError) throw refuse("invalid-path", input, verb, e.message);
        throw e;
      }
    }
    if (path.includes("\0")) throw refuse("invalid-path", input, verb, "path contains a NUL byte");
    if (hasControlChar(path)) {
      throw refuse("invalid-path", input, verb, "names with control characters are not served");
    }
    if (path.includes("\\")) {
      throw refuse(
        "invalid-path",
        input,
        verb,
        'backslashes are not path separators here; use "/"',
      );
    }
    if (path.startsWith("/")) {
      const norm = normalizeAbsolute(path);
      const rel = relativeUnder(norm, this.root) ??
        (this.#alias === null ? null : relativeUnder(norm, this.#alias));
      if (rel === null) throw refuse("outside", input, verb);
      return rel;
    }
    const segments = normalizeSegments(path);
    if (segments === null) throw refuse("outside", input, verb);
    return segments.join("/");
  }

  #resolve(input: string, verb: string, withIgnored = false, twin = false): Resolved {
    const rel = this.#lexical(input, verb);
    const segments = rel === "" ? [] : rel.split("/");
    const named = isRuleSegmentHit(segments, this.options.allowSecrets);
    if (named !== null) throw refuse(named, input, verb);
    // Temp files of atomic writes are never served: as if absent.
    if (segments.some(isTempName)) throw refuse("missing", input, verb);
    let real: string;
    let info: Deno.FileInfo | null;
    const fast = rel === "" ? null : this.#fastReal(rel);
    if (fast !== null) {
      real = fast.real;
      info = fast.info;
    } else {
      try {
        real = Deno.realPathSync(joinRoot(this.root, rel));
      } catch {
        // A name spelled in the other Unicode normal form (macOS clients send NFD) is the file.
        const other = twin ? null : unicodeTwin(rel);
        if (other !== null) {
          try {
            return this.#resolve(other, verb, withIgnored, true);
          } catch {
            // neither spelling exists: the answer names the path as given
          }
        }
        throw refuse("missing", input, verb);
      }
      info = null;
    }
    // A symlink that leads out is treated as absent: the answer must not tell whether the
    // outside target exists.
    const realRel = relativeUnder(real, this.root);
    if (realRel === null) throw refuse("missing", input, verb);
    info ??= statOrNull(real);
    if (info === null) throw refuse("missing", input, verb);
    if (realRel !== rel) {
      const hit = isRuleSegmentHit(
        realRel === "" ? [] : realRel.split("/"),
        this.options.allowSecrets,
      );
      if (hit !== null) throw refuse(hit, input, verb);
    }
    const ignores = withIgnored ? null : this.#ignores;
    if (ignores !== null) {
      if (
        ignores.ignores(rel, info.isDirectory) ||
        (realRel !== rel && ignores.ignores(realRel, info.isDirectory))
      ) {
        throw refuse("ignored", input, verb);
      }
    }
    return { rel, abs: real, info };
  }

  /**
   * Real path and lstat of `rel` without a realpath per call: the parent folder's real path is
   * cached (a few seconds) with its device and inode, which a stat re-checks on every call; the
   * last segment is lstat-ed and must not be a symlink. Null: take the slow path (realpath).
   */
  #fastReal(rel: string): { real: string; info: Deno.FileInfo } | null {
    const slash = rel.lastIndexOf("/");
    const parent = slash < 0 ? "" : rel.slice(0, slash);
    let dirReal = this.root;
    if (parent === "") {
      const now = statOrNull(this.root);
      if (now === null || now.dev !== this.#rootId.dev || now.ino !== this.#rootId.ino) return null;
    } else {
      const now = performance.now();
      let dir = this.#dirs.get(parent);
      if (dir === undefined || now - dir.at > DIR_CACHE_TTL_MS) {
        try {
          const real = Deno.realPathSync(joinRoot(this.root, parent));
          const info = Deno.statSync(real);
          if (!info.isDirectory) return null;
          dir = { real, dev: info.dev, ino: info.ino, at: now };
        } catch {
          return null;
        }
        if (this.#dirs.size >= DIR_CACHE_MAX) this.#dirs.clear();
        this.#dirs.set(parent, dir);
      }
      const now2 = statOrNull(joinRoot(this.root, parent));
      if (now2 === null || now2.dev !== dir.dev || now2.ino !== dir.ino) {
        this.#dirs.delete(parent);
        return null;
      }
      dirReal = dir.real;
    }
    let info: Deno.FileInfo;
    try {
      info = Deno.lstatSync(joinRoot(this.root, rel));
    } catch {
      return null;
    }
    if (info.isSymlink) return null;
    return {
      real: dirReal === "/" ? `/${rel.slice(slash + 1)}` : `${dirReal}/${rel.slice(slash + 1)}`,
      info,
    };
  }

  /**
   * For type information only (the semantic worker): what `rel` names, by every guard but the
   * ignore rules (a declaration under node_modules, a package.json), or null when it is absent,
   * outside, a secret, under `.git` or not a file or folder. Text read this way is never shown.
   */
  lookupForTypes(rel: string): TypeEntry | null {
    let r: Resolved;
    try {
      r = this.#resolve(rel, "read", true);
    } catch (e) {
      if (e instanceof WorkspaceError) return null;
      throw e;
    }
    if (!r.info.isFile && !r.info.isDirectory) return null;
    return {
      rel: r.rel,
      abs: r.abs,
      isFile: r.info.isFile,
      size: r.info.size,
      mtimeMs: r.info.mtime?.getTime() ?? 0,
      ino: r.info.ino ?? 0,
    };
  }

  /**
   * The names in folder `rel` for type information only (ignored ones included; `.git`, secret,
   * temp-file and unnameable names left out; a symlink only when it stays inside), or null when
   * the folder is not there by lookupForTypes' rules.
   */
  listForTypes(rel: string): { files: string[]; dirs: string[] } | null {
    const folder = this.lookupForTypes(rel);
    if (folder === null || folder.isFile) return null;
    const files: string[] = [];
    const dirs: string[] = [];
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(folder.abs)];
    } catch {
      return null;
    }
    for (const entry of entries) {
      const name = entry.name;
      if (
        isGitName(name) || isTempName(name) || hasControlChar(name) || name.includes("\\") ||
        (!this.options.allowSecrets && isSecretName(name))
      ) continue;
      let isDir = entry.isDirectory;
      if (entry.isSymlink) {
        const target = this.lookupForTypes(rel === "" ? name : `${rel}/${name}`);
        if (target === null) continue;
        isDir = !target.isFile;
      } else if (!entry.isFile && !entry.isDirectory) continue;
      (isDir ? dirs : files).push(name);
    }
    return { files: files.sort(), dirs: dirs.sort() };
  }

  /** Resolves `rel` to a regular file (not a folder, FIFO, device...). */
  #resolveFile(rel: string, withIgnored = false): Resolved {
    const r = this.#resolve(rel, "read", withIgnored);
    if (r.info.isDirectory) throw refuse("is-a-directory", rel, "read");
    if (!r.info.isFile) throw refuse("not-a-file", rel, "read");
    return r;
  }

  #checkIdentity(rel: string, checked: Deno.FileInfo, opened: Deno.FileInfo): void {
    if (!opened.isFile) throw refuse("not-a-file", rel, "read");
    if (opened.dev !== checked.dev || opened.ino !== checked.ino) {
      throw refuse("missing", rel, "read", "the file changed while it was being opened; try again");
    }
  }

  /**
   * Proof that a single-path open went through folders inside the root (folder_guard.ts). When
   * every folder on the path was recorded unchanged ("ok"), the guard's second look proves it.
   * When one changed within the last clock tick ("fresh": right after a write in that folder,
   * such as the previous edit), its mtime cannot be trusted, and instead of waiting for the tick
   * the path is resolved again after the open: its real path is still `abs` and names the very
   * inode the handle holds, so the opened file is a file inside the root (hard links aside).
   */
  #openedInside(
    guard: FolderGuard,
    state: "ok" | "fresh",
    abs: string,
    opened: Deno.FileInfo,
  ): boolean {
    if (state === "ok") return guard.verify().length === 0;
    try {
      if (Deno.realPathSync(abs) !== abs) return false;
      const now = Deno.lstatSync(abs);
      return now.isFile && now.dev === opened.dev && now.ino === opened.ino;
    } catch {
      return false;
    }
  }

  /**
   * Depth-first walk of folder `rel` (a file yields itself), each folder's entries sorted by
   * name in code-unit order, leaving out everything not served. Synchronous (usable in workers).
   */
  walk(rel: string, options: WalkOptions = {}): Generator<WalkEntry> {
    return walkTree(this.#scope, this.#resolve(rel, "list"), options);
  }

  /** The whole file (or its first `maxBytes` bytes), after the three guards. */
  async readFile(rel: string, options: { maxBytes?: number } = {}): Promise<Uint8Array> {
    const { file, size } = await this.openFile(rel);
    try {
      const limit = byteLimit(size, options.maxBytes);
      const buffer = new Uint8Array(limit);
      let done = 0;
      while (done < limit) {
        const n = await file.read(buffer.subarray(done));
        if (n === null) break;
        done += n;
      }
      return done === limit ? buffer : buffer.subarray(0, done);
    } finally {
      file.close();
    }
  }

  /**
   * The whole file (or its first `maxBytes` bytes), after the three guards; `forTypes` also
   * reads files the ignore rules exclude, for type information that is never shown (see
   * lookupForTypes).
   */
  readFileSync(
    rel: string,
    options: { maxBytes?: number; forTypes?: boolean } = {},
  ): Uint8Array {
    const { file, size } = this.#openSync(rel, options.forTypes === true);
    try {
      const limit = byteLimit(size, options.maxBytes);
      return readFullySync(file, new Uint8Array(limit));
    } finally {
      file.close();
    }
  }

  /**
   * Reads a file that a walk of this workspace has just yielded (`abs` is the entry's real path),
   * for searching many files fast: the real path must still be inside the root and a regular
   * file (lstat), and the opened file must be that same file (device and inode). The bytes go into
   * `scratch` when it is big enough (the view is valid until the buffer is reused), else into a
   * new buffer. Null when the file changed or vanished since the walk: it is no longer served.
   */
  readWalkedSync(abs: string, scratch: Uint8Array): Uint8Array | null {
    const opened = this.openWalkedSync(abs);
    if (opened === null) return null;
    try {
      const size = opened.size;
      return readFullySync(
        opened.file,
        size <= scratch.length ? scratch.subarray(0, size) : new Uint8Array(size),
      );
    } catch {
      return null;
    } finally {
      opened.file.close();
    }
  }

  /**
   * Opens a walked file as readWalkedSync does (same checks), for streaming; the caller closes
   * the handle. The folders on its path are the caller's to guard (folder_guard.ts).
   */
  openWalkedSync(abs: string): { file: Deno.FsFile; size: number; mtimeMs: number } | null {
    const rel = relativeUnder(abs, this.root);
    if (rel === null || normalizeSegments(rel)?.join("/") !== rel) return null;
    let file: Deno.FsFile;
    let checked: Deno.FileInfo;
    try {
      checked = Deno.lstatSync(abs);
      if (!checked.isFile) return null;
      file = Deno.openSync(abs, { read: true });
    } catch {
      return null;
    }
    try {
      const opened = file.statSync();
      if (!opened.isFile || opened.dev !== checked.dev || opened.ino !== checked.ino) {
        file.close();
        return null;
      }
      return { file, size: opened.size, mtimeMs: opened.mtime?.getTime() ?? 0 };
    } catch {
      file.close();
      return null;
    }
  }

  /**
   * Opens a walked file as openWalkedSync does, without its lstat: only for a file that a walk
   * listed as a plain file (no link) in a folder whose guard record is unchanged since the
   * listing (walk.ts FolderRecord), which the caller has checked before the open and checks again
   * after it (folder_guard.ts). The opened file must still be a plain file.
   */
  openListedSync(abs: string): { file: Deno.FsFile; size: number; mtimeMs: number } | null {
    const rel = relativeUnder(abs, this.root);
    if (rel === null || normalizeSegments(rel)?.join("/") !== rel) return null;
    let file: Deno.FsFile;
    try {
      file = Deno.openSync(abs, { read: true });
    } catch {
      return null;
    }
    try {
      const opened = file.statSync();
      if (opened.isFile) return { file, size: opened.size, mtimeMs: opened.mtime?.getTime() ?? 0 };
    } catch {
      // closed below
    }
    file.close();
    return null;
  }

  /**
   * Byte ranges ([offset, length, ...]) of a walked plain file, with readWalkedSync's checks,
   * only while it still has `expect`'s size and mtime (the trigram index's pieces); null when it
   * changed, vanished or is refused: then read it whole.
   */
  readRangesSync(
    abs: string,
    expect: { size: number; mtimeMs: number },
    ranges: readonly number[],
  ): Uint8Array[] | null {
    const opened = this.openWalkedSync(abs);
    if (opened === null) return null;
    const file = opened.file;
    try {
      if (opened.size !== expect.size || opened.mtimeMs !== expect.mtimeMs) return null;
      const parts: Uint8Array[] = [];
      for (let k = 0; k + 1 < ranges.length; k += 2) {
        file.seekSync(ranges[k], Deno.SeekMode.Start);
        const part = readFullySync(file, new Uint8Array(ranges[k + 1]));
        if (part.length !== ranges[k + 1]) return null;
        parts.push(part);
      }
      return parts;
    } catch {
      return null;
    } finally {
      file.close();
    }
  }

  /** openFile, synchronously (for the search workers); the caller closes the handle. */
  openFileSync(rel: string): { file: Deno.FsFile; size: number; rel: string; abs: string } {
    return this.#openSync(rel, false);
  }

  /** openFileSync, and readFileSync's open (`withIgnored`: forTypes). */
  #openSync(
    rel: string,
    withIgnored: boolean,
  ): { file: Deno.FsFile; size: number; rel: string; abs: string } {
    const r = this.#resolveFile(rel, withIgnored);
    const guard = new FolderGuard(this.root);
    const state = guard.enter(parentOf(r.abs));
    if (state === "bad") throw changed(rel);
    const file = openCheckedSync(r.abs, rel);
    try {
      const opened = file.statSync();
      this.#checkIdentity(rel, r.info, opened);
      if (!this.#openedInside(guard, state, r.abs, opened)) throw changed(rel);
      return { file, size: opened.size, rel: r.rel, abs: r.abs };
    } catch (e) {
      file.close();
      throw e;
    }
  }

  /** An identity-checked handle for streaming reads; the caller closes it. */
  async openFile(
    rel: string,
  ): Promise<{ file: Deno.FsFile; size: number; mtimeMs: number; rel: string; abs: string }> {
    const r = this.#resolveFile(rel);
    const guard = new FolderGuard(this.root);
    const state = guard.enter(parentOf(r.abs));
    if (state === "bad") throw changed(rel);
    const file = await openChecked(r.abs, rel);
    try {
      const opened = await file.stat();
      this.#checkIdentity(rel, r.info, opened);
      if (!this.#openedInside(guard, state, r.abs, opened)) throw changed(rel);
      return {
        file,
        size: opened.size,
        mtimeMs: opened.mtime?.getTime() ?? 0,
        rel: r.rel,
        abs: r.abs,
      };
    } catch (e) {
      file.close();
      throw e;
    }
  }
}

/**
 * The path was checked a moment ago; an open that finds it gone (a folder on it renamed away or
 * swapped for a link, the file deleted or replaced) means it changed meanwhile: a refusal, not
 * an internal error.
 */
function vanished(error: unknown): boolean {
  return error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory ||
    error instanceof Deno.errors.FilesystemLoop || error instanceof Deno.errors.IsADirectory;
}

function openCheckedSync(abs: string, rel: string): Deno.FsFile {
  try {
    return Deno.openSync(abs, { read: true });
  } catch (error) {
    throw vanished(error) ? changed(rel) : error;
  }
}

async function openChecked(abs: string, rel: string): Promise<Deno.FsFile> {
  try {
    return await Deno.open(abs, { read: true });
  } catch (error) {
    throw vanished(error) ? changed(rel) : error;
  }
}

function changed(rel: string): WorkspaceError {
  return refuse("missing", rel, "read", "the file changed while it was being opened; try again");
}

function parentOf(abs: string): string {
  const at = abs.lastIndexOf("/");
  return at <= 0 ? "/" : abs.slice(0, at);
}

function byteLimit(size: number, maxBytes: number | undefined): number {
  if (maxBytes === undefined) return size;
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) {
    throw new RangeError(`maxBytes must be a non-negative integer, got ${maxBytes}`);
  }
  return Math.min(size, maxBytes);
}

/** `rel` in the other Unicode normal form (NFC, else NFD), or null when both are the same. */
function unicodeTwin(rel: string): string | null {
  const nfc = rel.normalize("NFC");
  if (nfc !== rel) return nfc;
  const nfd = rel.normalize("NFD");
  return nfd !== rel ? nfd : null;
}
