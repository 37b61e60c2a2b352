/**
 * What diagnostics checks under a path (docs/tools.md "diagnostics"): the files of the scope
 * sorted by who checks them (the engine that handles each, from the session's router), the files
 * no engine handles by their language, and those files' syntax errors from the tree-sitter parse
 * (the symbol service), as diagnostics with code "syntax". Files of no known language are not
 * counted. The syntax check stops between batches once SYNTAX_BUDGET_MS has passed, and says so.
 */
import type { ToolContext } from "./tool.ts";
import { searchFailure } from "./search_support.ts";
import { runGlob } from "../search/walk_jobs.ts";
import { languageOf } from "../symbols/languages.ts";
import type { Diagnostic } from "../semantic/engine.ts";

/** The scope's files by who checks them. */
export interface Census {
  /** Engine id -> files of the scope it handles. */
  byEngine: Map<string, number>;
  /** Language name -> the files of the scope no engine handles. */
  unchecked: Map<string, string[]>;
}

/** What the syntax check of the unchecked files found. */
export interface SyntaxFindings {
  diagnostics: Diagnostic[];
  /** Files parsed; files that could not be (binary, too large, out of heap). */
  parsed: number;
  unparsed: number;
  /** Error regions past the ones listed per file. */
  unlisted: number;
  /** Why the check stopped before every file was parsed, when it did. */
  stopped?: string;
}

/** How long the syntax check of files no engine handles may run before it stops. */
export const SYNTAX_BUDGET_MS = 20_000;
/** Files per syntax batch: the time bound is checked between batches. */
const SYNTAX_BATCH = 256;

/** The files of the scope (`rel`: a file, a folder, "" for the root) by who checks them. */
export async function censusOf(ctx: ToolContext, rel: string): Promise<Census> {
  const census: Census = { byEngine: new Map(), unchecked: new Map() };
  for (const path of await filesOf(ctx, rel)) {
    const engine = ctx.session.semantic.engineFor(path);
    if (engine !== null) {
      census.byEngine.set(engine.id, (census.byEngine.get(engine.id) ?? 0) + 1);
      continue;
    }
    const language = languageOf(path);
    if (language === null) continue;
    const list = census.unchecked.get(language.name) ?? [];
    list.push(path);
    census.unchecked.set(language.name, list);
  }
  return census;
}

async function filesOf(ctx: ToolContext, rel: string): Promise<string[]> {
  if (rel !== "" && ctx.workspace.kind(rel) === "file") return [rel];
  try {
    const found = await runGlob(ctx.session.pool, {
      ws: ctx.workspace.options,
      base: rel,
      globs: ["**"],
    }, {
      signal: ctx.signal,
      progress: () => {},
      timeoutMs: ctx.config.regexTimeoutMs,
    });
    return found.map((f) => f.rel).sort();
  } catch (error) {
    throw searchFailure(error, "**", ctx.config.regexTimeoutMs);
  }
}

/** `12 Go files, 3 Rust files`: the unchecked files by language, most first. */
export function uncheckedWords(unchecked: Census["unchecked"]): string {
  return [...unchecked].sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1))
    .map(([name, files]) => `${files.length} ${name} file${files.length === 1 ? "" : "s"}`)
    .join(", ");
}

/** The syntax errors of the files no engine handles, from their tree-sitter parse. */
export async function syntaxFindings(
  ctx: ToolContext,
  unchecked: Census["unchecked"],
): Promise<SyntaxFindings> {
  const files = [...unchecked.values()].flat().sort();
  const findings: SyntaxFindings = { diagnostics: [], parsed: 0, unparsed: 0, unlisted: 0 };
  const started = performance.now();
  for (let from = 0; from < files.length; from += SYNTAX_BATCH) {
    if (from > 0 && performance.now() - started > SYNTAX_BUDGET_MS) {
      findings.stopped = `Syntax checked in ${from} of ${files.length} files not type-checked ` +
        `before the ${SYNTAX_BUDGET_MS / 1000} s bound; name a narrower path for the rest`;
      break;
    }
    const checks = await ctx.session.symbols.syntaxErrors(
      ctx.workspace,
      files.slice(from, from + SYNTAX_BATCH),
      {
        signal: ctx.signal,
        maxBytes: ctx.config.maxReadBytes,
        progress: (n) => ctx.progress(from + n, files.length, "files parsed"),
      },
    );
    for (const { path, check } of checks) {
      if (!check.ok) {
        findings.unparsed++;
        continue;
      }
      findings.parsed++;
      findings.unlisted += check.total - check.regions.length;
      const language = languageOf(path)?.name ?? "its language";
      for (const region of check.regions) {
        findings.diagnostics.push({
          path,
          line: region.line,
          column: region.column,
          code: "syntax",
          category: "error",
          message: region.missing === undefined
            ? `text from here does not parse as ${language}`
            : `missing ${JSON.stringify(region.missing)} here`,
          source: "tree-sitter",
        });
      }
    }
  }
  return findings;
}
