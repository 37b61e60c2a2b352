/**
 * Name-based go_to_definition's ranking (docs/tools.md "go_to_definition"), for files no type
 * engine handles: the definitions spelled like the name at a position, ordered by scope as a
 * reader would look for them. A member access whose owner's type this file declares
 * (`t.reqBox.Set`, field `reqBox *util.EventBox`) puts that type's members first. Then the
 * enclosing scopes: the parameters and locals of the
 * enclosing functions (innermost first), the `self.x =` / `this.x =` / `@x =` assignments of the
 * enclosing class, then definitions inside the enclosing symbols and elsewhere in the file; then
 * the targets of the file's own imports; then the same package or folder; then the rest by path.
 * Parameters, locals and attribute assignments are found on the file's lines within the
 * enclosing symbols' spans (the symbol tree gives the spans), by each language's declaration
 * forms: a reading, not a type resolution, and the answer says it ranked candidates by name.
 */
import type { Workspace } from "../workspace/workspace.ts";
import type { LanguageId } from "./languages.ts";
import type { CodeSymbol } from "./types.ts";
import { ModulePaths } from "./module_path.ts";
import { endsWithParts } from "./qualified_name.ts";

/** A definition as go_to_definition reports it. */
export interface Candidate {
  path: string | null;
  line: number;
  column: number;
  end_line: number;
  kind: string;
  name: string;
  text: string;
}

/** Where the name was asked, and what is known of its file. */
export interface AskedAt {
  path: string;
  /** 1-based line and column of the identifier. */
  line: number;
  column: number;
  name: string;
  language: LanguageId;
  /** The file's text and its symbol tree. */
  text: string;
  symbols: readonly CodeSymbol[];
}

/** A candidate with why it ranks where it does. */
export interface Ranked {
  candidate: Candidate;
  /** `a parameter of "handle"`, `imported by this file`, `same folder`... */
  reason: string;
}

/** The ranking tiers, in order. */
const TIER = {
  scope: 0,
  receiver: 0.5,
  enclosing: 1,
  file: 2,
  imported: 3,
  folder: 4,
  rest: 5,
} as const;

const FUNCTION_KINDS = new Set(["function", "method"]);
const TYPE_KINDS = new Set(["class", "struct", "interface", "enum", "union", "type", "module"]);

/** Ranks `candidates` (and the scope definitions found at `at`) for the position. */
export class ScopeRanker {
  readonly #ws: Workspace;
  readonly #modules: ModulePaths;

  constructor(ws: Workspace) {
    this.#ws = ws;
    this.#modules = new ModulePaths(ws);
  }

  /**
   * `containerOf` names a candidate's enclosing type (its class, struct or receiver), asked only
   * for a member access whose owner's declared type the file shows (`t.reqBox.Set` with a field
   * `reqBox *util.EventBox`): a method of that type then ranks first.
   */
  async rank(
    at: AskedAt,
    candidates: readonly Candidate[],
    containerOf: (c: Candidate) => Promise<string | undefined> = () => Promise.resolve(undefined),
  ): Promise<Ranked[]> {
    const lines = at.text.split("\n").map((l) => l.endsWith("\r") ? l.slice(0, -1) : l);
    const chain = enclosingChain(at.symbols, at.line);
    const owner = ownerType(at, lines, chain);
    const scoped = scopeDefinitions(at, lines, chain);
    const imports = await this.#importTests(at, lines);
    const folder = folderOf(at.path);
    const tiered: Array<{ tier: number; order: number; ranked: Ranked }> = [];
    scoped.forEach((ranked, order) => tiered.push({ tier: TIER.scope, order, ranked }));
    const seen = new Set(scoped.map((r) => `${r.candidate.line}:${r.candidate.column}`));
    for (const [order, candidate] of candidates.entries()) {
      const here = candidate.path === at.path;
      if (here && seen.has(`${candidate.line}:${candidate.column}`)) continue;
      const inside = here ? chain.findLast((s) => within(s, candidate.line)) : undefined;
      let tier: number = TIER.rest;
      let reason = "by path";
      if (owner !== null && await ownedBy(candidate, owner.type, containerOf)) {
        tier = TIER.receiver;
        reason = `a member of "${owner.type}", the type of ${owner.of}`;
      } else if (inside !== undefined) {
        tier = TIER.enclosing;
        reason = `in the enclosing ${inside.kind} "${inside.name}"`;
      } else if (here) {
        tier = TIER.file;
        reason = "in this file";
      } else if (candidate.path !== null && await imports(candidate.path)) {
        tier = TIER.imported;
        reason = "in a module this file imports";
      } else if (candidate.path !== null && folderOf(candidate.path) === folder) {
        tier = TIER.folder;
        reason = at.language === "go" ? "in the same package" : "in the same folder";
      }
      tiered.push({ tier, order, ranked: { candidate, reason } });
    }
    tiered.sort((a, b) =>
      a.tier - b.tier || (a.tier === TIER.rest ? byPath(a.ranked, b.ranked) : a.order - b.order)
    );
    return tiered.map((t) => t.ranked);
  }

  /** A test of whether a file is the target of one of the asked file's imports. */
  async #importTests(
    at: AskedAt,
    lines: readonly string[],
  ): Promise<(path: string) => Promise<boolean>> {
    const own = (await this.#modules.of(at.path))[0] ?? [];
    const specs = importsOf(at.language, lines, own, at.path);
    if (specs.modules.length === 0 && specs.paths.length === 0) return () => Promise.resolve(false);
    return async (path: string) => {
      if (specs.paths.some((p) => pathMatches(path, p))) return true;
      if (specs.modules.length === 0) return false;
      const readings = await this.#modules.of(path);
      return readings.some((reading) =>
        reading.length > 0 &&
        specs.modules.some((m) =>
          endsWithParts(reading, m, false) || endsWithParts(m, reading, false)
        )
      );
    };
  }

  /** The workspace the ranker reads (for callers that share it). */
  get workspace(): Workspace {
    return this.#ws;
  }
}

/** True when `candidate` is a member of the type named `type` (a Go receiver on its line). */
async function ownedBy(
  candidate: Candidate,
  type: string,
  containerOf: (c: Candidate) => Promise<string | undefined>,
): Promise<boolean> {
  const receiver = /^\s*func\s*\(\s*(?:\w+\s+)?\*?\s*(\w+)/.exec(candidate.text);
  if (receiver !== null) return receiver[1] === type;
  const container = await containerOf(candidate);
  return container !== undefined && (container.split(/::|\./).pop() === type);
}

/**
 * For a member access (`t.reqBox.Set`, `self.items.append`): the type its owner is declared
 * with in this file, when a declaration shows it (a Go field or variable, a Python annotation
 * or constructor call, a Rust field or `let` with a type, a Java or C++ declaration); for
 * `self.` / `this.`, the enclosing class.
 */
function ownerType(
  at: AskedAt,
  lines: readonly string[],
  chain: readonly CodeSymbol[],
): { type: string; of: string } | null {
  const before = lines[at.line - 1]?.slice(0, at.column - 1) ?? "";
  const access = /([A-Za-z_]\w*)\s*(?:\.|::|->)\s*$/.exec(before);
  if (access === null) return null;
  const owner = access[1];
  if (owner === "self" || owner === "this") {
    const type = chain.findLast((s) => TYPE_KINDS.has(s.kind));
    return type === undefined ? null : { type: type.name, of: owner };
  }
  const o = escaped(owner);
  const qualified = String.raw`(?:[\w]+(?:\.|::))*`;
  const forms: Record<string, RegExp[]> = {
    go: [
      new RegExp(String.raw`^\s*${o}\s+(?:\[\])?\*?${qualified}([A-Za-z_]\w*)\s*(?:$|//|\x60)`),
      new RegExp(String.raw`\b${o}\s*:?=\s*&?${qualified}([A-Z]\w*)\s*\{`),
      new RegExp(String.raw`\bvar\s+${o}\s+\*?${qualified}([A-Za-z_]\w*)`),
      new RegExp(String.raw`[(,]\s*${o}\s+\*?${qualified}([A-Za-z_]\w*)\s*[,)]`),
    ],
    python: [
      new RegExp(String.raw`\b(?:self\.)?${o}\s*:\s*(?:Optional\[)?${qualified}([A-Za-z_]\w*)`),
      new RegExp(String.raw`\b(?:self\.)?${o}\s*=\s*${qualified}([A-Z]\w*)\(`),
    ],
    rust: [
      new RegExp(
        String.raw`\b${o}\s*:\s*&?(?:mut\s+)?(?:Box<|Rc<|Arc<)?${qualified}([A-Za-z_]\w*)`,
      ),
      new RegExp(String.raw`\blet\s+(?:mut\s+)?${o}\s*=\s*${qualified}([A-Z]\w*)(?:::new|\s*\{)`),
    ],
  };
  const declaration = String
    .raw`(?:^|[\s(,])${qualified}([A-Z]\w*)(?:<[^>]*>)?[\s*&]+${o}\s*[;=,){]`;
  const patterns = forms[at.language] ?? [new RegExp(declaration)];
  for (const line of lines) {
    for (const pattern of patterns) {
      const m = pattern.exec(withoutComment(line));
      if (m !== null) return { type: m[1], of: owner };
    }
  }
  return null;
}

function byPath(a: Ranked, b: Ranked): number {
  const pa = a.candidate.path ?? "";
  const pb = b.candidate.path ?? "";
  return pa < pb ? -1 : pa > pb ? 1 : a.candidate.line - b.candidate.line;
}

function folderOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash < 0 ? "" : path.slice(0, slash);
}

function within(s: CodeSymbol, line: number): boolean {
  return s.start_line <= line && line <= s.end_line;
}

/** The symbols around `line`, outermost first. */
function enclosingChain(symbols: readonly CodeSymbol[], line: number): CodeSymbol[] {
  const chain: CodeSymbol[] = [];
  let level: readonly CodeSymbol[] | undefined = symbols;
  while (level !== undefined) {
    const next: CodeSymbol | undefined = level.find((s) => within(s, line));
    if (next === undefined) break;
    chain.push(next);
    level = next.children;
  }
  return chain;
}

/**
 * The parameters and locals of the enclosing functions (innermost first, the last declaration
 * at or before the asked line), and the enclosing class's attribute assignments when the name
 * is asked as `self.x`, `this.x` or `@x`.
 */
function scopeDefinitions(
  at: AskedAt,
  lines: readonly string[],
  chain: readonly CodeSymbol[],
): Ranked[] {
  const out: Ranked[] = [];
  const before = lines[at.line - 1]?.slice(0, at.column - 1) ?? "";
  const attribute = /(?:\bself\.|\bthis\.|@)$/.test(before);
  if (attribute) {
    const owner = chain.findLast((s) => TYPE_KINDS.has(s.kind));
    if (owner !== undefined) {
      const found = firstMatch(lines, owner, attributePattern(at.name), at.name);
      if (found !== null) {
        out.push(
          rankedAt(
            at,
            lines,
            found,
            "field",
            `assigned in the enclosing ${owner.kind} "${owner.name}"`,
          ),
        );
      }
    }
    return out;
  }
  // A member access (`t.reqBox.Set`) is never a local or a parameter.
  if (/\.\s*$/.test(before) || /::$/.test(before)) return out;
  for (const fn of [...chain].reverse()) {
    if (!FUNCTION_KINDS.has(fn.kind)) continue;
    const header = headerLines(lines, fn, at.language);
    const parameter = firstMatch(
      lines,
      { start_line: fn.line, end_line: header },
      null,
      at.name,
      true,
    );
    if (parameter !== null) {
      out.push(rankedAt(at, lines, parameter, "parameter", `a parameter of "${fn.name}"`));
      return out;
    }
    const local = lastMatch(
      lines,
      header + 1,
      Math.min(at.line, fn.end_line),
      localPatterns(at.language, at.name),
      at.name,
    );
    if (local !== null) {
      out.push(rankedAt(at, lines, local, "variable", `a local of "${fn.name}"`));
      return out;
    }
  }
  return out;
}

function rankedAt(
  at: AskedAt,
  lines: readonly string[],
  found: { line: number; column: number },
  kind: string,
  reason: string,
): Ranked {
  return {
    candidate: {
      path: at.path,
      line: found.line,
      column: found.column,
      end_line: found.line,
      kind,
      name: at.name,
      text: lines[found.line - 1] ?? "",
    },
    reason,
  };
}

/** The last line of a function's header: up to the line that opens its body. */
function headerLines(lines: readonly string[], fn: CodeSymbol, language: LanguageId): number {
  const opens = language === "python"
    ? /:\s*(?:#.*)?$/
    : language === "ruby"
    ? /\)\s*$|^\s*def\s+[\w.?!]+\s*$/
    : /\{/;
  for (let n = fn.line; n <= Math.min(fn.end_line, fn.line + 30); n++) {
    if (opens.test(lines[n - 1] ?? "")) return n;
  }
  return fn.line;
}

/** `self.x =`, `this.x =`, `@x =` (not `==`), with an optional Python annotation. */
function attributePattern(name: string): RegExp {
  return new RegExp(`(?:\\bself\\.|\\bthis\\.|@)(${escaped(name)})\\s*(?::[^=]+)?=(?!=)`);
}

/** The declaration forms of a local in each language; group 1 is the name. */
function localPatterns(language: LanguageId, name: string): RegExp[] {
  const n = `(${escaped(name)})`;
  switch (language) {
    case "python":
      return [
        new RegExp(`^\\s*(?:[\\w.]+\\s*,\\s*)*${n}\\s*(?:,\\s*[\\w.]+\\s*)*(?::[^=]+)?=(?!=)`),
        new RegExp(`^\\s*(?:async\\s+)?for\\s+(?:[\\w]+\\s*,\\s*)*\\(?${n}\\b.*\\bin\\b`),
        new RegExp(`\\bas\\s+${n}\\b`),
        new RegExp(`^\\s*(?:async\\s+)?def\\s+${n}\\b`),
      ];
    case "go":
      return [
        new RegExp(`(?:^|[\\s,(])${n}\\s*(?:,\\s*\\w+\\s*)*:=`),
        new RegExp(`\\bvar\\s+${n}\\b`),
        new RegExp(`\\b(?:var|const)\\s+\\(?[^)]*\\b${n}\\b`),
      ];
    case "rust":
      return [
        new RegExp(`\\blet\\s+(?:mut\\s+)?${n}\\b`),
        new RegExp(`\\blet\\s*\\(.*\\b${n}\\b`),
        new RegExp(`\\bfor\\s+(?:\\(.*)?\\b${n}\\b.*\\bin\\b`),
        new RegExp(`\\|[^|]*\\b${n}\\b[^|]*\\|`),
      ];
    case "ruby":
      return [
        new RegExp(`^\\s*(?:\\w+\\s*,\\s*)*${n}\\s*(?:,\\s*\\w+\\s*)*=(?![=~>])`),
        new RegExp(`\\|[^|]*\\b${n}\\b[^|]*\\|`),
      ];
    default:
      // C, C++, Java: `Type name =`, `Type *name;`, `for (Type name :`.
      return [
        new RegExp(
          `^\\s*(?!return\\b|else\\b|case\\b|goto\\b|delete\\b|throw\\b|new\\b)` +
            `(?:[\\w:<>,\\[\\]]+[\\s*&]+)+${n}\\s*(?:=(?!=)|;|\\[|,|:(?!:)|\\{|\\))`,
        ),
      ];
  }
}

/** The first line in `span` where `pattern` (or, with `word`, the bare word) matches. */
function firstMatch(
  lines: readonly string[],
  span: { start_line: number; end_line: number },
  pattern: RegExp | null,
  name: string,
  afterName = false,
): { line: number; column: number } | null {
  const word = new RegExp(`(?<![\\w$])${escaped(name)}(?![\\w$])`);
  for (let n = span.start_line; n <= span.end_line; n++) {
    let text = lines[n - 1] ?? "";
    let offset = 0;
    if (afterName && n === span.start_line) {
      // A parameter: after the function's own name and its opening parenthesis.
      const open = text.indexOf("(");
      if (open < 0) continue;
      offset = open;
      text = text.slice(open);
    }
    const code = withoutComment(text);
    const m = pattern === null ? word.exec(code) : pattern.exec(code);
    if (m === null) continue;
    const at = pattern === null ? m.index : m.index + m[0].indexOf(m[1] ?? name);
    return { line: n, column: offset + at + 1 };
  }
  return null;
}

/** The last line in [from, to] where one of `patterns` matches. */
function lastMatch(
  lines: readonly string[],
  from: number,
  to: number,
  patterns: readonly RegExp[],
  name: string,
): { line: number; column: number } | null {
  for (let n = to; n >= from; n--) {
    const code = withoutComment(lines[n - 1] ?? "");
    for (const pattern of patterns) {
      const m = pattern.exec(code);
      if (m === null) continue;
      const at = m.index + m[0].lastIndexOf(m[1] ?? name);
      return { line: n, column: at + 1 };
    }
  }
  return null;
}

/** `name` as a regex that matches it literally (a `$` in a JavaScript name). */
function escaped(name: string): string {
  return name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** A line without its trailing `#` or `//` comment (a guess that ignores strings). */
function withoutComment(line: string): string {
  return line.replace(/\s(?:#|\/\/).*$/, "");
}

/** What a file imports: module paths (parts) and path tails. */
interface Imports {
  modules: string[][];
  paths: string[];
}

/** The imports written in a file, by its language's forms. */
function importsOf(
  language: LanguageId,
  lines: readonly string[],
  ownModule: readonly string[],
  path: string,
): Imports {
  const out: Imports = { modules: [], paths: [] };
  const text = lines.join("\n");
  if (language === "python") {
    for (const m of text.matchAll(/^\s*from\s+(\.*)([\w.]*)\s+import\b/gm)) {
      const up = m[1].length;
      const base = up === 0 ? [] : ownModule.slice(0, Math.max(0, ownModule.length - up));
      const parts = [...base, ...(m[2] === "" ? [] : m[2].split("."))];
      if (parts.length > 0) out.modules.push(parts);
    }
    for (
      const m of text.matchAll(
        /^\s*import\s+([\w.]+(?:\s+as\s+\w+)?(?:\s*,\s*[\w.]+(?:\s+as\s+\w+)?)*)/gm,
      )
    ) {
      for (const one of m[1].split(",")) out.modules.push(one.trim().split(/\s+/)[0].split("."));
    }
  } else if (language === "go") {
    for (const m of text.matchAll(/^\s*(?:import\s+)?(?:[\w.]+\s+)?"([^"\n]+)"\s*$/gm)) {
      out.paths.push(`${m[1]}/`);
    }
  } else if (language === "rust") {
    for (const m of text.matchAll(/^\s*(?:pub\s+)?use\s+([\w:]+)/gm)) {
      const parts = m[1].split("::").filter((p) =>
        p !== "" && p !== "crate" && p !== "self" && p !== "super"
      );
      if (parts.length > 0) out.modules.push(parts, parts.slice(0, -1));
    }
    for (const m of text.matchAll(/^\s*(?:pub\s+)?mod\s+(\w+)\s*;/gm)) out.modules.push([m[1]]);
  } else if (language === "java") {
    for (const m of text.matchAll(/^\s*import\s+(?:static\s+)?([\w.]+?)(?:\.\*)?\s*;/gm)) {
      const parts = m[1].split(".");
      out.modules.push(parts, parts.slice(0, -1));
    }
  } else if (language === "c" || language === "cpp") {
    for (const m of text.matchAll(/^\s*#\s*include\s*[<"]([^>"\n]+)[>"]/gm)) {
      out.paths.push(m[1]);
      // The header's own source file beside it defines what it declares.
      out.paths.push(
        m[1].replace(/\.(h|hh|hpp|hxx)$/, ".c"),
        m[1].replace(/\.(h|hh|hpp|hxx)$/, ".cc"),
        m[1].replace(/\.(h|hh|hpp|hxx)$/, ".cpp"),
      );
    }
  } else if (language === "ruby") {
    const folder = folderOf(path);
    for (const m of text.matchAll(/^\s*require(_relative)?\s*\(?\s*['"]([^'"\n]+)['"]/gm)) {
      const file = m[2].endsWith(".rb") ? m[2] : `${m[2]}.rb`;
      out.paths.push(
        m[1] === undefined ? file : normalize(folder === "" ? file : `${folder}/${file}`),
      );
    }
  }
  return out;
}

/** `a/./b/../c` -> `a/c`. */
function normalize(path: string): string {
  const out: string[] = [];
  for (const part of path.split("/")) {
    if (part === "." || part === "") continue;
    if (part === "..") out.pop();
    else out.push(part);
  }
  return out.join("/");
}

/**
 * True when `path` is what an import names: the same path or one ending with it (`x/y.h`); a
 * Go import path (`github.com/o/r/src/tui/`) names the folder it ends with.
 */
function pathMatches(path: string, named: string): boolean {
  if (named.endsWith("/")) {
    const folder = folderOf(path);
    return folder !== "" && (named === `${folder}/` || named.endsWith(`/${folder}/`));
  }
  return path === named || path.endsWith(`/${named}`);
}
