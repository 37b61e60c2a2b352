/**
 * The definitions of a name that a qualified name keeps (docs/tools.md "find_symbol"): each
 * definition's qualified paths (its module's readings, then its enclosing names) and the test
 * of the asked container's parts against them. find_symbol and find_references share it.
 */
import type { ToolContext } from "./tool.ts";
import type { Found } from "./definition_tally.ts";
import { definitionsParse } from "./symbol_scope.ts";
import { candidatePattern } from "../symbols/candidates.ts";
import type { CodeSymbol } from "../symbols/types.ts";
import { enclosingNames, endsWithParts } from "../symbols/qualified_name.ts";
import { ModulePaths } from "../symbols/module_path.ts";
import { languageOf } from "../symbols/languages.ts";

/** The definitions in one file's symbol tree that pass, sorted by line (then column). */
export function collect(
  path: string,
  symbols: readonly CodeSymbol[],
  keep: (s: CodeSymbol) => boolean,
): Found[] {
  const out: Array<Found & { column: number }> = [];
  const visit = (list: readonly CodeSymbol[]) => {
    for (const s of list) {
      if (keep(s)) {
        const found: Found & { column: number } = {
          path,
          line: s.line,
          end_line: s.end_line,
          kind: s.kind,
          name: s.name,
          column: s.column,
        };
        if (s.container !== undefined) found.container = s.container;
        if (s.scope !== undefined) found.scope = s.scope;
        out.push(found);
      }
      if (s.children !== undefined) visit(s.children);
    }
  };
  visit(symbols);
  return out.sort((a, b) => a.line - b.line || a.column - b.column)
    .map(({ column: _, ...found }) => found);
}

/** The separator of a language's qualified names. */
function separatorOf(path: string): string {
  const id = languageOf(path)?.id;
  return id === "rust" || id === "cpp" || id === "c" || id === "ruby" ? "::" : ".";
}

/**
 * `fastapi.routing.APIRouter (fastapi/routing.py:12)`: where a definition outside the asked
 * container is, in its language's qualified form (its first module reading).
 */
export function qualifiedPlace(f: Found): string {
  const path = [...(f.qualifiers?.[0] ?? []), f.name].join(separatorOf(f.path));
  return `${path} (${f.path}:${f.line})`;
}

/** Gives each definition its qualified paths: each module reading, then its enclosing names. */
export async function qualify(modules: ModulePaths, path: string, named: Found[]): Promise<void> {
  const readings = await modules.of(path);
  for (const f of named) {
    const enclosing = enclosingNames(f);
    f.qualifiers = readings.map((module) => [...module, ...enclosing]);
  }
}

/** True when one of the definition's qualified paths ends with the asked container's parts. */
export function inAskedContainer(f: Found, parts: readonly string[], ignoreCase: boolean): boolean {
  return parts.length === 0 ||
    (f.qualifiers ?? []).some((path) => endsWithParts(path, parts, ignoreCase));
}

/**
 * The definitions of `name` (exact) in `candidates`, split by whether they are in the asked
 * container (`parts`), each with its qualified paths; files not parsed are left out.
 */
export async function qualifiedDefinitions(
  ctx: ToolContext,
  query: { name: string; parts: readonly string[] },
  candidates: readonly string[],
): Promise<{ inside: Found[]; outside: Found[] }> {
  const ws = ctx.workspace;
  const wanted = candidatePattern(query.name, "exact", false);
  const modules = new ModulePaths(ws);
  const pending: Array<Promise<Found[]>> = [];
  const parse = definitionsParse(ctx, wanted, true);
  await ctx.session.symbols.eachFile(ws, candidates, parse, (path, outcome) => {
    if (!outcome.ok) return;
    const named = collect(path, outcome.symbols, (s) => s.name === query.name);
    if (named.length > 0) pending.push(qualify(modules, path, named).then(() => named));
  });
  const inside: Found[] = [];
  const outside: Found[] = [];
  for (const f of (await Promise.all(pending)).flat()) {
    (inAskedContainer(f, query.parts, false) ? inside : outside).push(f);
  }
  const order = (a: Found, b: Found) =>
    a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line;
  return { inside: inside.sort(order), outside: outside.sort(order) };
}
