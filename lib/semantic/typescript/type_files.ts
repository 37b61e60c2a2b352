/**
 * The file system as TypeScript sees it in the semantic worker: every read, existence check,
 * listing and realpath goes through the workspace (outside the root: absent; secrets and `.git`:
 * absent; ignored files inside the root readable for type information only), except TypeScript's
 * own lib `.d.ts` files, read from the typescript package's folder. Paths are absolute: the real
 * root plus the root-relative path.
 *
 * Freshness: what a file looked like (size, mtime, inode) is asked once per request ("epoch"), so
 * a file changed on disk is read again by the next request; files the server wrote are re-read
 * even when their stamp did not change.
 */
import { joinRoot, relativeUnder } from "../../workspace/names.ts";
import type { TypeEntry, Workspace } from "../../workspace/workspace.ts";

const LIB_NAME = /^lib(?:\.[\w-]+)*\.d\.ts$/;
const utf8 = new TextDecoder("utf-8");

interface Cached {
  stamp: string;
  text: string;
}

export class TypeFiles {
  readonly ws: Workspace;
  readonly root: string;
  readonly #libDir: string;
  readonly #maxBytes: number;
  /** Per epoch: lookups by root-relative path (null: absent). */
  #entries = new Map<string, TypeEntry | null>();
  #listings = new Map<string, { files: string[]; dirs: string[] } | null>();
  #served = new Map<string, boolean>();
  readonly #texts = new Map<string, Cached>();
  readonly #libTexts = new Map<string, string | null>();
  /** Bumped per file the server wrote (the stamp may not show a change made within one tick). */
  readonly #touched = new Map<string, number>();
  /** Called after each file read from the workspace (progress while a program builds). */
  onRead: (() => void) | null = null;
  /** Texts that stand in for files for the current question (root-relative path -> text). */
  #overlay = new Map<string, { text: string; version: string }>();

  constructor(ws: Workspace, libDir: string, maxBytes: number) {
    this.ws = ws;
    this.root = ws.root;
    this.#libDir = libDir;
    this.#maxBytes = maxBytes;
  }

  /** A new request: every stamp is asked again. */
  newEpoch(): void {
    this.#entries.clear();
    this.#listings.clear();
    this.#served.clear();
  }

  /**
   * Texts that stand in for existing files until the next call (an empty map ends it): the
   * programs see them as new versions, and see the files again once it ends.
   */
  setOverlay(overlay: Readonly<Record<string, string>>): void {
    this.#overlay.clear();
    let n = 0;
    for (const [rel, text] of Object.entries(overlay)) {
      if (this.#stamp(rel) === null) continue;
      this.#overlay.set(rel, { text, version: `overlay:${++n}:${text.length}:${hashOf(text)}` });
    }
  }

  /** True while an overlay stands in for some files. */
  get overlaid(): boolean {
    return this.#overlay.size > 0;
  }

  /** The server wrote these files: read them again. */
  touch(rels: readonly string[]): void {
    for (const rel of rels) {
      this.#touched.set(rel, (this.#touched.get(rel) ?? 0) + 1);
      this.#texts.delete(rel);
    }
  }

  /** Root-relative path of an absolute one inside the root, else null. */
  relOf(path: string): string | null {
    return relativeUnder(path, this.root);
  }

  absOf(rel: string): string {
    return joinRoot(this.root, rel);
  }

  /** A lib file of the typescript package (its folder, a `lib.*.d.ts` name). */
  isLib(path: string): boolean {
    const slash = path.lastIndexOf("/");
    return path.slice(0, slash) === this.#libDir && LIB_NAME.test(path.slice(slash + 1));
  }

  get libDir(): string {
    return this.#libDir;
  }

  #entry(rel: string): TypeEntry | null {
    let entry = this.#entries.get(rel);
    if (entry === undefined) {
      entry = this.ws.lookupForTypes(rel);
      this.#entries.set(rel, entry);
    }
    return entry;
  }

  /** True when the file is served as such (not only readable for types): its text may be shown. */
  isServed(rel: string): boolean {
    let served = this.#served.get(rel);
    if (served === undefined) {
      try {
        this.ws.resolve(rel);
        served = true;
      } catch {
        served = false;
      }
      this.#served.set(rel, served);
    }
    return served;
  }

  fileExists(path: string): boolean {
    if (this.isLib(path)) return this.#libText(path) !== null;
    const rel = this.relOf(path);
    if (rel === null) return false;
    const entry = this.#entry(rel);
    return entry !== null && entry.isFile && entry.size <= this.#maxBytes;
  }

  directoryExists(path: string): boolean {
    if (path === this.#libDir) return true;
    const rel = this.relOf(path);
    if (rel === null) return false;
    const entry = this.#entry(rel);
    return entry !== null && !entry.isFile;
  }

  /** Subfolder names (ignored ones included: `node_modules/@types`). */
  getDirectories(path: string): string[] {
    return this.#listing(path)?.dirs ?? [];
  }

  /** Files and folders of a folder, ignored ones included. */
  entries(path: string): { files: string[]; directories: string[] } {
    const listing = this.#listing(path);
    return { files: listing?.files ?? [], directories: listing?.dirs ?? [] };
  }

  #listing(path: string): { files: string[]; dirs: string[] } | null {
    const rel = this.relOf(path);
    if (rel === null) return null;
    let listing = this.#listings.get(rel);
    if (listing === undefined) {
      listing = this.ws.listForTypes(rel);
      this.#listings.set(rel, listing);
    }
    return listing;
  }

  /**
   * The served files and folders of a folder (ignored ones left out), for a tsconfig's `include`
   * patterns and the default project: the project is the files the server serves.
   */
  servedEntries(path: string): { files: string[]; directories: string[] } {
    const rel = this.relOf(path);
    const files: string[] = [];
    const directories: string[] = [];
    if (rel === null) return { files, directories };
    try {
      for (const entry of this.ws.walk(rel, { maxDepth: 1, dirs: true })) {
        if (entry.rel === rel) continue;
        const name = entry.rel.slice(entry.rel.lastIndexOf("/") + 1);
        (entry.isDir ? directories : files).push(name);
      }
    } catch {
      // Not a served folder: nothing in it belongs to a project.
    }
    return { files, directories };
  }

  realpath(path: string): string {
    const rel = this.relOf(path);
    if (rel === null) return path;
    return this.#entry(rel)?.abs ?? path;
  }

  /** The version TypeScript compares: changes whenever the file may have changed. */
  version(path: string): string {
    if (this.isLib(path)) return "lib";
    const rel = this.relOf(path);
    if (rel === null) return "absent";
    const overlaid = this.#overlay.get(rel);
    if (overlaid !== undefined) return overlaid.version;
    return this.#stamp(rel) ?? "absent";
  }

  #stamp(rel: string): string | null {
    const entry = this.#entry(rel);
    if (entry === null || !entry.isFile) return null;
    return `${entry.size}:${entry.mtimeMs}:${entry.ino}:${this.#touched.get(rel) ?? 0}`;
  }

  /** The text of a file (BOM dropped, as TypeScript's own reader does), or undefined. */
  readFile(path: string): string | undefined {
    if (this.isLib(path)) return this.#libText(path) ?? undefined;
    const rel = this.relOf(path);
    if (rel === null) return undefined;
    const overlaid = this.#overlay.get(rel);
    if (overlaid !== undefined) return overlaid.text;
    const stamp = this.#stamp(rel);
    if (stamp === null || this.#entry(rel)!.size > this.#maxBytes) return undefined;
    const cached = this.#texts.get(rel);
    if (cached !== undefined && cached.stamp === stamp) return cached.text;
    let bytes: Uint8Array;
    try {
      bytes = this.ws.readFileSync(rel, { maxBytes: this.#maxBytes, forTypes: true });
    } catch {
      return undefined;
    }
    let text = utf8.decode(bytes);
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    this.#texts.set(rel, { stamp, text });
    this.onRead?.();
    return text;
  }

  /** The text the last program read of `rel` (no new read), for rename's before-image. */
  cachedText(rel: string): string | undefined {
    return this.#texts.get(rel)?.text;
  }

  #libText(path: string): string | null {
    let text = this.#libTexts.get(path);
    if (text === undefined) {
      try {
        text = Deno.readTextFileSync(path);
      } catch {
        text = null;
      }
      this.#libTexts.set(path, text);
    }
    return text;
  }
}

/** A short hash of a text (FNV-1a), for overlay versions. */
function hashOf(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16);
}
