/**
 * What this session has read (docs/tools.md "Read before write"): for each file, by its real
 * path, the size, mtime and SHA-256 of the content read_file or resources/read last returned.
 * The edit tools refuse a file that is not here, or whose content differs from what was read.
 * One tracker per session, never shared.
 */

export interface ReadState {
  size: number;
  mtimeMs: number;
  sha256: string;
}

/** Files remembered at most; the oldest are forgotten first (they must then be read again). */
const MAX_FILES = 10_000;

export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>),
  );
  let hex = "";
  for (const b of digest) hex += b.toString(16).padStart(2, "0");
  return hex;
}

export class ReadTracker {
  readonly #files = new Map<string, ReadState>();

  /** Remembers the content of `abs` (a real path) as read. */
  record(abs: string, state: ReadState): void {
    this.#files.delete(abs);
    if (this.#files.size >= MAX_FILES) this.#files.delete(this.#files.keys().next().value!);
    this.#files.set(abs, state);
  }

  /** Remembers `bytes` as the content of `abs`, as read now (hashes them first). */
  async recordBytes(
    abs: string,
    bytes: Uint8Array,
    stat: { size: number; mtimeMs: number },
  ): Promise<ReadState> {
    const state = { size: stat.size, mtimeMs: stat.mtimeMs, sha256: await sha256Hex(bytes) };
    this.record(abs, state);
    return state;
  }

  get(abs: string): ReadState | undefined {
    return this.#files.get(abs);
  }

  forget(abs: string): void {
    this.#files.delete(abs);
  }
}
