/**
 * Parsed symbols per file, keyed by (path, size, mtime): a changed file misses. Least recently
 * used entries go first once the entries' estimated size passes the byte budget.
 */
import type { CodeSymbol, FileSymbols } from "./types.ts";

/** Symbols of a file; `bodiesSkipped` when C/C++ function bodies were cut out of the parse. */
export interface CachedSymbols extends FileSymbols {
  bodiesSkipped: boolean;
}

interface Entry {
  size: number;
  mtimeMs: number;
  value: CachedSymbols;
  bytes: number;
}

export class SymbolCache {
  readonly #budget: number;
  readonly #entries = new Map<string, Entry>();
  #bytes = 0;

  constructor(budgetBytes: number) {
    if (!Number.isFinite(budgetBytes) || budgetBytes < 0) {
      throw new RangeError(`budgetBytes must be >= 0, got ${budgetBytes}`);
    }
    this.#budget = budgetBytes;
  }

  /** The symbols of `key` when it was parsed at exactly this size and mtime. */
  get(key: string, size: number, mtimeMs: number): CachedSymbols | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.size !== size || entry.mtimeMs !== mtimeMs) {
      this.#drop(key, entry);
      return undefined;
    }
    // Most recently used last.
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.value;
  }

  set(key: string, size: number, mtimeMs: number, value: CachedSymbols): void {
    const old = this.#entries.get(key);
    if (old !== undefined) this.#drop(key, old);
    const bytes = estimate(value.symbols) + key.length * 2 + 64;
    if (bytes > this.#budget) return;
    this.#entries.set(key, { size, mtimeMs, value, bytes });
    this.#bytes += bytes;
    for (const [k, e] of this.#entries) {
      if (this.#bytes <= this.#budget) break;
      this.#drop(k, e);
    }
  }

  /** Estimated bytes held. */
  get bytes(): number {
    return this.#bytes;
  }

  get size(): number {
    return this.#entries.size;
  }

  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }

  #drop(key: string, entry: Entry): void {
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
  }
}

/** Rough heap bytes of a symbol tree: object overhead plus strings (UTF-16). */
function estimate(symbols: readonly CodeSymbol[]): number {
  let bytes = 0;
  for (const s of symbols) {
    bytes += 120 + s.name.length * 2 + (s.container?.length ?? 0) * 2;
    if (s.scope !== undefined) bytes += 32 + s.scope.join("").length * 2 + s.scope.length * 40;
    if (s.children !== undefined) bytes += 16 + estimate(s.children);
  }
  return bytes;
}
