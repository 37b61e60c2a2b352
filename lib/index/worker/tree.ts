/**
 * The served tree as the index worker sees it: the workspace it walks with (so it serves exactly
 * the files the walk serves), the folder table (each folder with its last listing, stored with
 * the index: folder_table.ts), the folders reached through an inside symlink, and the reading of
 * a file into the index.
 */
import { Workspace, type WorkspaceOptions } from "../../workspace/workspace.ts";
import { joinRoot, relativeUnder } from "../../workspace/names.ts";
import type { ListedFolder, WalkEntry, WalkOptions } from "../../workspace/walk.ts";
import { isUnder } from "../../search/scope.ts";
import { freeNow } from "../../free_buffer.ts";
import type { LayeredIndex } from "../live/layered_index.ts";
import type { FileEntry } from "../live/trigram_index.ts";
import {
  aboveRootRules,
  type FolderRecord,
  type FolderTable,
  recordOf,
} from "../store/folder_table.ts";
import { SLICE_MS, tick } from "./slices.ts";
import type { IndexState } from "./state.ts";

/** A file as a walk saw it. */
export interface Entry extends FileEntry {
  rel: string;
  real: string;
  size: number;
  mtimeMs: number;
}

export class Tree {
  #state: IndexState;
  /** Called after each file is (re-)indexed (a change to write to the cache later). */
  #onIndexed: () => void;
  #ws: Workspace | null = null;
  /**
   * Folders of the tree (a change at one re-walks its subtree), with their last listing: the
   * folder table stored with the index (folder_table.ts).
   */
  #dirs = new Map<string, FolderRecord>();
  /** The state of the ignore files above the root when the root was last walked. */
  #above = "!";
  /** Folders reached through an inside symlink: [named rel, real rel]. */
  #aliases: [string, string][] = [];
  /** Files up to 4 MiB are read into this one buffer; larger ones get their own. */
  #scratch = new Uint8Array(4 * 1024 * 1024);

  constructor(state: IndexState, onIndexed: () => void) {
    this.#state = state;
    this.#onIndexed = onIndexed;
  }

  /** Opens the workspace again (its ignore rules may have changed). */
  open(options: WorkspaceOptions): void {
    this.#ws = Workspace.openSync(options);
  }

  get opened(): boolean {
    return this.#ws !== null;
  }

  get ws(): Workspace {
    if (this.#ws === null) throw new TypeError("The index worker's workspace is not open");
    return this.#ws;
  }

  get root(): string {
    return this.ws.root;
  }

  /** The folder table, changed in place by the re-walks of freshness.ts. */
  get dirs(): Map<string, FolderRecord> {
    return this.#dirs;
  }

  /** The folder table with the state of the ignore files above the root, as stored. */
  get table(): FolderTable {
    return { above: this.#above, folders: this.#dirs };
  }

  /** The folder table is now `folders`: the aliases (folders reached through a link) follow it. */
  setFolders(folders: Map<string, FolderRecord>, aboveRoot: string): void {
    this.#dirs = folders;
    this.#above = aboveRoot;
    const next: [string, string][] = [];
    for (const [rel, r] of folders) {
      const realRel = relativeUnder(r.real, this.root);
      if (realRel !== null && realRel !== rel) next.push([rel, realRel]);
    }
    this.#aliases = next;
  }

  /** Root-relative paths that an event at `path` (absolute) may change, aliases included. */
  relsOf(path: string): string[] {
    const rel = relativeUnder(path, this.root);
    if (rel === null) return [];
    const out = [rel];
    for (const [named, real] of this.#aliases) {
      if (isUnder(rel, real)) out.push(named + rel.slice(real.length));
    }
    return out;
  }

  entryOf(e: {
    rel: string;
    abs: string;
    size: number;
    mtimeMs: number;
    dev?: number;
    ino?: number;
    ctimeMs?: number;
  }): Entry {
    return {
      rel: e.rel,
      real: this.#realOf(e.rel, e.abs),
      size: e.size,
      mtimeMs: e.mtimeMs,
      dev: e.dev ?? 0,
      ino: e.ino ?? 0,
      ctimeMs: e.ctimeMs ?? 0,
    };
  }

  #realOf(rel: string, abs: string): string {
    return this.#ws !== null && abs === joinRoot(this.#ws.root, rel) ? "" : abs;
  }

  /** Reads and (re-)indexes one file; a large file's buffer is freed at once, not by the GC. */
  indexFile(idx: LayeredIndex, e: Entry, skip = false): void {
    const seenAt = Date.now();
    const path = e.real === "" ? joinRoot(this.root, e.rel) : e.real;
    const bytes = skip ? null : this.ws.readWalkedSync(path, this.#scratch);
    idx.add({ ...e, seenAt }, bytes);
    if (bytes !== null && bytes.buffer !== this.#scratch.buffer) freeNow(bytes);
    this.#onIndexed();
  }

  /**
   * Walks the whole tree with stats; yields to the event loop between slices (with `giveWay`,
   * also to the session's heavy calls: give_way.ts). With `visit`, each file goes to it and the
   * answer is empty (the stat pass holds no list of the tree). Null when more than `limit` files,
   * or when a newer generation began.
   */
  async walkAll(
    gen: number,
    limit: number,
    how: { visit?: (e: Entry) => void; giveWay?: boolean } = {},
  ): Promise<Entry[] | null> {
    const visit = how.visit;
    const state = this.#state;
    const entries: Entry[] = [];
    let files = 0;
    const newDirs = new Map<string, FolderRecord>();
    let last = performance.now();
    for (const e of this.recordedWalk("", {}, newDirs)) {
      if (e.isDir) continue;
      if (visit === undefined) entries.push(this.entryOf(e));
      else visit(this.entryOf(e));
      if (++files > limit) return null;
      if ((files & 127) === 0 && performance.now() - last > SLICE_MS) {
        if (state.phase === "checking") state.postChecked(files);
        await (how.giveWay === true ? state.giveWay.turn() : tick());
        if (!state.isCurrent(gen)) return null;
        last = performance.now();
      }
    }
    this.setFolders(newDirs, aboveRootRules(this.root, newDirs.get("")?.listedAt ?? 0));
    return entries;
  }

  /**
   * A walk of `rel` with stats and folders, recording in `into` every folder it reads (with its
   * listing: folder_table.ts) and every folder it only sees (unreadable: recorded as not listed,
   * so that the next start walks it again); with `maxDepth` the subfolders are not recorded.
   */
  *recordedWalk(
    rel: string,
    options: WalkOptions,
    into: Map<string, FolderRecord>,
  ): Generator<WalkEntry> {
    const listed = new Set<string>();
    const onFolder = (f: ListedFolder) => {
      const record = recordOf(f.real, f.readAt, f.entries);
      if (record === null) return;
      into.set(f.rel, record);
      listed.add(f.rel);
    };
    const seenAt = Date.now();
    for (const e of this.ws.walk(rel, { ...options, stat: true, dirs: true, onFolder })) {
      if (e.isDir && options.maxDepth === undefined && !listed.has(e.rel)) {
        into.set(e.rel, unlistedRecord(e.abs, seenAt));
      }
      yield e;
    }
    if (!listed.has(rel) && options.maxDepth === undefined) {
      let real: string | null = null;
      try {
        real = Deno.realPathSync(joinRoot(this.root, rel));
      } catch {
        // gone
      }
      const record = real === null ? null : recordOf(real, seenAt, null);
      if (record !== null) into.set(rel, record);
    }
  }

  /** recordedWalk that ends quietly where the folder cannot be walked (gone, refused). */
  *quietWalk(
    rel: string,
    options: WalkOptions,
    into: Map<string, FolderRecord>,
  ): Generator<WalkEntry> {
    try {
      yield* this.recordedWalk(rel, options, into);
    } catch {
      // missing or refused: nothing below it is served
    }
  }
}

function unlistedRecord(real: string, seenAt: number): FolderRecord {
  return recordOf(real, seenAt, null) ??
    {
      real,
      dev: 0,
      ino: 0,
      mtimeMs: -1,
      ctimeMs: -1,
      listedAt: seenAt,
      listed: false,
      links: "",
      rules: "",
    };
}
