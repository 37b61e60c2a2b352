/**
 * What the index benches (bench/index.ts, index_cache.ts) share: a count-mode grep on our server,
 * timed from the client, and its answer set beside `rg -c`'s counts of the same query.
 */
import { parseLine, type Peer } from "./client.ts";
import { refusedPaths } from "./secrets.ts";

/** A grep's answer: its time, files and matching lines, per-file counts (count mode). */
export interface GrepCounts {
  ms: number;
  files: number;
  matches: number;
  /** Absent in content mode. */
  counts?: Map<string, number>;
  /** The error the server answered, if it did. */
  error?: string;
}

/** `path:count` lines (rg -c, our count mode) as a map. */
export function toCounts(lines: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const l of lines) {
    if (l === "") continue;
    const i = l.lastIndexOf(":");
    m.set(l.slice(0, i), Number(l.slice(i + 1)));
  }
  return m;
}

/** rg -c's counts over `corpus` without the secret files our server refuses to read. */
export function rgCounts(corpus: string, stdout: string): Map<string, number> {
  const counts = toCounts(stdout.split("\n"));
  for (const p of refusedPaths(corpus, counts.keys())) counts.delete(p);
  return counts;
}

/** grep with `args` and no head limit on `peer`, timed from the request to the answer. */
export async function grepCounts(peer: Peer, args: Record<string, unknown>): Promise<GrepCounts> {
  const t0 = performance.now();
  const a = await peer.requestLine("tools/call", {
    name: "grep",
    arguments: { ...args, head_limit: 0 },
  }, { timeoutMs: 600_000 });
  const ms = performance.now() - t0;
  const msg = parseLine(a.line) as {
    result?: {
      isError?: boolean;
      content: { text?: string }[];
      structuredContent?: { counts?: string[]; total_files: number; total_matches: number };
    };
  };
  const sc = msg.result?.structuredContent;
  if (msg.result === undefined || msg.result.isError || sc === undefined) {
    return { ms, files: 0, matches: 0, error: msg.result?.content[0]?.text ?? "no result" };
  }
  const counts = sc.counts === undefined ? undefined : toCounts(sc.counts);
  return { ms, files: sc.total_files, matches: sc.total_matches, counts };
}

/**
 * A grep's answer against rg's counts: with per-file counts, the paths whose counts differ;
 * without (content mode), whether the files and lines are rg's; rg's files and lines.
 */
export function againstRg(
  got: GrepCounts,
  rg: Map<string, number>,
): { ok: boolean; differ: string[]; rgFiles: number; rgLines: number } {
  let rgLines = 0;
  for (const n of rg.values()) rgLines += n;
  const counts = got.counts;
  if (counts === undefined) {
    const ok = rgLines === got.matches && rg.size === got.files;
    return { ok, differ: [], rgFiles: rg.size, rgLines };
  }
  const differ = [...new Set([...counts.keys(), ...rg.keys()])].filter((p) =>
    counts.get(p) !== rg.get(p)
  );
  return { ok: differ.length === 0, differ, rgFiles: rg.size, rgLines };
}
