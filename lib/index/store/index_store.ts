/**
 * The stored index of one root, as the index worker sees it: a per-root folder in the cache
 * folder, keyed by the root's real path, its device and inode and the flags that change what is
 * served; in it a manifest naming the live shards (a base and at most one delta). Reads are the
 * worker's own (read permission); every write goes through the cache writer's port, and only
 * while this process holds the root's lock (one writer at a time; the others read what is
 * complete). Shards are immutable and renamed into place before the manifest that names them:
 * a reader sees the old state or the new one, never half of one, and kill -9 leaves at worst an
 * orphan shard or temp file, swept by the next writer.
 */
import { checksum } from "./checksum.ts";
import type { FromWriter, ToWriter } from "./cache_writer.ts";
import { encodeShardParts, type ShardInput } from "./shard_format.ts";
import { openPlainFile, ShardError, StoredShard } from "./stored_shard.ts";
import { FORMAT, MANIFEST, type RootIdentity } from "./root_key.ts";

const MAX_MANIFEST_BYTES = 64 * 1024;
/** Chunks of a shard (4 MiB each) sent to the writer before waiting for it to take them. */
const IN_FLIGHT_CHUNKS = 4;

interface Manifest {
  format: number;
  key: string;
  identity: RootIdentity;
  base: string;
  delta: string | null;
  written: number;
  sum: number;
}

function manifestSum(m: Omit<Manifest, "sum">): number {
  return checksum(new TextEncoder().encode(JSON.stringify([
    m.format,
    m.key,
    m.identity,
    m.base,
    m.delta,
    m.written,
  ])));
}

function sameIdentity(a: RootIdentity, b: unknown): boolean {
  const o = b as RootIdentity;
  return typeof o === "object" && o !== null && o.root === a.root && o.dev === a.dev &&
    o.ino === a.ino && o.noIgnore === a.noIgnore && o.allowSecrets === a.allowSecrets;
}

const SHARD_NAME = /^(base|delta)-[0-9a-z]{1,40}\.shard$/;

export interface LoadedShards {
  base: StoredShard;
  delta: StoredShard | null;
}

export class IndexStore {
  readonly key: string;
  readonly folder: string;
  readonly #identity: RootIdentity;
  readonly #port: MessagePort;
  #next = 1;
  readonly #waiting = new Map<number, (error: string) => void>();
  #locked = false;
  #onLocked: (() => void) | null = null;
  /** The manifest this process last read or wrote. */
  #current: { base: string; delta: string | null } | null = null;

  constructor(port: MessagePort, dir: string, key: string, identity: RootIdentity) {
    this.key = key;
    this.folder = `${dir}/${key}`;
    this.#identity = identity;
    this.#port = port;
    port.onmessage = (event: MessageEvent<FromWriter>) => {
      const m = event.data;
      if (m.t === "locked") {
        this.#locked = true;
        this.#onLocked?.();
      } else if (m.t === "done") {
        const resolve = this.#waiting.get(m.id);
        this.#waiting.delete(m.id);
        resolve?.(m.error);
      }
    };
  }

  /** Asks for the root's lock; `then` runs once this process holds it (maybe never). */
  lock(then: () => void): void {
    this.#onLocked = then;
    this.#send({ t: "lock", key: this.key });
  }

  get locked(): boolean {
    return this.#locked;
  }

  #send(message: ToWriter, transfer: Transferable[] = []): void {
    this.#port.postMessage(message, transfer);
  }

  #ask(build: (id: number) => ToWriter, transfer: Transferable[] = []): Promise<void> {
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, (error) => error === "" ? resolve() : reject(new Error(error)));
      this.#send(build(id), transfer);
    });
  }

  /**
   * The stored shards, checked; null when there is none; a ShardError (or any other error)
   * says why a stored index was not usable.
   */
  load(): LoadedShards | null {
    const m = this.#readManifest();
    if (m === null) return null;
    const base = StoredShard.open(`${this.folder}/${m.base}`, this.key);
    let delta: StoredShard | null = null;
    if (m.delta !== null) {
      try {
        delta = StoredShard.open(`${this.folder}/${m.delta}`, this.key);
      } catch (error) {
        base.close();
        throw error;
      }
    }
    this.#current = { base: m.base, delta: m.delta };
    return { base, delta };
  }

  /** The manifest on disk, checked; null when there is none; ShardError when it is bad. */
  #readManifest(): Manifest | null {
    let folder: Deno.FileInfo;
    try {
      folder = Deno.lstatSync(this.folder);
    } catch {
      return null;
    }
    if (folder.isSymlink || !folder.isDirectory) throw new ShardError("the folder is not a folder");
    let opened: { file: Deno.FsFile; size: number };
    try {
      opened = openPlainFile(`${this.folder}/${MANIFEST}`, MAX_MANIFEST_BYTES);
    } catch (error) {
      if (error instanceof ShardError && error.message === "missing") return null;
      throw new ShardError(`manifest: ${error instanceof Error ? error.message : error}`);
    }
    let m: Manifest;
    try {
      const bytes = new Uint8Array(opened.size);
      let done = 0;
      while (done < bytes.length) {
        const n = opened.file.readSync(bytes.subarray(done));
        if (n === null || n === 0) break;
        done += n;
      }
      m = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(0, done)));
    } catch {
      throw new ShardError("unreadable manifest");
    } finally {
      opened.file.close();
    }
    if (typeof m !== "object" || m === null || m.format !== FORMAT) {
      throw new ShardError("a manifest of another format version");
    }
    if (m.sum !== manifestSum(m)) throw new ShardError("manifest checksum");
    if (m.key !== this.key || !sameIdentity(this.#identity, m.identity)) {
      throw new ShardError("a cache of another root");
    }
    if (typeof m.base !== "string" || !SHARD_NAME.test(m.base)) {
      throw new ShardError("bad shard name");
    }
    if (m.delta !== null && (typeof m.delta !== "string" || !SHARD_NAME.test(m.delta))) {
      throw new ShardError("bad shard name");
    }
    return m;
  }

  /** Streams a shard to the writer under `name`; resolves once it is renamed into place. */
  async writeShard(name: string, input: ShardInput): Promise<void> {
    const id = this.#next++;
    const began = new Promise<string>((resolve) => this.#waiting.set(id, resolve));
    this.#send({ t: "begin", id, key: this.key, name });
    try {
      // Each chunk is a fresh buffer: handed over, not copied. Every few chunks wait until the
      // writer has written them, so that the shard is never queued whole in memory.
      let sent = 0;
      for (const bytes of encodeShardParts(input)) {
        if (++sent % IN_FLIGHT_CHUNKS !== 0) {
          this.#send({ t: "append", id, bytes }, [bytes.buffer as ArrayBuffer]);
          continue;
        }
        await this.#ask(
          (ack) => ({ t: "append", id, bytes, ack }),
          [bytes.buffer as ArrayBuffer],
        );
      }
    } catch (error) {
      this.#send({ t: "abort", id });
      throw error;
    }
    const beginError = await began;
    if (beginError !== "") throw new Error(beginError);
    const ended = new Promise<string>((resolve) => this.#waiting.set(id, resolve));
    this.#send({ t: "end", id });
    const endError = await ended;
    if (endError !== "") throw new Error(endError);
  }

  /** Names `base` (and `delta`) as the live shards, then removes every other shard file. */
  async commit(base: string, delta: string | null): Promise<void> {
    const body = {
      format: FORMAT,
      key: this.key,
      identity: this.#identity,
      base,
      delta,
      written: Date.now(),
    };
    const manifest: Manifest = { ...body, sum: manifestSum(body) };
    const bytes = new TextEncoder().encode(JSON.stringify(manifest));
    await this.#ask((id) => ({ t: "put", id, key: this.key, name: MANIFEST, parts: [bytes] }));
    this.#current = { base, delta };
    await this.sweep();
  }

  /** Removes the files of the folder that the manifest does not name (orphans, temp files). */
  async sweep(): Promise<void> {
    const keep = new Set([MANIFEST, this.#current?.base, this.#current?.delta]);
    // What another server wrote meanwhile (and the manifest on disk names) stays too.
    try {
      const onDisk = this.#readManifest();
      if (onDisk !== null) {
        for (const name of [onDisk.base, onDisk.delta]) keep.add(name ?? undefined);
      }
    } catch {
      // unreadable: only this process's own files are kept
    }
    const names: string[] = [];
    let foreign = false;
    try {
      for (const e of Deno.readDirSync(this.folder)) {
        if (keep.has(e.name)) continue;
        if (e.isFile && /^[a-z0-9][a-z0-9._-]{0,100}$/.test(e.name)) names.push(e.name);
        else foreign = true;
      }
    } catch {
      return;
    }
    try {
      if (names.length > 0) await this.#ask((id) => ({ t: "remove", id, key: this.key, names }));
    } catch {
      foreign = true;
    }
    // Anything else in there was not written by us: the folder is emptied (the next write rebuilds).
    if (foreign && this.#current === null) await this.reset();
  }

  /** Empties the per-root folder (whatever is there: a link, a file, broken contents). */
  async reset(): Promise<void> {
    this.#current = null;
    await this.#ask((id) => ({ t: "reset", id, key: this.key }));
  }
}
