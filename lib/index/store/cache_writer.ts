/**
 * The cache writer: the only code of a read-only session that may write, and only inside the
 * cache folder (a worker created with `write: [CACHE]` before the main thread gives up its write
 * permission: Deno refuses it everything else). It does nothing but what the index worker asks
 * through its port: take the per-root lock, write a file under a temp name and rename it into
 * place, remove files, reset a per-root folder. Every name is checked; nothing it is sent is run.
 * No imports: it loads before the handshake and must cost nothing.
 */
/// <reference lib="deno.worker" />

/** A per-root key: hex digits only. */
const KEY = /^[0-9a-f]{32,64}$/;
/** A file name inside a per-root folder. */
const NAME = /^[a-z0-9][a-z0-9._-]{0,100}$/;

export type ToWriter =
  | { t: "lock"; key: string }
  | { t: "put"; id: number; key: string; name: string; parts: Uint8Array[] }
  /** A file written in pieces: begin, append..., end (renamed into place) or abort. */
  | { t: "begin"; id: number; key: string; name: string }
  /** With `ack`: answered ("done" with that id) once the bytes are written. */
  | { t: "append"; id: number; bytes: Uint8Array; ack?: number }
  | { t: "end"; id: number }
  | { t: "abort"; id: number }
  | { t: "remove"; id: number; key: string; names: string[] }
  | { t: "reset"; id: number; key: string };

export type FromWriter =
  | { t: "locked"; key: string }
  | { t: "lock-failed"; key: string; message: string }
  | { t: "done"; id: number; error: string };

function lstatOrNull(path: string): Deno.FileInfo | null {
  try {
    return Deno.lstatSync(path);
  } catch {
    return null;
  }
}

/** Makes `path` a real folder of mode 0700: whatever else is there (a link, a file) goes. */
function ensureFolder(path: string): void {
  const info = lstatOrNull(path);
  if (info !== null && info.isDirectory && !info.isSymlink) return;
  if (info !== null) Deno.removeSync(path);
  Deno.mkdirSync(path, { mode: 0o700 });
}

/**
 * Gives a written chunk's memory back at once: a shard passes through here 4 MiB at a time, and
 * the collector of this small worker would otherwise hold tens of MiB of written chunks.
 */
function freeNow(bytes: Uint8Array): void {
  const buffer = bytes.buffer as ArrayBuffer & { transfer?: (length: number) => ArrayBuffer };
  if (bytes.byteOffset !== 0 || buffer.byteLength !== bytes.byteLength) return;
  try {
    buffer.transfer?.(0);
  } catch {
    // not transferable: the collector frees it
  }
}

/** The writer of one cache folder, answering the index worker through its port. */
class CacheWriter {
  #dir: string;
  #port: MessagePort;
  /** Lock files held (one per root key), open for as long as the process lives. */
  #held = new Map<string, Deno.FsFile>();
  #temps = 0;
  /** Files being written in pieces: id -> handle, temp path, final path, first error. */
  #open = new Map<number, { file: Deno.FsFile; temp: string; path: string; error: string }>();

  constructor(dir: string, port: MessagePort) {
    this.#dir = dir;
    this.#port = port;
  }

  #reply(message: FromWriter): void {
    this.#port.postMessage(message);
  }

  /** One message of the index worker: done, and answered ("done" with its id, or the lock's). */
  onMessage(m: ToWriter): void {
    if (m.t === "lock") {
      if (!KEY.test(m.key)) {
        this.#reply({ t: "lock-failed", key: m.key, message: "invalid cache key" });
        return;
      }
      this.#lock(m.key);
      return;
    }
    if (m.t === "append") {
      this.#append(m.id, m.bytes);
      if (m.ack !== undefined) this.#reply({ t: "done", id: m.ack, error: "" });
      return;
    }
    let error = "";
    try {
      if (m.t === "put") this.#put(m.id, m.key, m.name, m.parts);
      else if (m.t === "begin") this.#begin(m.id, m.key, m.name);
      else if (m.t === "end") this.#end(m.id, true);
      else if (m.t === "abort") this.#end(m.id, false);
      else if (m.t === "remove") this.#remove(m.key, m.names);
      else if (m.t === "reset") this.#reset(m.key);
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
    }
    this.#reply({ t: "done", id: m.id, error });
  }

  async #lock(key: string): Promise<void> {
    if (this.#held.has(key)) return this.#reply({ t: "locked", key });
    const path = `${this.#dir}/${key}.lock`;
    try {
      const info = lstatOrNull(path);
      // Only a plain file is opened: a FIFO would hang the open, a link would lead elsewhere.
      if (info !== null && (!info.isFile || info.isSymlink)) {
        Deno.removeSync(path, { recursive: info.isDirectory });
      }
      const file = Deno.openSync(path, { read: true, write: true, create: true, mode: 0o600 });
      const opened = file.statSync();
      if (!opened.isFile) {
        file.close();
        throw new Error("the lock is not a plain file");
      }
      this.#held.set(key, file);
      await file.lock(true);
      this.#reply({ t: "locked", key });
    } catch (error) {
      this.#held.delete(key);
      this.#reply({
        t: "lock-failed",
        key,
        message: error instanceof Error ? error.message : String(error),
      });
    }
  }

  #check(key: string, names: string[]): void {
    if (!KEY.test(key)) throw new Error(`invalid cache key "${key}"`);
    for (const name of names) {
      if (!NAME.test(name)) throw new Error(`invalid cache name "${name}"`);
    }
    if (!this.#held.has(key)) {
      throw new Error("this process does not hold the lock of the cache folder");
    }
  }

  #begin(id: number, key: string, name: string): void {
    this.#check(key, [name]);
    const folder = `${this.#dir}/${key}`;
    ensureFolder(folder);
    const temp = `${folder}/${name}.tmp.${Date.now().toString(36)}.${(this.#temps++).toString(36)}`;
    const file = Deno.openSync(temp, { write: true, createNew: true, mode: 0o600 });
    this.#open.set(id, { file, temp, path: `${folder}/${name}`, error: "" });
  }

  #append(id: number, bytes: Uint8Array): void {
    const w = this.#open.get(id);
    try {
      if (w === undefined || w.error !== "") return;
      let done = 0;
      while (done < bytes.length) done += w.file.writeSync(bytes.subarray(done));
    } catch (error) {
      w!.error = error instanceof Error ? error.message : String(error);
    } finally {
      freeNow(bytes);
    }
  }

  /** Flushes, closes and renames into place (or removes, on abort or an earlier error). */
  #end(id: number, keep: boolean): void {
    const w = this.#open.get(id);
    if (w === undefined) throw new Error("no such file being written");
    this.#open.delete(id);
    try {
      if (keep && w.error === "") w.file.syncDataSync();
    } finally {
      w.file.close();
    }
    if (!keep || w.error !== "") {
      Deno.removeSync(w.temp);
      if (w.error !== "") throw new Error(w.error);
      return;
    }
    Deno.renameSync(w.temp, w.path);
  }

  #put(id: number, key: string, name: string, parts: Uint8Array[]): void {
    this.#begin(id, key, name);
    for (const part of parts) this.#append(id, part);
    this.#end(id, true);
  }

  #remove(key: string, names: string[]): void {
    this.#check(key, names);
    for (const name of names) {
      try {
        Deno.removeSync(`${this.#dir}/${key}/${name}`);
      } catch (error) {
        if (!(error instanceof Deno.errors.NotFound)) throw error;
      }
    }
  }

  #reset(key: string): void {
    this.#check(key, []);
    const folder = `${this.#dir}/${key}`;
    const info = lstatOrNull(folder);
    if (info !== null) Deno.removeSync(folder, { recursive: info.isDirectory && !info.isSymlink });
    Deno.mkdirSync(folder, { mode: 0o700 });
  }
}

/** From the main thread: the cache folder, then the port the index worker talks through. */
self.onmessage = (event: MessageEvent<{ t: "open"; dir: string; port: MessagePort }>) => {
  const m = event.data;
  if (m.t !== "open") return;
  self.onmessage = null; // one folder, one port
  const writer = new CacheWriter(m.dir, m.port);
  m.port.onmessage = (message: MessageEvent<ToWriter>) => writer.onMessage(message.data);
};
