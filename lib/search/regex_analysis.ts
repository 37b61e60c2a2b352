/**
 * What the matcher needs to know about a JavaScript regex source to search fast yet exactly:
 * literals that every match must contain (a cheap prefilter), whether it has lookarounds (which
 * can see past a line end), whether it can match a newline (rg's multiline count rule), and a
 * variant for whole-text candidate search that does not run across lines.
 */

export interface RegexAnalysis {
  /** Every match contains at least one of these (case-sensitive), or null when unknown. */
  literals: string[] | null;
  /** Lookahead or lookbehind present: whole-text search could differ from per-line matching. */
  lookaround: boolean;
  /** The pattern may match "\n" (with the `s` flag when `dotAll`). */
  canMatchNewline: boolean;
  /** The source rewritten so that `\s`, `\W`, `\D` and negated classes never match "\n". */
  lineSource: string;
}

type Node =
  | { k: "lit"; ch: string }
  | { k: "any" }
  | { k: "zero" }
  | { k: "group"; alts: Item[][] };

interface Item {
  node: Node;
  min: number;
  max: number;
}

class ParseAbort extends Error {}

const MAX_LITERALS = 8;

/** Analyses `source` as compiled with `flags` (i, u, s); never throws. */
export function analyzeRegex(source: string, flags: string): RegexAnalysis {
  const unicode = flags.includes("u");
  const dotAll = flags.includes("s");
  const parser = new Parser(source, unicode, dotAll);
  try {
    const alts = parser.parseAlternatives();
    if (parser.pos < source.length) throw new ParseAbort();
    const literals = flags.includes("i") ? null : requiredOfAlternatives(alts);
    return {
      literals,
      lookaround: parser.lookaround,
      canMatchNewline: parser.newline,
      lineSource: parser.out,
    };
  } catch (error) {
    if (!(error instanceof ParseAbort)) throw error;
    return {
      literals: null,
      lookaround: /\(\?<?[=!]/.test(source),
      canMatchNewline: true,
      lineSource: source,
    };
  }
}

class Parser {
  pos = 0;
  out = "";
  lookaround = false;
  newline = false;
  readonly #src: string;
  readonly #unicode: boolean;
  readonly #dotAll: boolean;

  constructor(src: string, unicode: boolean, dotAll: boolean) {
    this.#src = src;
    this.#unicode = unicode;
    this.#dotAll = dotAll;
  }

  parseAlternatives(): Item[][] {
    const alts: Item[][] = [this.#parseSequence()];
    while (this.#src[this.pos] === "|") {
      this.out += "|";
      this.pos++;
      alts.push(this.#parseSequence());
    }
    return alts;
  }

  #parseSequence(): Item[] {
    const items: Item[] = [];
    const src = this.#src;
    while (this.pos < src.length && src[this.pos] !== "|" && src[this.pos] !== ")") {
      const atomStart = this.out.length;
      const node = this.#parseAtom();
      const quantStart = this.out.length;
      const { min, max } = this.#parseQuantifier();
      if (node.k === "lit" || node.k === "any") this.#unroll(atomStart, quantStart, min, max);
      if (node.k === "zero" && (min !== 1 || max !== 1)) items.push({ node, min: 0, max });
      else items.push({ node, min, max });
    }
    return items;
  }

  /**
   * Irregexp runs `\w{5}` about four times slower than `\w\w\w\w\w`: small counted
   * repetitions of a one-character atom are written out (same language, greedy as before).
   */
  #unroll(atomStart: number, quantStart: number, min: number, max: number): void {
    const quantifier = this.out.slice(quantStart);
    if (!quantifier.startsWith("{") || quantifier.endsWith("?") || min < 1 || min > 16) return;
    const atom = this.out.slice(atomStart, quantStart);
    let text = atom.repeat(min);
    if (max === Infinity) text += `${atom}*`;
    else if (max > min) text += `(?:${atom}){0,${max - min}}`;
    this.out = this.out.slice(0, atomStart) + text;
  }

  #parseQuantifier(): { min: number; max: number } {
    const src = this.#src;
    const c = src[this.pos];
    let min = 1;
    let max = 1;
    if (c === "*" || c === "+" || c === "?") {
      min = c === "+" ? 1 : 0;
      max = c === "?" ? 1 : Infinity;
      this.out += c;
      this.pos++;
    } else if (c === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(src.slice(this.pos, this.pos + 40));
      if (m === null) return { min, max };
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === "" ? Infinity : Number(m[3]);
      this.out += m[0];
      this.pos += m[0].length;
    } else {
      return { min, max };
    }
    if (src[this.pos] === "?") {
      this.out += "?";
      this.pos++;
    }
    return { min, max };
  }

  #parseAtom(): Node {
    const src = this.#src;
    const c = src[this.pos];
    if (c === "(") return this.#parseGroup();
    if (c === "[") return this.#parseClass();
    if (c === "\\") return this.#parseEscape();
    if (c === "^" || c === "$") {
      this.out += c;
      this.pos++;
      return { k: "zero" };
    }
    if (c === ".") {
      this.out += c;
      this.pos++;
      if (this.#dotAll) this.newline = true;
      return { k: "any" };
    }
    if (c === "*" || c === "+" || c === "?") throw new ParseAbort();
    if (this.#unicode && (c === "{" || c === "}" || c === "]")) throw new ParseAbort();
    const cp = src.codePointAt(this.pos)!;
    const ch = this.#unicode ? String.fromCodePoint(cp) : c;
    this.out += ch;
    this.pos += ch.length;
    if (ch === "\n") this.newline = true;
    return { k: "lit", ch };
  }

  #parseGroup(): Node {
    const src = this.#src;
    const rest = src.slice(this.pos, this.pos + 4);
    let head: string;
    let look = false;
    if (rest.startsWith("(?:")) head = "(?:";
    else if (rest.startsWith("(?=") || rest.startsWith("(?!")) {
      head = rest.slice(0, 3);
      look = true;
    } else if (rest.startsWith("(?<=") || rest.startsWith("(?<!")) {
      head = rest;
      look = true;
    } else if (rest.startsWith("(?<")) {
      const m = /^\(\?<[A-Za-z_$][\w$]*>/.exec(src.slice(this.pos, this.pos + 200));
      if (m === null) throw new ParseAbort();
      head = m[0];
    } else if (rest.startsWith("(?")) throw new ParseAbort();
    else head = "(";
    this.out += head;
    this.pos += head.length;
    const alts = this.parseAlternatives();
    if (src[this.pos] !== ")") throw new ParseAbort();
    this.out += ")";
    this.pos++;
    if (look) {
      this.lookaround = true;
      return { k: "zero" };
    }
    return { k: "group", alts };
  }

  #parseClass(): Node {
    const src = this.#src;
    let j = this.pos + 1;
    const negated = src[j] === "^";
    if (negated) j++;
    const bodyStart = j;
    for (; j < src.length; j++) {
      if (src[j] === "\\") j++;
      else if (src[j] === "]") break;
    }
    if (j >= src.length) throw new ParseAbort();
    const body = src.slice(bodyStart, j);
    this.pos = j + 1;
    const classNewline = /\\[nsWD]|\\x0a|\\u000a|\\c[jJ]|\\[pP]\{|\\x00-|\\0-|\\t-|\\u0000-/i.test(
      body,
    );
    if (negated) {
      this.out += `[^\\n${body}]`;
      if (!/\\n|\\s/.test(body)) this.newline = true;
    } else {
      this.out += `[${body}]`;
      if (classNewline) this.newline = true;
    }
    return { k: "any" };
  }

  #parseEscape(): Node {
    const src = this.#src;
    const d = src[this.pos + 1];
    if (d === undefined) throw new ParseAbort();
    const simple = (out: string, node: Node, newline = false): Node => {
      this.out += out;
      this.pos += 2;
      if (newline) this.newline = true;
      return node;
    };
    switch (d) {
      case "d":
      case "w":
      case "S":
        return simple("\\" + d, { k: "any" });
      case "s":
        return simple("[^\\S\\n]", { k: "any" }, true);
      case "W":
        return simple("[^\\w\\n]", { k: "any" }, true);
      case "D":
        return simple("[^\\d\\n]", { k: "any" }, true);
      case "b":
      case "B":
        return simple("\\" + d, { k: "zero" });
      case "n":
        return simple("\\n", { k: "lit", ch: "\n" }, true);
      case "t":
        return simple("\\t", { k: "lit", ch: "\t" });
      case "r":
        return simple("\\r", { k: "lit", ch: "\r" });
      case "v":
        return simple("\\v", { k: "lit", ch: "\v" });
      case "f":
        return simple("\\f", { k: "lit", ch: "\f" });
    }
    if (d === "0" && !/[0-9]/.test(src[this.pos + 2] ?? "")) {
      return simple("\\0", { k: "lit", ch: "\0" });
    }
    if (/[0-9]/.test(d)) throw new ParseAbort();
    if (d === "x") {
      const m = /^\\x([0-9a-fA-F]{2})/.exec(src.slice(this.pos, this.pos + 4));
      if (m === null) throw new ParseAbort();
      return this.#literalEscape(m[0], String.fromCharCode(parseInt(m[1], 16)));
    }
    if (d === "u") {
      const m = /^\\u([0-9a-fA-F]{4})/.exec(src.slice(this.pos, this.pos + 6)) ??
        (this.#unicode
          ? /^\\u\{([0-9a-fA-F]{1,6})\}/.exec(src.slice(this.pos, this.pos + 10))
          : null);
      if (m === null) throw new ParseAbort();
      const cp = parseInt(m[1], 16);
      if (cp > 0x10ffff) throw new ParseAbort();
      return this.#literalEscape(m[0], String.fromCodePoint(cp));
    }
    if (d === "p" || d === "P") {
      if (!this.#unicode) throw new ParseAbort();
      const m = /^\\[pP]\{[^}]*\}/.exec(src.slice(this.pos, this.pos + 80));
      if (m === null) throw new ParseAbort();
      this.out += m[0];
      this.pos += m[0].length;
      this.newline = true;
      return { k: "any" };
    }
    if (/[A-Za-z]/.test(d)) throw new ParseAbort();
    // Identity escape of a punctuation character.
    return simple("\\" + d, { k: "lit", ch: d });
  }

  #literalEscape(text: string, ch: string): Node {
    this.out += text;
    this.pos += text.length;
    if (ch === "\n") this.newline = true;
    return { k: "lit", ch };
  }
}

/** Literal alternatives that every match of one of `alts` contains, or null. */
function requiredOfAlternatives(alts: Item[][]): string[] | null {
  const all = new Set<string>();
  for (const alt of alts) {
    const req = requiredOfSequence(alt);
    if (req === null) return null;
    for (const s of req) all.add(s);
    if (all.size > MAX_LITERALS) return null;
  }
  return [...all];
}

function flatten(items: Item[]): Item[] {
  const out: Item[] = [];
  for (const item of items) {
    if (
      item.node.k === "group" && item.node.alts.length === 1 && item.min === 1 && item.max === 1
    ) {
      out.push(...flatten(item.node.alts[0]));
    } else out.push(item);
  }
  return out;
}

function requiredOfSequence(items: Item[]): string[] | null {
  const candidates: string[][] = [];
  let run = "";
  const endRun = (next: string) => {
    if (run !== "") candidates.push([run]);
    run = next;
  };
  for (const item of flatten(items)) {
    const node = item.node;
    if (node.k === "zero") continue;
    if (node.k === "lit") {
      if (item.min === 0) endRun("");
      else {
        run += node.ch.repeat(Math.min(item.min, 64));
        if (item.max !== item.min) endRun(node.ch);
      }
      continue;
    }
    endRun("");
    if (node.k === "group" && item.min >= 1) {
      const req = requiredOfAlternatives(node.alts);
      if (req !== null) candidates.push(req);
    }
  }
  endRun("");
  let best: string[] | null = null;
  let bestScore = -1;
  for (const set of candidates) {
    if (set.some((s) => s.includes("\uFFFD"))) continue;
    const score = Math.min(...set.map((s) => s.length)) * 16 - set.length;
    if (score > bestScore) {
      best = set;
      bestScore = score;
    }
  }
  return best;
}
