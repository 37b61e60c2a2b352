// deno-lint-ignore-file no-console
/**
 * The grep matcher of this checkout against an older one, in one process, on the same texts: the
 * kernel's drivers/ *.c and *.h files (first 150 MB, read once, warm). Each query is translated
 * and matched by both with scanText on each whole file (counts, as in grep's count mode; the
 * server also cuts files over 256 KiB into chunks there), one after the other in each round
 * (which goes first alternates), so that the machine's load hits both alike. The median of 7
 * rounds (3 for a query over a second) is reported with the ratio new/old and both counts, which
 * must be equal. File reading and the protocol are the same code in both, so this isolates the
 * regex translation and the scan strategy.
 *
 *   git -C . archive <old-commit> lib | tar -x -C /tmp/old
 *   deno run --allow-read --allow-env bench/regex_ab.ts /tmp/old
 *
 * Run it without the server's --v8-flags: the older matcher predates the linear-time fallback and
 * its whole-text windows, and would be charged for the fallback on large files. That charge is
 * what `--big` shows, with the flag: the files over 5 MB, where one unwindowed exec crosses V8's
 * backtrack limit and is rerun in the slow linear-time engine.
 */
import { CORPUS } from "./servers.ts";

interface PatternModule {
  translatePattern(
    pattern: string,
    options: { ignoreCase: boolean; fixedStrings: boolean; multiline: boolean },
  ): { spec: unknown } | { error: string };
}
interface MatcherModule {
  createMatcher(
    spec: never,
  ): { scanText(text: string, o: { wantLines: boolean }): { count: number } };
}

const oldDir = Deno.args[0];
/** --big: only the drivers/ files over 5 MB (run it with the server's --v8-flags, see docs). */
const BIG = Deno.args.includes("--big");
if (oldDir === undefined) {
  console.error("usage: bench/regex_ab.ts <folder holding an older lib/>");
  Deno.exit(2);
}
const here = new URL("../", import.meta.url).pathname;
async function load(dir: string): Promise<[PatternModule, MatcherModule]> {
  return [
    await import(`file://${dir}/lib/search/pattern.ts`),
    await import(`file://${dir}/lib/search/matcher.ts`),
  ];
}
const [oldP, oldM] = await load(oldDir);
const [newP, newM] = await load(here.replace(/\/$/, ""));

const texts: string[] = [];
let bytes = 0;
function walk(dir: string): void {
  for (const e of [...Deno.readDirSync(dir)].sort((a, b) => a.name < b.name ? -1 : 1)) {
    if (!BIG && bytes > 150e6) return;
    const p = `${dir}/${e.name}`;
    if (e.isDirectory) walk(p);
    else if (e.isFile && /\.[ch]$/.test(e.name)) {
      if (BIG && Deno.statSync(p).size <= 5e6) continue;
      const t = Deno.readTextFileSync(p);
      texts.push(t);
      bytes += t.length;
    }
  }
}
walk(`${CORPUS}/drivers`);
console.log(
  `${texts.length} files, ${(bytes / 1e6).toFixed(0)} MB of drivers/ *.c *.h${
    BIG ? " over 5 MB" : ""
  }`,
);

const QUERIES: [string, boolean][] = BIG
  ? [["\\w{5}\\s+\\w{5}\\s+\\w{5}\\s+\\w{5}\\s+\\w{5}", false], ["[a-z]+_[a-z]+_[a-z]+\\(", false]]
  : [
    ["PM_RESUME", false],
    ["PM_RESUME", true],
    ["[A-Z]+_RESUME", false],
    ["ERR_SYS|PME_TURN_OFF|LINK_REQ_RST|CFG_BME_EVT", false],
    ["\\w{5}\\s+\\w{5}\\s+\\w{5}\\s+\\w{5}\\s+\\w{5}", false],
    ["^static const struct file_operations \\w+ = \\{", false],
    ["foo.*bar", false],
    ["\\bint\\b", true],
    // Patterns that start with a run of one class (run_starts.ts) and have no literal to find.
    ["[a-z]+_[a-z]+\\(", false],
    ["\\s+$", false],
    ["[[:alpha:]]+[[:digit:]]+", false],
  ];

/** 7 rounds for a query under a second (its noise is larger), 3 for slower ones. */
function rounds(done: number[]): number {
  return done.length > 0 && done[0] > 1000 ? 3 : 7;
}

function median(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
}

console.log("| query | old ms | new ms | new/old | counts |\n| --- | --- | --- | --- | --- |");
for (const [pattern, ignoreCase] of QUERIES) {
  const options = { ignoreCase, fixedStrings: false, multiline: false };
  const so = oldP.translatePattern(pattern, options);
  const sn = newP.translatePattern(pattern, options);
  if ("error" in so || "error" in sn) {
    console.log(`| ${pattern} | error | error | | |`);
    continue;
  }
  const mo = oldM.createMatcher(so.spec as never);
  const mn = newM.createMatcher(sn.spec as never);
  const to: number[] = [];
  const tn: number[] = [];
  let co = 0;
  let cn = 0;
  for (let round = 0; round < rounds(to); round++) {
    // Alternate which runs first, so that neither always inherits the other's garbage.
    for (const which of round % 2 === 0 ? ["old", "new"] : ["new", "old"]) {
      const m = which === "old" ? mo : mn;
      const t = performance.now();
      let c = 0;
      for (const x of texts) c += m.scanText(x, { wantLines: false }).count;
      (which === "old" ? to : tn).push(performance.now() - t);
      if (which === "old") co = c;
      else cn = c;
    }
  }
  const label = `${ignoreCase ? "-i " : ""}\`${pattern.replaceAll("|", "\\|")}\``;
  console.log(
    `| ${label} | ${median(to).toFixed(0)} | ${median(tn).toFixed(0)} | ${
      (median(tn) / median(to)).toFixed(2)
    } | ${co} / ${cn}${co === cn ? "" : " DIFFER"} |`,
  );
}
