// deno-lint-ignore-file no-console
/**
 * Edit benchmark (docs/BENCHMARKS.md "Edits"): edit_file's work on a 100 KB source file (resolve
 * for writing, lock, read, SHA-256, read-before-write check, unique match, diff, atomic write,
 * SHA-256 of the result) against the floor: a raw read plus an atomic write of the same bytes
 * (temp file, fsync, rename, folder fsync). Both in one process, interleaved, same file, same run.
 *
 *   deno run --allow-read --allow-write --allow-run=cat --allow-env bench/edits.ts [--rounds 200]
 */
import { loadAverage } from "./client.ts";
import { writeAtomic } from "../lib/edits/atomic_write.ts";
import { EditSession } from "../lib/edits/edit_session.ts";
import { loadDiffLibrary } from "../lib/edits/diff.ts";
import { editFile } from "../lib/edits/operations.ts";
import { recordFileRead } from "../lib/edits/record_read.ts";
import { Workspace } from "../lib/workspace/workspace.ts";

function numFlag(name: string, dflt: number): number {
  const i = Deno.args.indexOf(name);
  return i >= 0 ? Number(Deno.args[i + 1]) : dflt;
}
const ROUNDS = numFlag("--rounds", 200);
const LIMITS = { maxBytes: 10 * 1024 * 1024 };

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

const base = await Deno.makeTempDir({ prefix: "shipcode-bench-edits-" });
const root = `${base}/root`;
await Deno.mkdir(`${root}/src`, { recursive: true });
// ~100 KB of source-like lines, one marker line in the middle.
const lines: string[] = [];
for (let i = 0; lines.join("\n").length < 100_000; i++) {
  lines.push(
    i === 1200
      ? "const marker = 0;"
      : `export function f${i}(x: number): number { return x * ${i}; }`,
  );
}
const text = lines.join("\n") + "\n";
await Deno.writeTextFile(`${root}/src/big.ts`, text);
const size = (await Deno.stat(`${root}/src/big.ts`)).size;

const ws = await Workspace.open({ root, noIgnore: false, allowSecrets: false });
const edits = new EditSession();
await loadDiffLibrary();
{
  const opened = await ws.openFile("src/big.ts");
  opened.file.close();
  await recordFileRead(edits, ws, "src/big.ts", { ...opened, maxBytes: LIMITS.maxBytes });
}

let flip = 0;
async function oneEdit(): Promise<number> {
  const [from, to] = flip++ % 2 === 0 ? ["marker = 0", "marker = 1"] : ["marker = 1", "marker = 0"];
  const t = performance.now();
  await editFile(ws, edits, {
    input: "src/big.ts",
    oldString: from,
    newString: to,
    replaceAll: false,
    dryRun: false,
  }, LIMITS);
  return performance.now() - t;
}

const realDir = `${ws.root}/src`;
async function oneFloor(): Promise<number> {
  const t = performance.now();
  const bytes = await Deno.readFile(`${realDir}/big.ts`);
  await writeAtomic(realDir, "big.ts", bytes, { mode: 0o644 });
  return performance.now() - t;
}

// Warm both paths (JIT, page cache), then interleave so both see the same noise.
for (let i = 0; i < 20; i++) {
  await oneEdit();
  await oneFloor();
}
const editMs: number[] = [];
const floorMs: number[] = [];
for (let i = 0; i < ROUNDS; i++) {
  editMs.push(await oneEdit());
  floorMs.push(await oneFloor());
}
await Deno.remove(base, { recursive: true });

const load = loadAverage();
const row = (name: string, ms: number[]) =>
  `| ${name} | ${quantile(ms, 0.5).toFixed(2)} | ${quantile(ms, 0.9).toFixed(2)} |`;
console.log(`file: ${size} bytes, ${ROUNDS} rounds each, interleaved; load average ${load}`);
console.log("| path | median ms | p90 ms |");
console.log("|---|---|---|");
console.log(row("edit_file (operations layer)", editMs));
console.log(row("floor: raw read + atomic write", floorMs));
const extra = quantile(editMs, 0.5) - quantile(floorMs, 0.5);
console.log(
  `edit costs ${extra.toFixed(2)} ms more than the floor at the median (target: <= 10 ms)`,
);
