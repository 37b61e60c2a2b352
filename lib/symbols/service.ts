/**
 * The symbol service of a session: parsed symbols per file from the cache or the parser workers,
 * and a name's occurrences. Nothing of tree-sitter loads until the first call.
 */
import type { WorkQueue } from "../work_queue.ts";
import type { Workspace } from "../workspace/workspace.ts";
import { SymbolCache } from "./cache.ts";
import { ParserPool, type ParserPoolOptions } from "./parser_pool.ts";
import type { FileSymbols } from "./types.ts";
import type { SyntaxRegion } from "./syntax_errors.ts";
import type { ParsedFile, UnparsedReason } from "./worker_protocol.ts";

export interface SymbolServiceOptions extends ParserPoolOptions {
  /** Budget of the per-file symbol cache (default 32 MiB). */
  cacheBytes?: number;
  /** The session's work queue: parsing holds one unit while it runs. */
  queue?: WorkQueue;
}

/** A file's syntax error regions, or why it was not parsed. */
export type SyntaxCheck =
  | { ok: true; regions: SyntaxRegion[]; total: number }
  | { ok: false; reason: UnparsedReason };

/** A file's symbols, or why it has none. */
export type FileOutcome =
  | ({ ok: true } & FileSymbols)
  | { ok: false; reason: UnparsedReason; size?: number };

export interface ParseOptions {
  signal: AbortSignal;
  /** Files over this many bytes are not parsed (`too-large`). */
  maxBytes: number;
  /** Called with the number of files done so far. */
  progress?: (done: number) => void;
  /**
   * Definitions are all that is needed (find_symbol): C/C++ function bodies may be cut out of
   * the parse, and such cache entries serve only such calls (an outline's `partial` must cover
   * the whole file).
   */
  definitionsOnly?: boolean;
  /**
   * With definitionsOnly: the regex of the name looked for (per line, as the candidate scan
   * used it). A C/C++ file that mentions it only inside function bodies is not parsed; its
   * outcome then lists no symbols (it defines nothing of that name) and is not cached.
   */
  definitionOf?: { source: string; flags: string };
  /**
   * With definitionsOnly: the names the call wants (a regex every wanted name matches). A file
   * with thousands of symbols then hands over only those, flattened, and is not cached; so does
   * every file of a call that parses more than KEEP_ALL_FILES files (a prefix over a whole tree,
   * whose symbols the cache could not hold anyway: they would only churn through it and the
   * heaps).
   */
  keep?: { source: string; flags: string };
  /**
   * With definitionOf: a C/C++ file is parsed only around the name's possible definitions (its
   * outcome lists those items' symbols and is not cached as the file's).
   */
  regions?: boolean;
}

/** Files per parse batch, and bytes: enough to amortise a message, small enough to spread. */
const BATCH_FILES = 24;
const BATCH_BYTES = 512 * 1024;
/**
 * A batch with this many bytes (a file of megabytes: a generated header of 70,000 macros) is
 * parsed alone (ParserPool `alone`): its tree and symbols grow a worker's heaps the most.
 */
export const ALONE_BYTES = 1024 * 1024;
/** Files to parse above which a call with `keep` gets only the wanted symbols of every file. */
export const KEEP_ALL_FILES = 2048;

export class SymbolService {
  readonly cache: SymbolCache;
  readonly parsers: ParserPool;
  readonly #queue: WorkQueue | null;

  constructor(options: SymbolServiceOptions = {}) {
    this.cache = new SymbolCache(options.cacheBytes ?? 32 * 1024 * 1024);
    this.parsers = new ParserPool(options);
    this.#queue = options.queue ?? null;
  }

  /**
   * Parses the batches holding units of the work queue (when there is one): one for a single
   * batch, every unit when the batches spread over the parser workers. `oneAtATime` (a
   * find_symbol over more than KEEP_ALL_FILES files, a prefix over a whole tree): every batch runs
   * alone, so one worker parses them all, one heap instead of two (about 1.5x the time).
   */
  async #parseAll(
    files: Array<{ path: string; size: number }>,
    parse: (batch: string[], options: { alone: boolean }) => Promise<void>,
    signal: AbortSignal,
    oneAtATime = false,
  ): Promise<void> {
    if (files.length === 0) return;
    const list = batches(files);
    const queue = this.#queue;
    const release = queue === null
      ? null
      : await queue.acquire(signal, list.length > 1 ? "all" : 1);
    try {
      await Promise.all(
        list.map((batch) =>
          parse(batch.files, { alone: oneAtATime || batch.bytes >= ALONE_BYTES })
        ),
      );
    } finally {
      release?.();
      this.parsers.shed();
    }
  }

  /** Symbols of each file (root-relative paths of supported languages), from the cache first. */
  async symbols(
    ws: Workspace,
    paths: readonly string[],
    options: ParseOptions,
  ): Promise<Map<string, FileOutcome>> {
    const out = new Map<string, FileOutcome>();
    await this.eachFile(ws, paths, options, (path, outcome) => out.set(path, outcome));
    return out;
  }

  /**
   * Hands each file's symbols to `take` as soon as they are there (cache hits first, then batch
   * by batch, in no set order), holding none of them: a call over a whole tree keeps only what
   * `take` keeps.
   */
  async eachFile(
    ws: Workspace,
    paths: readonly string[],
    options: ParseOptions,
    take: (path: string, outcome: FileOutcome) => void,
  ): Promise<void> {
    const misses: Array<{ path: string; size: number }> = [];
    let done = 0;
    for (const path of paths) {
      const info = ws.stamp(path);
      if (info !== null) {
        if (info.size > options.maxBytes) {
          take(path, { ok: false, reason: "too-large", size: info.size });
          done++;
          continue;
        }
        const hit = this.cache.get(cacheKey(ws, path), info.size, info.mtimeMs);
        if (hit !== undefined && (!hit.bodiesSkipped || options.definitionsOnly === true)) {
          take(path, {
            ok: true,
            symbols: hit.symbols,
            partial: hit.partial,
            ...(hit.errorLine === undefined ? {} : { errorLine: hit.errorLine }),
            ...(hit.language === undefined ? {} : { language: hit.language }),
          });
          done++;
          continue;
        }
      }
      misses.push({ path, size: info?.size ?? 0 });
    }
    options.progress?.(done);
    await this.#parseAll(
      misses,
      async (batch, lane) => {
        const files = await this.parsers.parse(
          {
            ws: ws.options,
            files: batch,
            maxBytes: options.maxBytes,
            skipBodies: options.definitionsOnly === true,
            definitionOf: options.definitionsOnly === true ? options.definitionOf : undefined,
            keep: options.definitionsOnly === true ? options.keep : undefined,
            keepAll: options.definitionsOnly === true && options.keep !== undefined &&
              misses.length > KEEP_ALL_FILES,
            regions: options.definitionsOnly === true && options.regions === true,
          },
          options.signal,
          lane,
        );
        for (const file of files) take(file.path, this.#absorb(ws, file));
        done += files.length;
        options.progress?.(done);
      },
      options.signal,
      misses.length > KEEP_ALL_FILES,
    );
  }

  /**
   * Where `name` occurs as an identifier in each file (with `context` lines around), parsing
   * every file; the symbols found on the way fill the cache.
   */
  async references(
    ws: Workspace,
    paths: readonly string[],
    query: { name: string; context: number },
    options: ParseOptions,
  ): Promise<ParsedFile[]> {
    const sized: Array<{ path: string; size: number }> = [];
    const out: ParsedFile[] = [];
    for (const path of paths) {
      const info = ws.stamp(path);
      if (info !== null && info.size > options.maxBytes) {
        out.push({ path, ok: false, reason: "too-large", size: info.size });
      } else sized.push({ path, size: info?.size ?? 0 });
    }
    let done = out.length;
    await this.#parseAll(sized, async (batch, lane) => {
      const files = await this.parsers.parse(
        { ws: ws.options, files: batch, maxBytes: options.maxBytes, references: query },
        options.signal,
        lane,
      );
      for (const file of files) {
        this.#absorb(ws, file);
        // The symbols went to the cache; the answer keeps only the references and their lines.
        out.push(file.ok ? { ...file, symbols: [] } : file);
      }
      done += files.length;
      options.progress?.(done);
    }, options.signal);
    // In the order asked (the walk's path order).
    const rank = new Map(paths.map((path, i) => [path, i]));
    return out.sort((a, b) => rank.get(a.path)! - rank.get(b.path)!);
  }

  /**
   * The syntax error regions of each file (lib/symbols/syntax_errors.ts), from a whole parse (its
   * symbols fill the cache on the way), for the files no type engine checks. In the order asked.
   */
  async syntaxErrors(
    ws: Workspace,
    paths: readonly string[],
    options: ParseOptions,
  ): Promise<Array<{ path: string; check: SyntaxCheck }>> {
    const out = new Map<string, SyntaxCheck>();
    const sized: Array<{ path: string; size: number }> = [];
    for (const path of paths) {
      const info = ws.stamp(path);
      if (info !== null && info.size > options.maxBytes) {
        out.set(path, { ok: false, reason: "too-large" });
      } else sized.push({ path, size: info?.size ?? 0 });
    }
    let done = out.size;
    await this.#parseAll(sized, async (batch, lane) => {
      const files = await this.parsers.parse(
        { ws: ws.options, files: batch, maxBytes: options.maxBytes, syntax: true },
        options.signal,
        lane,
      );
      for (const file of files) {
        this.#absorb(ws, file);
        out.set(
          file.path,
          file.ok
            ? { ok: true, ...(file.syntax ?? { regions: [], total: 0 }) }
            : { ok: false, reason: file.reason },
        );
      }
      done += files.length;
      options.progress?.(done);
    }, options.signal);
    return paths.map((path) => ({
      path,
      check: out.get(path) ?? { ok: false, reason: "unreadable" },
    }));
  }

  /**
   * Starts the parser workers now, without waiting: a call that scans for candidates first has
   * them ready by the time its first batch is parsed.
   */
  warm(ws: Workspace): void {
    this.parsers.warm(ws.options);
  }

  /** Stops the parser workers and empties the cache. */
  stop(): void {
    this.parsers.stop();
    this.cache.clear();
  }

  #absorb(ws: Workspace, file: ParsedFile): FileOutcome {
    if (!file.ok) return { ok: false, reason: file.reason, size: file.size };
    if (file.pruned === true) return { ok: true, symbols: [], partial: false };
    const errorLine = file.errorLine === undefined ? {} : { errorLine: file.errorLine };
    if (file.filtered === true || file.regions === true) {
      return { ok: true, symbols: file.symbols, partial: file.partial, ...errorLine };
    }
    const key = cacheKey(ws, file.path);
    const language = file.language === undefined ? {} : { language: file.language };
    this.cache.set(key, file.size, file.mtimeMs, {
      symbols: file.symbols,
      partial: file.partial,
      bodiesSkipped: file.bodiesSkipped,
      ...errorLine,
      ...language,
    });
    return { ok: true, symbols: file.symbols, partial: file.partial, ...errorLine, ...language };
  }
}

function cacheKey(ws: Workspace, path: string): string {
  return `${ws.root}\0${path}`;
}

function batches(files: Array<{ path: string; size: number }>): Batch[] {
  const out: Batch[] = [];
  let current: string[] = [];
  let bytes = 0;
  for (const file of files) {
    if (current.length > 0 && (current.length >= BATCH_FILES || bytes + file.size > BATCH_BYTES)) {
      out.push({ files: current, bytes });
      current = [];
      bytes = 0;
    }
    current.push(file.path);
    bytes += file.size;
  }
  if (current.length > 0) out.push({ files: current, bytes });
  return out;
}

interface Batch {
  files: string[];
  /** Their sizes as stat gave them. */
  bytes: number;
}
