// deno-lint-ignore-file no-console
/**
 * Workspace benchmark on the kernel tree (bench/corpus.sh), warm cache:
 * - complete resources/list (every page, following nextCursor) vs `rg --files --hidden -L`;
 * - the slowest page; a 1 MiB file through resources/read (round trip from the client);
 * - our peak RSS (VmHWM);
 * - CHECK: the listed set equals rg's set minus secret files, no path twice, rg's path order.
 *
 *   deno run --allow-read --allow-run --allow-env bench/workspace.ts [--rounds 3] [--reads 20]
 */
import { loadAverage, parseLine, Peer } from "./client.ts";
import {
  CORPUS,
  median,
  oursCommand,
  requireCorpusAndServer,
  serverLabel,
  timed,
} from "./servers.ts";
import { refusedPaths } from "./secrets.ts";
import { numFlag } from "./flags.ts";

const ROUNDS = numFlag("--rounds", 3);
const READS = numFlag("--reads", 20);
const MIB = 1024 * 1024;

/** Segment-by-segment code-unit order (`rg --files --sort path`): "/" sorts before any other char. */
export function comparePaths(a: string, b: string): number {
  const sa = a.split("/");
  const sb = b.split("/");
  for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
    if (sa[i] !== sb[i]) return sa[i] < sb[i] ? -1 : 1;
  }
  return sa.length - sb.length;
}

requireCorpusAndServer();

const LOAD = loadAverage();
// rg anchor, warm cache: one run to warm; timed runs are paired with our listings below.
const RG = ["rg", "--files", "--hidden", "-L"];
let rgOut = await timed(RG, CORPUS);
const rgMs: number[] = [];
const rgFiles = rgOut.stdout.split("\n").filter((l) => l !== "");
const refused = refusedPaths(CORPUS, rgFiles);
const expected = rgFiles.filter((p) => !refused.has(p));

const peer = new Peer("ours", oursCommand(CORPUS), { stderr: "inherit" });
await peer.handshake();

interface Listing {
  ms: number;
  pages: number[];
  names: string[];
  error?: string;
}

async function listAll(): Promise<Listing> {
  const names: string[] = [];
  const pages: number[] = [];
  let cursor: string | undefined;
  let pageMs = 0;
  while (true) {
    const p0 = performance.now();
    const a = await peer.requestLine(
      "resources/list",
      cursor === undefined ? {} : { cursor },
      { timeoutMs: 120_000 },
    );
    const p1 = performance.now();
    pages.push(p1 - p0);
    pageMs += p1 - p0;
    const msg = parseLine(a.line) as {
      result?: { resources: { name: string }[]; nextCursor?: string };
      error?: unknown;
    };
    if (!msg.result) return { ms: NaN, pages, names, error: JSON.stringify(msg.error) };
    for (const r of msg.result.resources) names.push(r.name);
    cursor = msg.result.nextCursor;
    if (cursor === undefined) break;
  }
  // The listing's time is the sum of its round trips (our client's JSON.parse of pages excluded).
  return { ms: pageMs, pages, names };
}

const warm = await listAll(); // warm-up listing (and the one the CHECK uses)
const listings: Listing[] = [];
const ratios: number[] = [];
for (let i = 0; i < ROUNDS && !warm.error; i++) {
  // Paired rounds (rg, ours) so that the machine's load hits both alike.
  rgOut = await timed(RG, CORPUS);
  rgMs.push(rgOut.ms);
  const l = await listAll();
  listings.push(l);
  ratios.push(l.ms / rgOut.ms);
}

// CHECK: same set as rg minus secrets, no duplicates, rg's order.
const checks: string[] = [];
let ok = true;
if (warm.error) {
  checks.push(`FAIL resources/list answered an error: ${warm.error}`);
  ok = false;
} else {
  const got = new Set(warm.names);
  const want = new Set(expected);
  const missing = expected.filter((p) => !got.has(p));
  const extra = warm.names.filter((p) => !want.has(p));
  const dupes = warm.names.length - got.size;
  if (missing.length === 0 && extra.length === 0 && dupes === 0) {
    checks.push(
      `PASS listed set = rg set minus secrets: ${got.size} files ` +
        `(rg ${rgFiles.length}, secret: ${[...refused].join(", ") || "none"})`,
    );
  } else {
    ok = false;
    checks.push(
      `FAIL listed ${warm.names.length} (distinct ${got.size}), expected ${want.size}; ` +
        `missing ${missing.length}: ${missing.slice(0, 10).join(", ")}; ` +
        `extra ${extra.length}: ${extra.slice(0, 10).join(", ")}; duplicates ${dupes}`,
    );
  }
  let firstBad = -1;
  for (let i = 1; i < warm.names.length; i++) {
    if (comparePaths(warm.names[i - 1], warm.names[i]) >= 0) {
      firstBad = i;
      break;
    }
  }
  checks.push(
    firstBad < 0
      ? "PASS listing order is rg --sort path order (segment by segment)"
      : `FAIL listing order: "${warm.names[firstBad - 1]}" before "${warm.names[firstBad]}"`,
  );
  const pageSizes = warm.pages.length;
  checks.push(`INFO ${pageSizes} pages per listing`);
}

// The text file whose size is closest to 1 MiB.
function pickMiBFile(): { path: string; size: number } {
  const sized = expected.map((p) => ({ path: p, size: Deno.statSync(`${CORPUS}/${p}`).size }));
  sized.sort((a, b) => Math.abs(a.size - MIB) - Math.abs(b.size - MIB));
  const fatal = new TextDecoder("utf-8", { fatal: true });
  for (const f of sized.slice(0, 50)) {
    const bytes = Deno.readFileSync(`${CORPUS}/${f.path}`);
    if (bytes.includes(0)) continue;
    try {
      fatal.decode(bytes);
      return f;
    } catch {
      // not UTF-8
    }
  }
  throw new Error("No text file near 1 MiB in the corpus");
}
const big = pickMiBFile();
const bigUri = new URL(`file://${CORPUS}/${big.path}`).href;
const readMs: number[] = [];
let readError = "";
for (let i = 0; i < READS + 2; i++) {
  const t0 = performance.now();
  const a = await peer.requestLine("resources/read", { uri: bigUri }, { timeoutMs: 30_000 });
  const ms = performance.now() - t0;
  const msg = parseLine(a.line) as { result?: { contents: { text?: string }[] }; error?: unknown };
  if (!msg.result) {
    readError = JSON.stringify(msg.error);
    break;
  }
  if (i === 0 && new TextEncoder().encode(msg.result.contents[0].text ?? "").length !== big.size) {
    checks.push(`FAIL resources/read of ${big.path}: text length differs from the file`);
    ok = false;
  }
  if (i >= 2) readMs.push(ms);
}

const rss = peer.peakRssKiB() / 1024;
const status = await peer.close();

const listMs = median(listings.map((l) => l.ms));
const rgMed = median(rgMs);
const slowestEach = listings.map((l) => Math.max(...l.pages));
/** Which page (1-based) was the slowest, per listing. */
const slowestAt = listings.map((l) => l.pages.indexOf(Math.max(...l.pages)) + 1);
const listRatio = median(ratios);
const f1 = (x: number) => x.toFixed(1);
const verdict = (pass: boolean) => (pass ? "met" : "**missed**");

console.log(
  `Workspace bench on ${CORPUS} (${rgFiles.length} files by rg), warm cache, ` +
    `${ROUNDS} paired rounds (rg, ours), ratio = median of per-round ratios; ` +
    `deno ${Deno.version.deno}, ${navigator.hardwareConcurrency} cores, load average at start ${LOAD}; ` +
    `server ${serverLabel()}\n`,
);
console.log("| measure | ours | anchor | ratio | target | |");
console.log("|---|---:|---:|---:|---|---|");
console.log(
  `| complete resources/list, all ${warm.pages.length} pages (ms, median of ${ROUNDS}) | ${
    f1(listMs)
  } | ` +
    `rg --files --hidden -L: ${f1(rgMed)} | ${listRatio.toFixed(2)}x | <= 3x | ` +
    `${verdict(listRatio <= 3)} |`,
);
console.log(
  `| slowest page (ms, median over listings of each listing's slowest; worst seen ${
    f1(Math.max(...slowestEach))
  }; it was page ${slowestAt.join(", ")}) | ${f1(median(slowestEach))} | | | <= 50 ms | ${
    verdict(median(slowestEach) <= 50)
  } |`,
);
if (readError) {
  console.log(`| resources/read of a 1 MiB file | not measured: ${readError} | | | <= 15 ms | |`);
} else {
  console.log(
    `| resources/read round trip, ${big.path} (${big.size} bytes) (ms, median of ${READS}; max ${
      f1(Math.max(...readMs))
    }) | ${f1(median(readMs))} | | | <= 15 ms | ${verdict(median(readMs) <= 15)} |`,
  );
}
console.log(`| peak RSS (MiB, VmHWM) | ${f1(rss)} | | | <= 150 MiB | ${verdict(rss <= 150)} |`);
console.log("");
for (const c of checks) console.log(`- ${c}`);
if (status.code !== 0) console.log(`- FAIL server exit code ${status.code} after stdin closed`);
if (!ok) Deno.exitCode = 1;
