/**
 * Candidate files for a name: the files of supported languages whose text holds the name as a
 * word, from one whole-scope scan on the session's search pool (the grep job). Only these files
 * are parsed, so totals stay exact while the parse cost follows the name's rarity. The scan is
 * grep's own search (lib/search/search.ts): the trigram index narrows the files it reads when
 * ready, and learns of the search, so a large tree's deferred build starts from symbols too.
 */
import type { WorkspaceOptions } from "../workspace/workspace.ts";
import { search, type SearchEngine, type SearchOutcome } from "../search/search.ts";
import { type PatternSpec, translatePattern } from "../search/pattern.ts";
import type { JobContext } from "../search/pool.ts";
import { cFamilyExtensions, languageGlobs, languageOf } from "./languages.ts";

export type NameMatch = "exact" | "prefix" | "substring";

export interface CandidateQuery {
  ws: WorkspaceOptions;
  /** Root-relative folder, or the single file. */
  base: string;
  single: boolean;
  /** ripgrep -g globs; `typeGlobs`: basename globs of a ripgrep type (empty: every language). */
  globs: string[];
  typeGlobs: string[];
  name: string;
  match: NameMatch;
  ignoreCase: boolean;
}

const ASCII_WORD = /^[A-Za-z0-9_]$/;

/**
 * The scan's pattern (ripgrep syntax): the name taken literally, with a word boundary on each
 * side where the name has a word edge (`$el` or a non-ASCII name needs none there).
 */
export function candidatePattern(name: string, match: NameMatch, ignoreCase: boolean): PatternSpec {
  const lead = match !== "substring" && ASCII_WORD.test(name[0] ?? "") ? "\\b" : "";
  const tail = match === "exact" && ASCII_WORD.test(name[name.length - 1] ?? "") ? "\\b" : "";
  // ASCII punctuation as \xHH: in ripgrep's syntax \< and \> are word-boundary assertions.
  const literal = name.replace(
    /[^\p{L}\p{N}_]/gu,
    (ch) => ch.charCodeAt(0) < 128 ? `\\x${ch.charCodeAt(0).toString(16).padStart(2, "0")}` : ch,
  );
  const compiled = translatePattern(`${lead}${literal}${tail}`, {
    ignoreCase,
    fixedStrings: false,
    multiline: false,
  });
  if ("error" in compiled) throw new RangeError(`Cannot search for "${name}": ${compiled.error}`);
  return compiled.spec;
}

export interface CandidateFiles {
  /** Paths (walk order) of supported-language files that contain the name. */
  paths: string[];
  /**
   * With `definitions`: the C/C++ candidates whose every hit the scan judged surely a use
   * (lib/c_source/definition_sites.ts): they define nothing of that name and need no parse.
   */
  surelyUses: Set<string>;
  /**
   * True when the index judged C/C++ files by the names they may define (an exact name with
   * `definitions`): the files it ruled out are not in `paths`, so `paths` is no longer every
   * file that mentions the name.
   */
  narrowed: boolean;
}

/** An exact name the index's names lists can answer for (name_hashes.ts hashes it). */
const INDEXED_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The candidate files; with `definitions` (find_symbol) the scan also judges C/C++ hits while it
 * has each file's text, so that the parser workers read only files that may define the name.
 */
export async function candidateFiles(
  engine: SearchEngine,
  query: CandidateQuery,
  ctx: Omit<JobContext, "fileOf">,
  options: { definitions: boolean } = { definitions: false },
): Promise<CandidateFiles> {
  const typeGlobs = query.typeGlobs.length > 0 ? query.typeGlobs : languageGlobs();
  const defines = options.definitions && query.match === "exact" && INDEXED_NAME.test(query.name)
    ? query.name
    : undefined;
  const outcome = await mentioning(
    engine,
    query,
    typeGlobs,
    ctx,
    options.definitions ? { extensions: cFamilyExtensions(), defines } : undefined,
  );
  const paths: string[] = [];
  const surelyUses = new Set<string>();
  for (const r of outcome.results) {
    if (languageOf(r.path) === null) continue;
    paths.push(r.path);
    if (r.uses === true) surelyUses.add(r.path);
  }
  return { paths, surelyUses, narrowed: outcome.narrowed === true };
}

/**
 * Paths of the other files of the scope (docs, configuration, languages the symbol tools do not
 * read) that contain the name as a word: what an empty find_symbol answer names beside the
 * source files. Empty when the scope is one file or has a `type`.
 */
export async function otherFiles(
  engine: SearchEngine,
  query: CandidateQuery,
  ctx: Omit<JobContext, "fileOf">,
): Promise<string[]> {
  if (query.single || query.typeGlobs.length > 0) return [];
  const files = await mentioning(engine, query, [], ctx);
  return files.results.map((r) => r.path).filter((path) => languageOf(path) === null);
}

async function mentioning(
  engine: SearchEngine,
  query: CandidateQuery,
  typeGlobs: string[],
  ctx: Omit<JobContext, "fileOf">,
  uses?: { extensions: string[]; defines: string | undefined },
): Promise<SearchOutcome> {
  return await search(engine, {
    ws: query.ws,
    scope: { base: query.base, single: query.single, globs: query.globs, typeGlobs },
    spec: candidatePattern(query.name, query.match, query.ignoreCase),
    mode: "files_with_matches",
    content: { before: 0, after: 0, lineNumbers: true },
    collectLines: 0,
    collectChars: 0,
    offset: 0,
    ...(uses === undefined ? {} : { uses: { extensions: uses.extensions } }),
    ...(uses?.defines === undefined ? {} : { defines: uses.defines }),
  }, ctx);
}
