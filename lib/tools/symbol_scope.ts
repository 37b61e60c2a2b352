/** What the symbol tools share: the candidate files of a scope, name checks, parse refusals. */
import { type ToolContext, ToolError } from "./tool.ts";
import { scopeOf, searchFailure } from "./search_support.ts";
import type { ScopeArguments, SearchScope } from "../search/scope.ts";
import { holdingIndexNotice } from "../search/search.ts";
import { candidateFiles, type NameMatch, otherFiles } from "../symbols/candidates.ts";
import { languageNames, languageOf } from "../symbols/languages.ts";
import type { UnparsedReason } from "../symbols/worker_protocol.ts";
import type { ParseOptions } from "../symbols/service.ts";
import type { PatternSpec } from "../search/pattern.ts";

/**
 * The parse of a call that wants only the definitions of the names `wanted` (the candidate
 * scan's per-line regex) matches: C/C++ files are cut to what may define them and a file of
 * many symbols hands over only those; with `regions` (an exact name) only the items around its
 * possible definitions are parsed.
 */
export function definitionsParse(
  ctx: ToolContext,
  wanted: PatternSpec,
  regions: boolean,
): ParseOptions {
  const pattern = { source: wanted.source, flags: wanted.flags };
  return {
    signal: ctx.signal,
    maxBytes: ctx.config.maxReadBytes,
    definitionsOnly: true,
    definitionOf: pattern,
    keep: pattern,
    regions,
  };
}

/**
 * The scope of path, glob and type, and the files in it that mention `name` as a whole word (one
 * scan on the search pool, or the trigram index when it is ready). ToolError (or WorkspaceError)
 * for the model to fix. The index hears of the scan only when the caller calls `release` (in a
 * `finally`, after its parse): see lib/search/search.ts holdingIndexNotice.
 */
export async function symbolCandidates(
  ctx: ToolContext,
  args: ScopeArguments,
  query: { name: string; match: NameMatch; ignoreCase: boolean },
  options: { definitions: boolean } = { definitions: false },
): Promise<
  {
    scope: SearchScope;
    candidates: string[];
    surelyUses: Set<string>;
    /** The index left out files that mention the name but cannot define it (candidates.ts). */
    narrowed: boolean;
    release: () => void;
  }
> {
  const scope = scopeOf(ctx.workspace, args);
  if (scope.single) supportedLanguage(scope.base, "search");
  const held = holdingIndexNotice(ctx.session);
  try {
    const found = await candidateFiles(held.engine, {
      ws: ctx.workspace.options,
      ...scope,
      ...query,
    }, {
      signal: ctx.signal,
      progress: (n) => ctx.progress(n),
      timeoutMs: ctx.config.regexTimeoutMs,
    }, options);
    return {
      scope,
      candidates: found.paths,
      surelyUses: found.surelyUses,
      narrowed: found.narrowed,
      release: held.release,
    };
  } catch (error) {
    held.release();
    throw searchFailure(error, query.name, ctx.config.regexTimeoutMs);
  }
}

/**
 * How many source files of the scope mention `name` as a word, for an empty answer whose
 * candidates the index narrowed (one more scan, only then).
 */
export async function sourceMentions(
  ctx: ToolContext,
  scope: SearchScope,
  query: { name: string; match: NameMatch; ignoreCase: boolean },
): Promise<number> {
  try {
    const found = await candidateFiles(ctx.session, {
      ws: ctx.workspace.options,
      ...scope,
      ...query,
    }, {
      signal: ctx.signal,
      progress: () => {},
      timeoutMs: ctx.config.regexTimeoutMs,
    });
    return found.paths.length;
  } catch (error) {
    throw searchFailure(error, query.name, ctx.config.regexTimeoutMs);
  }
}

/**
 * The files of the scope in no language the symbol tools read (docs, configuration) that mention
 * `name` as a word: what an empty answer names (one more scan, only then).
 */
export async function otherMentions(
  ctx: ToolContext,
  scope: SearchScope,
  query: { name: string; match: NameMatch; ignoreCase: boolean },
): Promise<string[]> {
  try {
    return await otherFiles(ctx.session, { ws: ctx.workspace.options, ...scope, ...query }, {
      signal: ctx.signal,
      progress: () => {},
      timeoutMs: ctx.config.regexTimeoutMs,
    });
  } catch (error) {
    throw searchFailure(error, query.name, ctx.config.regexTimeoutMs);
  }
}

/** Throws the ToolError naming the languages when `path` is not in one of them. */
export function supportedLanguage(path: string, verb: string): void {
  if (languageOf(path) === null) {
    throw new ToolError(
      `Cannot ${verb} "${path}": not a file of a supported language; symbols are read from ` +
        `${languageNames()} files`,
    );
  }
}

/** A name as the symbol tools take it: one identifier-like word. */
export function checkName(name: string): void {
  if (name.length > 256) throw new ToolError("The name is too long; give at most 256 characters");
  if (/\s/.test(name) || name === "") {
    throw new ToolError(
      `Invalid name "${name}": give one identifier without spaces (use grep for phrases)`,
    );
  }
}

/** The refusal for a file the parser did not read. */
export function parseRefusal(
  path: string,
  outcome: { reason: UnparsedReason; size?: number },
  maxBytes: number,
): ToolError {
  if (outcome.reason === "too-large") {
    return new ToolError(
      `Cannot read symbols of "${path}": it is ${outcome.size} bytes, over the ${maxBytes}-byte ` +
        `limit; use grep or read_file with offset and limit (the user can raise the limit by ` +
        "restarting the server with --max-read-bytes)",
    );
  }
  if (outcome.reason === "heap") {
    return new ToolError(
      `Cannot read symbols of "${path}": its syntax tree needs more memory than a parser ` +
        `worker may use; use grep or read_file with offset and limit`,
    );
  }
  if (outcome.reason === "binary") {
    return new ToolError(`Cannot read symbols of "${path}": it is a binary file`);
  }
  return new ToolError(`Cannot read symbols of "${path}": it could not be read; try again`);
}
