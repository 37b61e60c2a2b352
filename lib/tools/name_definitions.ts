/**
 * Definitions of a name from syntax trees, for the answers no type engine gives
 * (go_to_definition on a file no engine handles): the candidate files that mention the name
 * (symbol_scope.ts), their symbols from the session's symbol service, every definition spelled
 * exactly so (nested ones too), in candidate order then line and column, each with its line.
 */
import type { ToolContext } from "./tool.ts";
import { definitionsParse, symbolCandidates } from "./symbol_scope.ts";
import { candidatePattern } from "../symbols/candidates.ts";
import type { CodeSymbol } from "../symbols/types.ts";
import type { Definition } from "../semantic/engine.ts";
import { lineStarts, lineText } from "../semantic/positions.ts";
import { cutLine } from "../read/long_lines.ts";

/** At most this many definitions (as find_symbol's page of 100 gave). */
const MAX_DEFINITIONS = 100;

/** The definitions of `name` in the whole workspace, each with the text of its line. */
export async function definitionsByName(ctx: ToolContext, name: string): Promise<Definition[]> {
  const ws = ctx.workspace;
  ctx.session.symbols.warm(ws);
  const query = { name, match: "exact" as const, ignoreCase: false };
  const { candidates, surelyUses, release } = await symbolCandidates(ctx, {}, query, {
    definitions: true,
  });
  const wanted = candidatePattern(name, "exact", false);
  const found = new Map<string, CodeSymbol[]>();
  const toParse = candidates.filter((path) => !surelyUses.has(path));
  const parse = definitionsParse(ctx, wanted, true);
  await ctx.session.symbols.eachFile(ws, toParse, parse, (path, outcome) => {
    if (outcome.ok) found.set(path, named(outcome.symbols, name));
  }).finally(release);
  const out: Definition[] = [];
  for (const path of candidates) {
    const symbols = found.get(path) ?? [];
    if (symbols.length === 0) continue;
    const lines = fileLines(ctx, path);
    for (const s of symbols) {
      if (out.length === MAX_DEFINITIONS) return out;
      out.push({
        path,
        line: s.line,
        column: s.column,
        end_line: s.end_line,
        kind: s.kind,
        name: s.name,
        text: lines === null ? "" : cutLine(lineText(lines.text, lines.starts, s.line)),
      });
    }
  }
  return out;
}

/** The symbols of a tree named `name`, nested ones too, by line then column. */
function named(symbols: readonly CodeSymbol[], name: string): CodeSymbol[] {
  const out: CodeSymbol[] = [];
  const visit = (list: readonly CodeSymbol[]) => {
    for (const s of list) {
      if (s.name === name) out.push(s);
      if (s.children !== undefined) visit(s.children);
    }
  };
  visit(symbols);
  return out.sort((a, b) => a.line - b.line || a.column - b.column);
}

function fileLines(ctx: ToolContext, path: string): { text: string; starts: number[] } | null {
  try {
    const bytes = ctx.workspace.readFileSync(path, { maxBytes: ctx.config.maxReadBytes });
    let text = new TextDecoder().decode(bytes);
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    return { text, starts: lineStarts(text) };
  } catch {
    return null;
  }
}
