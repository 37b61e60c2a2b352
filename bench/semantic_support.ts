// deno-lint-ignore-file no-console
/**
 * What the semantic benches (bench/semantic.ts, semantic_navigation.ts, python_semantic.ts,
 * python_navigation.ts) share: sampled positions, timed tool calls, the first call with pings
 * beside it, the references and definitions parity per position, the rename timing, the
 * percentiles and the rows of their tables.
 */
import type { Peer } from "./client.ts";

/** A sampled position: a declaration's name, 1-based line and column. */
export interface Position {
  path: string;
  line: number;
  column: number;
  name: string;
}

/** A tool's arguments for a position. */
export function at(p: Position): { path: string; line: number; column: number } {
  return { path: p.path, line: p.line, column: p.column };
}

/**
 * The declarations `pattern` finds in the lines of `text` (the file `path`), named by its group
 * `nameGroup`, in line order, each with its match.
 */
export function declarationsIn(
  path: string,
  text: string,
  declaration: { pattern: RegExp; nameGroup: number },
): Array<{ position: Position; match: RegExpExecArray }> {
  const found: Array<{ position: Position; match: RegExpExecArray }> = [];
  const group = declaration.nameGroup;
  text.split("\n").forEach((line, i) => {
    const match = declaration.pattern.exec(line);
    if (match === null) return;
    const name = match[group];
    found.push({ position: { path, line: i + 1, column: line.indexOf(name) + 1, name }, match });
  });
  return found;
}

/** `count` of `list`, spread evenly. */
export function spread<T>(list: T[], count: number): T[] {
  const step = Math.max(1, Math.floor(list.length / count));
  return list.filter((_, i) => i % step === 0).slice(0, count);
}

export function percentile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) * q)];
}

export function p50(values: number[]): number {
  return percentile(values, 0.5);
}

/** One row of a bench's table: measure, ours, anchor, ratio, target, met or missed. */
export function row(
  measure: string,
  ours: string,
  anchor: string,
  ratio: string,
  target: string,
  ok: boolean,
): void {
  console.log(
    `| ${measure} | ${ours} | ${anchor} | ${ratio} | ${target} | ${ok ? "met" : "**missed**"} |`,
  );
}

/** The row of the first semantic call, ours against the anchor's (target: at most 1.5x). */
export function firstCallRow(oursMs: number, anchorMs: number): void {
  row(
    "first semantic call",
    `${oursMs.toFixed(0)} ms`,
    `${anchorMs.toFixed(0)} ms`,
    `${(oursMs / anchorMs).toFixed(2)}x`,
    "<= 1.5x",
    oursMs <= 1.5 * anchorMs,
  );
}

/** The row of the peak RSS in MiB, ours against the anchor's (target: 1.3x + 150 MiB). */
export function peakRssRow(oursMiB: number, anchorMiB: number): void {
  row(
    "peak RSS",
    `${oursMiB.toFixed(0)} MiB`,
    `${anchorMiB.toFixed(0)} MiB`,
    `${(oursMiB / anchorMiB).toFixed(2)}x`,
    `<= ${(1.3 * anchorMiB + 150).toFixed(0)} MiB (1.3x + 150)`,
    oursMiB <= 1.3 * anchorMiB + 150,
  );
}

/** The parity row (`checks` answers compared, `misses` of them unequal) and each miss. */
export function parityRows(checks: number, misses: string[]): void {
  row(
    "parity (definitions + references per position)",
    `${checks - misses.length}/${checks} equal`,
    "",
    "",
    "all",
    misses.length === 0,
  );
  for (const miss of misses) console.log(`- parity miss: ${miss}`);
}

/** A navigation table's row: our p50 and the anchor's, their ratio, against `targetMs`. */
export function p50Row(
  label: string,
  times: { ours: number[]; anchor: number[] },
  targetMs: number,
) {
  const mine = p50(times.ours);
  const theirs = p50(times.anchor);
  console.log(
    `| ${label} | ${mine.toFixed(1)} ms | ${theirs.toFixed(1)} ms | ${
      (mine / theirs).toFixed(2)
    }x | ` +
      `<= ${targetMs} ms | ${mine <= targetMs ? "met" : "**missed**"} |`,
  );
}

export function isError(answer: Record<string, unknown>): boolean {
  return (answer.result as { isError?: boolean } | undefined)?.isError === true;
}

/** find_references' places (path:line:column of each line), sorted. */
export function referencePlaces(answer: Record<string, unknown>): string[] {
  const result = answer.result as { structuredContent?: { lines?: string[] } };
  return (result.structuredContent?.lines ?? []).map((l) => {
    const m = /^(.*?):(\d+):(\d+):/.exec(l)!;
    return `${m[1]}:${m[2]}:${m[3]}`;
  }).sort();
}

/** go_to_definition's places inside the root (path:line:column), in its order. */
export function definitionPlaces(answer: Record<string, unknown>): string[] {
  const result = answer.result as {
    structuredContent?: {
      definitions?: Array<{ path: string | null; line: number; column: number }>;
    };
  };
  return (result.structuredContent?.definitions ?? []).filter((d) => d.path !== null).map((d) =>
    `${d.path}:${d.line}:${d.column}`
  );
}

/** A tool call on `peer` timed from the client (up to 300 s): its round trip and answer. */
export function timedCalls(
  peer: Peer,
): (name: string, args: Record<string, unknown>) => Promise<TimedAnswer> {
  return async (name, args) => {
    const t = performance.now();
    const answer = await peer.request("tools/call", { name, arguments: args }, {
      timeoutMs: 300_000,
    });
    return { ms: performance.now() - t, answer };
  };
}

export interface TimedAnswer {
  ms: number;
  answer: Record<string, unknown>;
}

/**
 * Runs `work` while `ping` runs every 25 ms, one after another, until it ends: its value and its
 * time.
 */
export async function whilePinging<T>(
  ping: () => Promise<void>,
  work: () => Promise<T>,
): Promise<{ value: T; ms: number }> {
  let busy = true;
  const pinger = (async () => {
    while (busy) {
      await ping();
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  })();
  const t0 = performance.now();
  const value = await work();
  const ms = performance.now() - t0;
  busy = false;
  await pinger;
  return { value, ms };
}

/**
 * find_references (timed) and go_to_definition at each position, against the anchor's answers
 * at the same index: the references' times and the parity misses.
 */
export async function askPositions(
  peer: Peer,
  positions: Position[],
  want: ReadonlyArray<{ references: string[]; definitions: string[] }>,
): Promise<{ refsMs: number[]; misses: string[] }> {
  const refsMs: number[] = [];
  const misses: string[] = [];
  for (let i = 0; i < positions.length; i++) {
    const p = positions[i];
    const t = performance.now();
    const refs = await peer.request("tools/call", {
      name: "find_references",
      arguments: { ...at(p), head_limit: 0 },
    }, { timeoutMs: 300_000 });
    refsMs.push(performance.now() - t);
    const defs = await peer.request("tools/call", { name: "go_to_definition", arguments: at(p) });
    const ours = referencePlaces(refs);
    if (isError(refs) || JSON.stringify(ours) !== JSON.stringify(want[i].references)) {
      misses.push(
        `references of ${p.name} (${p.path}:${p.line}): ${ours.length} vs ${
          want[i].references.length
        }`,
      );
    }
    const theirs = [...want[i].definitions].sort();
    if (JSON.stringify(definitionPlaces(defs).sort()) !== JSON.stringify(theirs)) {
      misses.push(`definitions of ${p.name} (${p.path}:${p.line})`);
    }
  }
  return { refsMs, misses };
}

/** rename_symbol's dry run at `target`, timed: the first, and the faster of two more. */
export async function timeRename(
  peer: Peer,
  rename: { target: Position; newName: string },
): Promise<{ cold: number; warm: number }> {
  const once = async () => {
    const t = performance.now();
    const answer = await peer.request("tools/call", {
      name: "rename_symbol",
      arguments: { ...at(rename.target), new_name: rename.newName },
    }, { timeoutMs: 300_000 });
    if (isError(answer)) throw new Error(`rename failed: ${JSON.stringify(answer.result)}`);
    return performance.now() - t;
  };
  const cold = await once();
  const warm = Math.min(await once(), await once());
  return { cold, warm };
}
