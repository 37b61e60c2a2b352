/**
 * find_symbol's answer built while the candidates' definitions arrive, holding only what can be
 * shown: the page (a PageBuilder over the definitions in answer order: candidate order, then
 * line) and counts for the rest. Files arrive in no set order (cache hits first, then parse
 * batches as workers finish them), so a file's definitions wait until every earlier candidate
 * has arrived, and only while the page is still open; once it has ended, a file adds counts
 * alone. A prefix that matches a million definitions of a whole tree thus holds one page of
 * them, whatever the prefix.
 */
import type { SymbolKind } from "../symbols/types.ts";
import { type EntrySize, type Page, PageBuilder, type PageRequest } from "./paging.ts";

/** One definition as find_symbol reports it. */
export interface Found {
  path: string;
  line: number;
  end_line: number;
  kind: SymbolKind;
  name: string;
  container?: string;
  /** Every enclosing name, when the container does not say them all (CodeSymbol `scope`). */
  scope?: readonly string[];
  /**
   * The definition's qualified paths, one per reading of its module (module_path.ts), each its
   * module's parts then its enclosing names; only for a qualified name (not shown).
   */
  qualifiers?: string[][];
}

/** How many definitions outside the asked container an empty answer names. */
export const ELSEWHERE_SHOWN = 5;

export interface TallyFilters {
  /** The container asked for (`Class.method`), or always true. */
  inContainer: (f: Found) => boolean;
  /** The kind asked for, or null for every kind. */
  kind: SymbolKind | null;
}

export interface Tally {
  page: Page<Found>;
  /** Definitions that pass both filters (the answer's total). */
  total: number;
  /** Definitions of the name in the asked container, whatever their kind: count by kind. */
  placedKinds: Map<string, number>;
  /** Definitions of the name outside the asked container: the first few in answer order. */
  elsewhere: Found[];
  /** How many definitions of the name are outside the asked container. */
  elsewhereTotal: number;
}

export class DefinitionTally {
  readonly #filters: TallyFilters;
  readonly #rank: Map<string, number>;
  readonly #builder: PageBuilder<Found>;
  /** Definitions (passing the filters) of files that arrived before an earlier candidate did. */
  readonly #waiting = new Map<number, Found[]>();
  readonly #arrived: boolean[];
  /** The first candidate not yet taken in order. */
  #next = 0;
  /** Definitions passing the filters in the files taken in order so far, while the page is open. */
  #ordered = 0;
  #total = 0;
  readonly #placedKinds = new Map<string, number>();
  /** The first definitions outside the asked container, by candidate rank then line. */
  #elsewhere: Array<{ at: number; found: Found }> = [];
  #elsewhereTotal = 0;

  constructor(
    candidates: readonly string[],
    filters: TallyFilters,
    page: { request: PageRequest; size: (f: Found) => EntrySize },
  ) {
    this.#filters = filters;
    this.#rank = new Map(candidates.map((path, i) => [path, i]));
    this.#arrived = new Array(candidates.length).fill(false);
    this.#builder = new PageBuilder(page.request, page.size);
  }

  /**
   * A candidate's definitions of the name (sorted by line), or none (not parsed, or defines no
   * such name). Each candidate once.
   */
  add(path: string, named: readonly Found[]): void {
    const at = this.#rank.get(path);
    if (at === undefined || this.#arrived[at]) return;
    this.#arrived[at] = true;
    const shown: Found[] = [];
    for (const f of named) {
      if (!this.#filters.inContainer(f)) {
        this.#outside(at, f);
        continue;
      }
      this.#placedKinds.set(f.kind, (this.#placedKinds.get(f.kind) ?? 0) + 1);
      if (this.#filters.kind !== null && f.kind !== this.#filters.kind) continue;
      this.#total++;
      shown.push(f);
    }
    if (at === this.#next) {
      this.#take(shown);
      this.#next++;
      this.#drain();
    } else if (shown.length > 0) {
      // Held only while it may still be shown; else only its count matters (already taken).
      this.#waiting.set(at, this.#builder.open ? shown : []);
    }
  }

  /** Definitions held, waiting for an earlier candidate (tests: what the tally keeps). */
  get held(): number {
    let n = 0;
    for (const list of this.#waiting.values()) n += list.length;
    return n + this.#builder.page().items.length;
  }

  /** The answer once every candidate was added (a candidate never added counts as none). */
  finish(): Tally {
    while (this.#next < this.#arrived.length) {
      this.#arrived[this.#next] = true;
      this.#next++;
      this.#drain();
    }
    return {
      page: this.#builder.page(),
      total: this.#total,
      placedKinds: this.#placedKinds,
      elsewhere: this.#elsewhere.map((e) => e.found),
      elsewhereTotal: this.#elsewhereTotal,
    };
  }

  /** A definition of the name outside the asked container: counted, the first few kept. */
  #outside(at: number, found: Found): void {
    this.#elsewhereTotal++;
    const kept = this.#elsewhere;
    if (kept.length >= ELSEWHERE_SHOWN) {
      const last = kept[kept.length - 1];
      if (last.at < at || (last.at === at && last.found.line <= found.line)) return;
    }
    kept.push({ at, found });
    kept.sort((a, b) => a.at - b.at || a.found.line - b.found.line);
    if (kept.length > ELSEWHERE_SHOWN) kept.pop();
  }

  /** Takes the waiting files that now come next in order. */
  #drain(): void {
    while (this.#next < this.#arrived.length && this.#arrived[this.#next]) {
      const list = this.#waiting.get(this.#next);
      if (list !== undefined) {
        this.#waiting.delete(this.#next);
        this.#take(list);
      }
      this.#next++;
    }
  }

  /** One file's shown definitions, in answer order. */
  #take(list: readonly Found[]): void {
    // Once the page has ended nothing later is shown, and its ranks no longer matter.
    for (const f of list) {
      if (!this.#builder.open) return;
      this.#builder.offer(f, this.#ordered++);
    }
  }
}
