/**
 * Candidate files for a name: the files of supported languages whose text holds the name as a
 * word, from one whole-scope scan on the session's search pool (the grep job). Only these files
 * are parsed, so totals stay exact while the parse cost follows the name's rarity.
 */
import type { WorkspaceOptions } from "../workspace/workspace.ts";
import { runGrep } from "../search/grep_job.ts";
import { type PatternSpec, translatePattern } from "../search/pattern.ts";
import type { JobContext, SearchPool } from "../search/pool.ts";
import { languageGlobs, languageOf } from "./languages.ts";

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
  const literal = name.replace(/[^\p{L}\p{N}_]/gu, (ch) => ch.charCodeAt(0) < 128 ? `\\${ch}` : ch);
  const compiled = translatePattern(`${lead}${literal}${tail}`, {
    ignoreCase,
    fixedStrings: false,
    multiline: false,
  });
  if ("error" in compiled) throw new RangeError(`Cannot search for "${name}": ${compiled.error}`);
  return compiled.spec;
}

/** Paths (walk order) of supported-language files that contain the name. */
export async function candidateFiles(
  pool: SearchPool,
  query: CandidateQuery,
  ctx: Omit<JobContext, "fileOf">,
): Promise<string[]> {
  const outcome = await runGrep(pool, {
    ws: query.ws,
    base: query.base,
    single: query.single,
    globs: query.globs,
    typeGlobs: query.typeGlobs.length > 0 ? query.typeGlobs : languageGlobs(),
    spec: candidatePattern(query.name, query.match, query.ignoreCase),
    mode: "files_with_matches",
    content: { before: 0, after: 0, lineNumbers: true },
    collectLines: 0,
    collectChars: 0,
    offset: 0,
  }, ctx);
  return outcome.results.map((r) => r[0]).filter((path) => languageOf(path) !== null);
}
