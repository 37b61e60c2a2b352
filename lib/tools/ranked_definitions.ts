/**
 * Name-based go_to_definition (files no type engine handles): the definitions spelled like the
 * identifier at a position (name_definitions.ts) with the parameters, locals and attribute
 * assignments of its enclosing scopes, ranked by scope (lib/symbols/scope_rank.ts), and the note
 * that says how many candidates there were and which ranks first.
 */
import type { ToolContext } from "./tool.ts";
import { ToolError } from "./tool.ts";
import { definitionsByName } from "./name_definitions.ts";
import type { Definition, FilePosition } from "../semantic/engine.ts";
import { identifierAt } from "../semantic/positions.ts";
import { ScopeRanker } from "../symbols/scope_rank.ts";
import { languageOf } from "../symbols/languages.ts";
import type { CodeSymbol } from "../symbols/types.ts";

/** Candidate files whose symbols are read to name a candidate's container, at most. */
const CONTAINER_FILES = 20;

/**
 * A candidate's container from its file's symbol tree (read once per file, for at most
 * CONTAINER_FILES files), for the ranking of a member access by its owner's type.
 */
function containersOf(
  ctx: ToolContext,
  candidates: readonly Definition[],
): (c: Definition) => Promise<string | undefined> {
  const files = new Map<string, Promise<CodeSymbol[]>>();
  const paths = new Set(candidates.flatMap((c) => c.path === null ? [] : [c.path]));
  return async (c) => {
    if (c.path === null || paths.size > CONTAINER_FILES) return undefined;
    let symbols = files.get(c.path);
    if (symbols === undefined) {
      symbols = ctx.session.symbols.symbols(ctx.workspace, [c.path], {
        signal: ctx.signal,
        maxBytes: ctx.config.maxReadBytes,
      }).then((found) => {
        const outcome = found.get(c.path!);
        return outcome?.ok ? outcome.symbols : [];
      });
      files.set(c.path, symbols);
    }
    return containerAt(await symbols, c.line, c.column);
  };
}

/** The container of the symbol named at `line`:`column`, at any depth. */
function containerAt(
  symbols: readonly CodeSymbol[],
  line: number,
  column: number,
): string | undefined {
  for (const s of symbols) {
    if (s.line === line && s.column === column) return s.container;
    if (s.children !== undefined && s.start_line <= line && line <= s.end_line) {
      const inner = containerAt(s.children, line, column);
      if (inner !== undefined) return inner;
    }
  }
  return undefined;
}

/** The ranked definitions of the identifier at `at`, and the note saying how they were ranked. */
export async function rankedByName(
  ctx: ToolContext,
  at: FilePosition,
): Promise<{ definitions: Definition[]; note: string | null }> {
  const bytes = ctx.workspace.readFileSync(at.path, { maxBytes: ctx.config.maxReadBytes });
  let text = new TextDecoder().decode(bytes);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const found = identifierAt(text, at.path, at);
  if (!found.ok) throw new ToolError(found.message);
  const candidates = await definitionsByName(ctx, found.word);
  const language = languageOf(at.path)?.id;
  if (language === undefined) return { definitions: candidates, note: null };
  const outcome = (await ctx.session.symbols.symbols(ctx.workspace, [at.path], {
    signal: ctx.signal,
    maxBytes: ctx.config.maxReadBytes,
  })).get(at.path);
  const symbols: CodeSymbol[] = outcome?.ok ? outcome.symbols : [];
  const ranked = await new ScopeRanker(ctx.workspace).rank(
    {
      path: at.path,
      line: found.line,
      column: found.column,
      name: found.word,
      language,
      text,
      symbols,
    },
    candidates,
    containersOf(ctx, candidates),
  );
  if (ranked.length === 0) return { definitions: [], note: null };
  const first = ranked[0];
  const { path, line, column } = first.candidate;
  const count = ranked.length === 1 ? "1 candidate" : `${ranked.length} candidates`;
  return {
    definitions: ranked.map((r) => r.candidate),
    note: `${path}:${line}:${column} is first of ${count} by name, ranked by scope: ` +
      first.reason,
  };
}
